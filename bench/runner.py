"""Running instance sets under configurations: the loop that produces the rows.

Everything runs one thing at a time (the machine has two cores and a solver
child per run), in a fixed order, so two runs of the same plan measure the
same things in the same sequence.  A wrong verdict is announced the moment it
happens; the caller decides the exit status from `verdicts.failures`.
"""

from __future__ import annotations

import dataclasses
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from compiler.solving.processes.cluster import this_worker

from .configs import Configuration, resolve_default
from .instances import Instance
from .measure import CompileFailed, Compiled, ProcessCompile, compile_in_process, compile_process, solve, translate
from .progress import Progress
from .records import COMPILE_ERROR, COMPILED, WRONG, Row
from .verdicts import check


@dataclass(frozen=True)
class RunOptions:
    time_limit: float  # seconds per solve (preprocessing included)
    repeat: int = 1  # compile timings: best of this many
    model: bool = True  # ask solvers for the first move, as `bddlc solve` does


@dataclass(frozen=True)
class Plan:
    """Which encodings to compile and which CNF translations to make of each, derived from the configurations."""

    configs: tuple[Configuration, ...]

    @property
    def encodings(self) -> list[str]:
        return list(dict.fromkeys(c.encoding for c in self.configs))

    def variants(self, encoding: str) -> list[str]:
        return list(dict.fromkeys(c.tseitin for c in self.configs if c.encoding == encoding))

    def configs_for(self, encoding: str, tseitin: str) -> list[Configuration]:
        return [c for c in self.configs if c.encoding == encoding and c.tseitin == tseitin]

    def steps(self, instances: list[Instance]) -> int:
        """Progress steps: one compile per instance and encoding, one per solve."""
        solving = sum(1 for i in instances if i.solve)
        return len(instances) * len(self.encodings) + solving * len(self.configs)


def run(
    instances: list[Instance],
    configs: list[Configuration],
    options: RunOptions,
    progress: Progress | None = None,
    compile_process_fn: Callable[..., ProcessCompile] = compile_process,
    rows: list[Row] | None = None,
    after_instance: Callable[[list[Row]], None] | None = None,
    done: frozenset[tuple[str, str]] = frozenset(),
) -> list[Row]:
    """Measure every instance under every configuration; the rows, in a fixed order.

    Rows are appended to `rows` (when given) as they are made, so a caller
    that is interrupted still has everything measured so far; `after_instance`
    sees them after each instance, so that a run of hours can keep its results
    on disk even if it is killed outright.  Tasks whose `task_key` is in
    `done` (measured by an earlier run) are skipped."""
    plan = Plan(tuple(configs))
    progress = progress or Progress(plan.steps(instances))
    rows = [] if rows is None else rows
    if instances and configs:
        _warm_up(instances[0], plan.encodings[0])
    here = this_worker()
    with tempfile.TemporaryDirectory(prefix="bench-") as folder:
        for instance in instances:
            left = Plan(tuple(c for c in configs if task_key(instance, c) not in done))
            for encoding in left.encodings:
                measured = _run_encoding(instance, encoding, left, options, progress, Path(folder), compile_process_fn)
                rows.extend(dataclasses.replace(row, worker=here.name, tasks_at_once=1) for row in measured)
            if after_instance is not None and left.configs:
                after_instance(rows)
    progress.close()
    return rows


def task_key(instance: Instance, config: Configuration) -> tuple[str, str]:
    """What one task measures: an instance under a configuration (a compile-only
    instance: under the configuration's encoding, once for all its configurations)."""
    return (instance.id, config.name if instance.solve else config.encoding)


def row_key(row: Row) -> tuple[str, str]:
    """The `task_key` of the task that made the row."""
    return (row.instance, row.config if row.solver else row.encoding)


def _warm_up(instance: Instance, encoding: str) -> None:
    """Build the parser (and fill the import caches) before the first in-process timing."""
    try:
        compile_in_process(instance.domain, instance.problem, encoding)
    except CompileFailed:
        pass


def _run_encoding(instance, encoding, plan, options, progress, folder, compile_process_fn) -> list[Row]:
    try:
        process = compile_process_fn(instance.domain, instance.problem, encoding, options.repeat)
        compiled = compile_in_process(instance.domain, instance.problem, encoding, options.repeat)
    except CompileFailed as exc:
        progress.message(f"COMPILE ERROR: {instance.id} [encoding {encoding}]: {exc}")
        progress.step(f"{instance.id} {encoding}: compile error")
        failed = []
        for tseitin in plan.variants(encoding):
            configs = plan.configs_for(encoding, tseitin) if instance.solve else [None]
            for config in configs:
                failed.append(_row(instance, encoding, tseitin, config, None, None, None, COMPILE_ERROR, None, None, str(exc)))
                if config is not None:
                    progress.step(f"{instance.id} {config}: not compiled")
        return failed
    progress.step(f"{instance.id} {encoding}: compiled in {process.seconds:.2f} s")

    rows = []
    # the QCIR file serves QCIR configurations and the QCIR members of portfolios
    qcir_path = folder / f"formula-{encoding}.qcir"
    qcir_path.write_text(compiled.qcir_text, encoding="ascii")
    for tseitin in plan.variants(encoding):
        # "auto": what the default solver reads, for the encoding `auto` compiled to
        resolved = resolve_default(compiled.encoding) if tseitin == "auto" else None
        given = resolved or plan.configs_for(encoding, tseitin)[0]  # the input every config of this variant gets
        if given.is_qcir:
            translated = None
            path = qcir_path
        else:
            translated = translate(compiled.circuit, given.polarity, given.placement)
            path = folder / f"formula-{encoding}-{tseitin}.qdimacs"
            path.write_text(translated.text, encoding="ascii")
        if not instance.solve:
            rows.append(_row(instance, encoding, tseitin, None, process, compiled, translated, COMPILED, None, None, ""))
            continue
        for config in plan.configs_for(encoding, tseitin):
            formula = translated.formula if translated else None
            run_as = resolved or config
            solved = solve(run_as, formula, path, options.time_limit, options.model, qcir_path)
            if resolved is not None:
                solved = dataclasses.replace(solved, note=" ".join(filter(None, [f"ran {resolved}", solved.note])))
            row = _row(instance, encoding, tseitin, config, process, compiled, translated, solved.status, solved.verdict, solved.seconds, solved.note)
            if row.check == WRONG:
                progress.message(
                    f"WRONG VERDICT: {instance.id} [{config}]: said {'true' if row.verdict else 'false'}, "
                    f"expected {'true' if instance.expected else 'false'}"
                )
            rows.append(row)
            shown = solved.status if solved.verdict is None else f"{solved.verdict} in {solved.seconds:.2f} s"
            progress.step(f"{instance.id} {config}: {shown}")
    return rows


def _row(instance: Instance, encoding, tseitin, config, process, compiled: Compiled | None, translated, status, verdict, seconds, note) -> Row:
    return Row(
        set=instance.set,
        instance=instance.id,
        width=compiled.width if compiled else None,
        height=compiled.height if compiled else None,
        depth=compiled.depth if compiled else None,
        expected=instance.expected,
        encoding=encoding,
        tseitin=tseitin,
        solver=config.solver if config else "",
        preprocess=config.preprocess if config else "",
        compile_process_s=process.seconds if process else None,
        compile_peak_mb=process.peak_mb if process else None,
        compile_inprocess_s=compiled.seconds if compiled else None,
        qcir_vars=compiled.variables if compiled else None,
        qcir_gates=compiled.gates if compiled else None,
        qcir_blocks=compiled.blocks if compiled else None,
        qcir_bytes=len(compiled.qcir_text) if compiled else None,
        tseitin_s=translated.seconds if translated else None,
        qdimacs_vars=translated.formula.num_vars if translated else None,
        qdimacs_clauses=translated.formula.num_clauses if translated else None,
        qdimacs_bytes=len(translated.text) if translated else None,
        status=status,
        verdict=verdict,
        solve_s=seconds,
        check=check(instance.expected, status, verdict),
        note=note,
    )
