"""Markdown from a run's rows: the summary per configuration, compile figures, per-instance tables.

`results.md` in the output folder and `docs/benchmarks.md` come from the same
function, so the committed document can always be regenerated from a results
folder (`python -m bench --report docs/benchmarks.md --output FOLDER`)."""

from __future__ import annotations

import statistics
from collections import defaultdict
from typing import Iterable

from compiler.encodings import DEFAULT_ENCODING

from .configs import DEFAULT
from .records import COMPILE_ERROR, CORRECT, ERROR, SOLVED, TIMEOUT, UNAVAILABLE, UNCHECKED, WRONG, Row


def table(header: list[str], body: Iterable[list[str]], align: str = "") -> str:
    """A GitHub markdown table; `align` gives one letter per column (l/r), default left."""
    align = align or "l" * len(header)
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in body]
    return "\n".join(lines)


def _seconds(value: float | None, digits: int = 2) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def _count(value: int | None) -> str:
    return "" if value is None else f"{value:,}"


def _answer(value: bool | None) -> str:
    return {True: "true", False: "false", None: "?"}[value]


def configurations(rows: list[Row]) -> list[str]:
    return list(dict.fromkeys(r.config for r in rows if r.solver))


def summary(rows: list[Row]) -> str:
    """Per configuration and instance set: how many verdicts, how many right."""
    groups: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for r in rows:
        if r.solver:
            groups[(r.config, r.set)].append(r)
    body = []
    for (config, set_name), group in groups.items():
        answered = [r for r in group if r.expected is not None]
        statuses = defaultdict(int)
        for r in group:
            statuses[r.status] += 1
        checks = defaultdict(int)
        for r in group:
            checks[r.check] += 1
        solved_times = [r.solve_s for r in group if r.status == SOLVED and r.solve_s is not None]
        body.append(
            [
                config,
                set_name,
                str(len(group)),
                f"{checks[CORRECT]} / {len(answered)}",
                str(checks[WRONG]),
                str(checks[UNCHECKED]),
                str(statuses[TIMEOUT]),
                str(statuses[ERROR] + statuses[COMPILE_ERROR]),
                str(statuses[UNAVAILABLE]),
                _seconds(sum(solved_times), 1),
            ]
        )
    return table(
        ["configuration", "set", "instances", "correct / with answer", "wrong", "decided, answer unknown", "timeouts", "errors", "unavailable", "solve s (decided)"],
        body,
        "llrrrrrrrr",
    )


def _per_instance_encoding(rows: list[Row]) -> list[Row]:
    """One row per (instance, encoding, Tseitin variant): the compile and size figures."""
    seen: dict[tuple[str, str, str], Row] = {}
    for r in rows:
        seen.setdefault((r.instance, r.encoding, r.tseitin), r)
    return list(seen.values())


def compile_summary(rows: list[Row], threshold: float = 0.3) -> str:
    """Whole-process compile time per instance set and encoding: median, worst, how many within `threshold` s."""
    groups: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
    for r in rows:
        if r.compile_process_s is not None:
            groups[(r.set, r.encoding)][r.instance] = r.compile_process_s
    body = []
    for (set_name, encoding), by_instance in groups.items():
        values = list(by_instance.values())
        worst = max(by_instance, key=by_instance.get)
        body.append(
            [
                set_name,
                encoding,
                str(len(values)),
                _seconds(statistics.median(values)),
                f"{_seconds(by_instance[worst])} ({worst})",
                f"{sum(v <= threshold for v in values)} / {len(values)}",
            ]
        )
    return table(["set", "encoding", "instances", "median s", "worst s", f"within {threshold} s"], body, "llrrlr")


def sizes(rows: list[Row]) -> str:
    body = []
    for r in _per_instance_encoding(rows):
        if r.status == COMPILE_ERROR:
            body.append([r.instance, r.encoding, r.tseitin, "compile error", "", "", "", "", "", "", "", ""])
            continue
        body.append(
            [
                r.instance,
                r.encoding,
                r.tseitin,
                f"{r.width}x{r.height}" if r.width else "",
                str(r.depth or ""),
                _seconds(r.compile_process_s),
                _seconds(r.compile_inprocess_s, 3),
                "" if r.compile_peak_mb is None else f"{r.compile_peak_mb:.0f}",
                _count(r.qcir_vars),
                _count(r.qcir_gates),
                _count(r.qcir_blocks),
                _count(r.qdimacs_clauses),
            ]
        )
    return table(
        ["instance", "encoding", "CNF", "board", "depth", "process s", "in-process s", "peak MB", "variables", "gates", "blocks", "clauses"],
        body,
        "llllrrrrrrrr",
    )


# Issue 5's yardsticks: the paper encoding's size on two problems (gates, quantified variables).
YARDSTICKS = {
    "corpus/connect-c/4x4_15_connect4": (1350, 160),
    "suite/connect/connect4_4x4_d15": (1350, 160),
    "suite/evader_pursuer/8x8_p2-3_d11": (2500, None),
}
SIZE_TARGET = 0.7  # at most this fraction of the yardstick's gates
COMPILE_TARGET_S = 0.3  # whole-process compile, every corpus instance
LARGE_BOARD = (19, 101)  # side, depth: compile in under 1 s and 200 MB
LARGE_BOARD_TARGETS = (1.0, 200.0)
CORPUS_TARGET = 51  # of the corpus instances with an answer, decided within 60 s


def _met(ok: bool) -> str:
    return "met" if ok else "**not met**"


def _judged(applies: bool, ok: bool) -> str:
    """The targets are about what users get by default: `bddlc solve` (the default configuration)
    and `bddlc DOMAIN PROBLEM` (the default encoding); other rows are there to compare against."""
    return _met(ok) if applies else f"for comparison ({'within' if ok else 'outside'} the goal)"


def targets(rows: list[Row], time_limit: float | None) -> str:
    """Issue 5's targets against what this run measured (only those the run has data for)."""
    body = []
    groups: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for r in rows:
        if r.solver and r.set in ("corpus", "suite"):
            groups[(r.config, r.set)].append(r)
    for (config, set_name), group in groups.items():
        answered = [r for r in group if r.expected is not None]
        correct = sum(r.check == CORRECT for r in group)
        goal = CORPUS_TARGET if set_name == "corpus" else len(answered)
        if time_limit == 60:
            judged = _judged(config == DEFAULT.name, correct >= goal)
        elif time_limit is None:
            judged = "not judged: the runs used different limits"
        else:
            judged = f"not judged: the limit was {time_limit:g} s, not 60 s"
        body.append([f"decided, {set_name}", config, f"{correct} of {len(answered)}", f">= {goal} within 60 s", judged])
    for r in _per_instance_encoding(rows):
        if r.instance in YARDSTICKS and r.qcir_gates is not None:
            gates, variables = YARDSTICKS[r.instance]
            ratio = r.qcir_gates / gates
            measured = f"{r.qcir_gates:,} gates ({ratio:.2f}x), {r.qcir_vars:,} variables" + (f" (yardstick {variables})" if variables else "")
            body.append([f"size, {r.instance}", f"{r.encoding}", measured, f"<= {SIZE_TARGET} x {gates:,} gates", _judged(r.encoding == DEFAULT_ENCODING, ratio <= SIZE_TARGET)])
    compile_times: dict[str, dict[str, float]] = defaultdict(dict)
    for r in rows:
        if r.set == "corpus" and r.compile_process_s is not None:
            compile_times[r.encoding][r.instance] = r.compile_process_s
    for encoding, by_instance in compile_times.items():
        worst = max(by_instance.values())
        body.append(["compile, every corpus instance", encoding, f"worst {worst:.2f} s", f"<= {COMPILE_TARGET_S} s", _met(worst <= COMPILE_TARGET_S)])
    side, depth = LARGE_BOARD
    for r in _per_instance_encoding(rows):
        if r.set == "scaling" and (r.width, r.height, r.depth) == (side, side, depth) and r.compile_process_s is not None:
            seconds, megabytes = LARGE_BOARD_TARGETS
            ok = r.compile_process_s < seconds and (r.compile_peak_mb or 0) < megabytes
            body.append(
                [f"compile, {side}x{side} depth {depth}", r.encoding, f"{r.compile_process_s:.2f} s, {r.compile_peak_mb:.0f} MB", f"< {seconds:g} s, < {megabytes:g} MB", _judged(r.encoding == DEFAULT_ENCODING, ok)]
            )
    if not body:
        return ""
    return table(["target", "configuration / encoding", "measured", "goal", ""], body)


def _cell(r: Row) -> str:
    if r.status == SOLVED:
        mark = "**WRONG** " if r.check == WRONG else ""
        return f"{mark}{_answer(r.verdict)} {_seconds(r.solve_s)}"
    if r.status == UNAVAILABLE:
        return "n/a"
    return r.status


def verdicts(rows: list[Row]) -> str:
    """Instances down, configurations across: the verdict and the solve time, or why there is none."""
    configs = configurations(rows)
    by_instance: dict[str, dict[str, Row]] = defaultdict(dict)
    expected: dict[str, bool | None] = {}
    for r in rows:
        if r.solver:
            by_instance[r.instance][r.config] = r
            expected[r.instance] = r.expected
    body = [
        [instance, _answer(expected[instance])] + [_cell(cells[c]) if c in cells else "" for c in configs]
        for instance, cells in by_instance.items()
    ]
    return table(["instance", "expected"] + configs, body, "ll" + "l" * len(configs))


def _runs(meta: dict) -> str:
    runs = meta.get("runs", 1)
    return "one run" if runs == 1 else f"{runs} runs"


def document(rows: list[Row], meta: dict, plots: list[str], title: str = "bddlc benchmarks") -> str:
    """The whole markdown document; `plots` are image paths relative to the document."""
    machine = meta.get("machine", {})
    limit = meta.get("time_limit")
    command = meta.get("command", f"python -m bench --profile {meta.get('profile', 'full')}")
    lines = [
        f"# {title}",
        "",
        f"Generated by the harness in `bench/` from the results of {_runs(meta)}: measured with",
        f"`{command}`, reported with `python -m bench --report FILE --output FOLDER` (one `--output` per run)",
        "(`python -m bench --help` lists the instance sets, configurations and options).",
        "",
        "## Setup",
        "",
        f"- date: {meta.get('date', 'unknown')}; commit {machine.get('commit', 'unknown')}",
        f"- machine: {machine.get('cpu', '?')}, {machine.get('cores', '?')} cores, {machine.get('memory', '?')} RAM; "
        f"{machine.get('system', '?')}; Python {machine.get('python', '?')}; pyqbf {machine.get('pyqbf', '?')}",
        f"- profile `{meta.get('profile', '?')}`, instance sets: {', '.join(meta.get('sets', [])) or '?'}",
        f"- time limit: {f'{limit} s' if limit is not None else 'different in each run'} per solve (preprocessing included, compilation not); one solver child process at a time, "
        "killed at the limit; a verdict only from exit code 10 (true) or 20 (false)",
        f"- solvers asked for the first move as `bddlc solve` does: {'yes' if meta.get('model', True) else 'no'}",
        f"- compile times: best of {meta.get('repeat', 1)}; *process* = `python -m compiler.cli DOMAIN PROBLEM --encoding E -o F.qcir`"
        " (interpreter start and imports included), *in-process* = load + encode + QCIR text with the parser already built",
        "- configurations (ENCODING/TSEITIN/SOLVER/PREPROCESS):",
    ]
    lines += [f"  - `{c}`" for c in meta.get("configurations", configurations(rows))]
    for name, reason in sorted(meta.get("unavailable", {}).items()):
        lines.append(f"- preprocessing `{name}`: {reason}")
    if meta.get("compile_times_from"):
        lines.append(f"- compile times (and peak memory) taken from a compile-only run, measured while no solver ran: `{meta['compile_times_from']}`")
    if meta.get("interrupted"):
        lines.append("- **the run was interrupted**: only the instances measured before that are below")
    lines.append("")
    if any(r.solver for r in rows):
        lines += ["## Verdicts", "", summary(rows), ""]
    failures = meta.get("failures", [])
    if failures:
        lines += ["**This run FAILED:**", ""] + [f"- {f}" for f in failures] + [""]
    goals = targets(rows, limit)
    if goals:
        lines += ["## Issue 5's targets", "", goals, ""]
    lines += ["## Compile time (whole process)", "", compile_summary(rows), ""]
    if plots:
        lines += ["## Plots", ""] + [f"![{p}]({p})" for p in plots] + [""]
    scaling = [r for r in rows if r.set == "scaling"]
    if scaling:
        lines += ["## Scaling (generated five-in-a-row boards, compiled only)", "", sizes(scaling), ""]
    solving = [r for r in rows if r.solver]
    if solving:
        lines += [
            "## Per instance",
            "",
            "<details><summary>verdicts and solve times</summary>",
            "",
            verdicts(solving),
            "",
            "</details>",
            "",
            "<details><summary>compile times and formula sizes</summary>",
            "",
            sizes(solving),
            "",
            "</details>",
            "",
        ]
    return "\n".join(lines)
