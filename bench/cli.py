"""`python -m bench`: run instance sets under solving configurations, write CSV, markdown and plots.

Exit status: 0 the run went through and every verdict was right; 1 a wrong
verdict, two configurations that disagree, an instance that did not compile,
or (with --report) no results to report on; 2 a usage error; 130, 143, 129
interrupted by Ctrl-C, SIGTERM, SIGHUP (the rows measured so far are kept).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import fnmatch
import json
import shlex
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from compiler.cli.common import positive_float, positive_int
from compiler.solving.processes import cluster
from compiler.solving.processes.processes import exit_status, terminations_interrupt
from compiler.solving.qbf.solver_programs import DEFAULT_SOLVER, members

from . import machine, parallel, plots, records, report
from .configs import ALIASES, TSEITIN_VARIANTS, ConfigurationError, parse_all
from .instances import FULL_SCALING, SETS, instances_for
from .preprocessing import PREPROCESSORS
from .progress import Progress
from .runner import Plan, RunOptions, row_key, run, task_key
from .suite import REPOSITORY
from .verdicts import failures

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
DEFAULT_OUTPUT = REPOSITORY / "bench" / "results"
RESULTS_CSV, RESULTS_MD, RUN_JSON = "results.csv", "results.md", "run.json"


@dataclass(frozen=True)
class Profile:
    sets: tuple[str, ...]
    configs: tuple[str, ...]
    time_limit: float
    repeat: int
    help: str


PROFILES = {
    "quick": Profile(("quick",), ("default", "paper-baseline"), 10.0, 1, "a handful of small instances, under a minute (CI runs it)"),
    "full": Profile(("suite", "corpus", "scaling"), ("default", "compile-default", "paper-baseline"), 60.0, 3, "suite, corpus and scaling: hours, for people"),
}


def build_parser() -> argparse.ArgumentParser:
    from compiler.encodings import ENCODINGS
    from compiler.solving.qbf.solver_programs import SOLVER_CHOICES

    p = argparse.ArgumentParser(
        prog="python -m bench",
        description="Benchmark bddlc: compile time and formula size of every instance, and for each "
        "configuration the verdict (checked against the known answer) and the solve time under a limit.",
        epilog="profiles:\n"
        + "\n".join(
            f"  {name:6} {prof.help}:\n         sets {','.join(prof.sets)}; configurations {', '.join(prof.configs)}; "
            f"limit {prof.time_limit:g} s; compile timings best of {prof.repeat}"
            for name, prof in PROFILES.items()
        )
        + "\n\nconfigurations: ENCODING/TSEITIN/SOLVER[/PREPROCESS]; each field a comma list or *\n"
        f"  encodings: {', '.join(ENCODINGS)}\n  Tseitin: {', '.join(TSEITIN_VARIANTS)}\n"
        f"  solvers: {', '.join(SOLVER_CHOICES)}\n  preprocessing: {', '.join(PREPROCESSORS)}\n"
        + "".join(f"  {alias} = {', '.join(c.name for c in found)}\n" for alias, found in ALIASES.items())
        + "\nexamples:\n"
        "  python -m bench --profile quick\n"
        "  python -m bench --profile quick --workers 2\n"
        "  python -m bench --sets corpus --config default --time-limit 10\n"
        "  python -m bench --sets suite --config 'explicit/pg-early,full-innermost/depqbf,caqe'\n"
        "  python -m bench --report docs/benchmarks.md",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--profile", choices=sorted(PROFILES), default="quick", help="the defaults below come from it (default quick)")
    p.add_argument("--sets", metavar="LIST", help=f"comma-separated instance sets: {', '.join(SETS)}")
    p.add_argument("--config", action="append", metavar="SPEC", help="a configuration (repeatable; see below)")
    p.add_argument("--time-limit", type=positive_float, metavar="S", help="seconds per solve")
    p.add_argument("--repeat", type=positive_int, metavar="N", help="compile timings: best of N runs")
    p.add_argument("--filter", action="append", metavar="GLOB", help="only instances whose id matches (e.g. 'corpus/httt/*'; repeatable)")
    p.add_argument(
        "--output",
        type=Path,
        action="append",
        metavar="DIR",
        help="results folder (default bench/results); with --report it may be given more than once, and the runs are reported together",
    )
    p.add_argument(
        "--compile-only",
        action="store_true",
        help="compile and measure every instance with the configurations' encodings, solve nothing "
        "(quick, quiet compile timings; --report lets such a run refresh the compile times of solving runs)",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=positive_int,
        nargs="?",
        const=0,
        metavar="N",
        help="run the tasks (one per instance and configuration) on a local Dask cluster of N single-threaded "
        "worker processes (N left out: one per core); needs bddlc[cluster]",
    )
    where.add_argument("--scheduler", metavar="ADDRESS", help="run the tasks on the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://host:8786)")
    p.add_argument(
        "--oversubscribe",
        action="store_true",
        help="run even when a machine would run more solver processes than it has cores (times are then not comparable; the report says so)",
    )
    p.add_argument("--fresh", action="store_true", help="measure everything again (by default a re-run into the same --output skips what is measured)")
    p.add_argument("--no-model", action="store_true", help="do not ask solvers for the first move (bddlc solve does)")
    p.add_argument("--no-plots", action="store_true", help="write no PNG plots")
    p.add_argument("--list", action="store_true", help="list the instances and configurations, run nothing")
    p.add_argument(
        "--report", type=Path, metavar="FILE", help="write a markdown report of the results in --output (one folder or several) to FILE (plots beside it), run nothing"
    )
    return p


def command_as_run(argv: Sequence[str]) -> str:
    """The command line a report quotes: the results folder as FOLDER, since a
    path of the machine that measured means nothing to the reader."""
    words = ["python", "-m", "bench"]
    after_output = False
    for word in argv:
        if after_output:
            word, after_output = "FOLDER", False
        elif word == "--output":
            after_output = True
        elif word.startswith("--output="):
            word = "--output=FOLDER"
        words.append(word)
    return shlex.join(words)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    folders = args.output or [DEFAULT_OUTPUT]
    if args.report:
        return write_report(folders, args.report)
    if len(folders) > 1:
        parser.error("a run writes one results folder: give --output once (several only with --report)")
    profile = PROFILES[args.profile]
    sets = [s.strip() for s in (args.sets or ",".join(profile.sets)).split(",") if s.strip()]
    unknown = [s for s in sets if s not in SETS]
    if unknown or not sets:
        parser.error(f"unknown instance set {', '.join(unknown) or '(none)'}; choose from {', '.join(SETS)}")
    try:
        configs = parse_all(args.config or list(profile.configs))
    except ConfigurationError as exc:
        parser.error(str(exc))
    options = RunOptions(args.time_limit or profile.time_limit, args.repeat or profile.repeat, not args.no_model)

    if args.list:
        with tempfile.TemporaryDirectory(prefix="bench-list-") as folder:
            for instance in _instances(sets, Path(folder), args.filter):
                answer = {True: "true", False: "false", None: "?"}[instance.expected]
                print(f"{instance.id}\t{answer if instance.solve else 'compile only'}")
        for config in configs:
            print(f"config {config}")
        return EXIT_OK
    output: Path = folders[0]
    output.mkdir(parents=True, exist_ok=True)
    instances = _instances(sets, output / "scaling", args.filter)
    if args.compile_only:
        instances = [dataclasses.replace(i, solve=False) for i in instances]
    if not instances:
        print("bench: no instances to run (is ../shared/corpus present? does --filter match?)", file=sys.stderr)
        return EXIT_FAILED

    unavailable = {c.preprocess: PREPROCESSORS[c.preprocess].unavailable() for c in configs}
    unavailable = {name: reason for name, reason in unavailable.items() if reason}
    for name, reason in unavailable.items():
        print(f"bench: preprocessing {name} {reason}; its configurations are recorded as unavailable", file=sys.stderr)
    plan = Plan(tuple(configs))
    meta = {
        "command": command_as_run(sys.argv[1:] if argv is None else argv),
        "profile": args.profile,
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": machine.describe(),
        "time_limit": options.time_limit,
        "repeat": options.repeat,
        "model": options.model,
        "sets": sets,
        "filter": args.filter or [],
        "configurations": [] if args.compile_only else [c.name for c in configs],
        "encodings": plan.encodings,
        "compile_only": args.compile_only,
        "unavailable": unavailable,
    }
    earlier = _any_earlier_rows(output)  # read before this run's first save replaces them
    rows: list = [] if args.fresh else _earlier_rows(output, meta, earlier)
    seconds = parallel.estimates(earlier)
    done = frozenset(row_key(row) for row in rows)
    if rows:
        print(f"bench: resuming: {len(rows)} rows of an earlier run with the same settings are kept (--fresh measures them again)", file=sys.stderr)
    processes = max(len(members(c.solver)) if c.solver != DEFAULT_SOLVER else 1 for c in configs)
    if args.workers is not None and not args.oversubscribe:
        workers = args.workers or cluster.cores()
        if workers * processes > cluster.cores():
            parser.error(
                f"{workers} workers x {processes} solver process{'es' if processes > 1 else ''} per task on {cluster.cores()} cores: "
                "solvers would share cores and their times would mean nothing (--oversubscribe runs anyway)"
            )
    print(f"bench: {len(instances)} instances, {len(configs)} configurations, limit {options.time_limit:g} s -> {output}", file=sys.stderr)
    interrupted = 0  # the exit status of an interruption

    def keep(measured: list) -> None:  # until the run ends, what is on disk says it was cut short
        _save(measured, dict(meta, interrupted=True), output)

    try:
        with terminations_interrupt():
            if args.workers is None and args.scheduler is None:
                meta["parallel"] = None
                run(instances, configs, options, Progress(plan.steps(instances)), rows=rows, after_instance=keep, done=done)
            else:
                _run_on_dask(args, instances, configs, options, meta, rows, done, processes, keep, seconds)
    except cluster.ClusterUnavailable as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt as exc:
        interrupted = exit_status(exc)
        meta["interrupted"] = True
        print(f"bench: interrupted; writing the {len(rows)} rows measured so far", file=sys.stderr)
    rows = _in_plan_order(rows, instances, configs, options)

    found = failures(rows)
    meta["failures"] = [str(f) for f in found]
    _save(rows, meta, output)
    drawn = _draw(rows, output, options.time_limit, args.no_plots)
    (output / RESULTS_MD).write_text(report.document(rows, meta, [p.name for p in drawn]) + "\n", encoding="utf-8")
    if any(r.solver for r in rows):
        print(report.summary(rows), file=sys.stderr)
    print(f"bench: wrote {', '.join([RESULTS_CSV, RESULTS_MD, RUN_JSON] + [p.name for p in drawn])} in {output}", file=sys.stderr)
    if found:
        print(f"bench: the run FAILED ({len(found)} problem{'s' if len(found) > 1 else ''}):", file=sys.stderr)
        for failure in found:
            print(f"  {failure}", file=sys.stderr)
        return EXIT_FAILED
    return interrupted or EXIT_OK


def _save(rows: list, meta: dict, output: Path) -> None:
    records.save(rows, output / RESULTS_CSV)
    (output / RUN_JSON).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def _run_on_dask(args, instances, configs, options, meta, rows, done, processes, keep, seconds) -> None:
    pending = parallel.tasks(instances, configs, options, done)
    with cluster.connect(args.workers, args.scheduler) as client:
        loads = cluster.machine_load(client)
        meta["parallel"] = {
            "scheduler": args.scheduler or f"local cluster of {len(client.scheduler_info(n_workers=-1)['workers'])} workers",
            "hosts": [dict(host=h.host, cores=h.cores, workers=h.workers, tasks_at_once=h.tasks_at_once,
                           solver_processes=h.tasks_at_once * processes) for h in loads],
        }
        crowded = [h for h in loads if h.tasks_at_once * processes > h.cores]
        meta["oversubscribed"] = [h.host for h in crowded]
        for host in crowded:
            message = (f"{host.host} runs {host.tasks_at_once} tasks x {processes} solver processes on {host.cores} cores: "
                       "its times are not comparable")
            if not args.oversubscribe:
                raise cluster.ClusterUnavailable(f"refusing to run: {message} (--oversubscribe runs anyway)")
            print(f"bench: WARNING: {message}", file=sys.stderr)
        print(f"bench: {len(pending)} tasks on {meta['parallel']['scheduler']}", file=sys.stderr)
        progress = Progress(len(pending))
        try:
            parallel.run(client, pending, progress, {h.host: h.tasks_at_once for h in loads}, rows, after_task=keep, seconds=seconds)
        finally:
            progress.close()


# what must be equal for rows of an earlier run to stand for this run's
_RESUMABLE = ("time_limit", "repeat", "model", "compile_only")


def _earlier_rows(output: Path, meta: dict, earlier: list) -> list:
    """Of an earlier run's rows in `output`, those measured with the same settings on the same commit (lost ones left out)."""
    try:
        earlier_meta = json.loads((output / RUN_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    same = all(earlier_meta.get(key) == meta.get(key) for key in _RESUMABLE)
    if not same or earlier_meta.get("machine", {}).get("commit") != meta["machine"].get("commit"):
        return []
    return [row for row in earlier if row.status != records.LOST]


def _any_earlier_rows(output: Path) -> list:
    """Whatever rows an earlier run left in `output` ([] when none can be read)."""
    try:
        return records.load(output / RESULTS_CSV)
    except (OSError, ValueError):
        return []


def _in_plan_order(rows: list, instances, configs, options) -> list:
    """Rows in the order a serial run makes them, whatever order they were measured in."""
    order = {task_key(t.instance, t.configs[0]): t.index for t in parallel.tasks(instances, configs, options)}
    return sorted(rows, key=lambda row: order.get(row_key(row), len(order)))


def _instances(sets: list[str], scaling_folder: Path, globs: list[str] | None):
    found = instances_for(sets, scaling_folder, FULL_SCALING)
    if globs:
        found = [i for i in found if any(fnmatch.fnmatchcase(i.id, g) for g in globs)]
    return found


def _draw(rows, output: Path, time_limit: float, skip: bool) -> list[Path]:
    for stale in (plots.CACTUS, plots.BY_SIDE, plots.BY_DEPTH):
        (output / stale).unlink(missing_ok=True)
    if skip:
        return []
    reason = plots.available()
    if reason:
        print(f"bench: no plots: {reason}", file=sys.stderr)
        return []
    return plots.draw_all(rows, output, time_limit)


def write_report(folders: list[Path], target: Path) -> int:
    """docs/benchmarks.md (or any FILE) from one results folder or several; the plots go to FILE's stem folder.

    One folder: its plots are copied.  Several (say, the default configuration
    on every set and slow baselines on the corpus only): their rows are
    reported together and the plots are drawn again from all of them."""
    runs = []
    for results in folders:
        try:
            runs.append((records.load(results / RESULTS_CSV), json.loads((results / RUN_JSON).read_text(encoding="utf-8"))))
        except (OSError, ValueError) as exc:
            print(f"bench: cannot report on {results}: {exc}", file=sys.stderr)
            return EXIT_FAILED
    timing = [run for run in runs if run[1].get("compile_only")]
    solving = [run for run in runs if not run[1].get("compile_only")] or timing
    rows = [row for run_rows, _ in solving for row in run_rows]
    meta = solving[0][1] if len(solving) == 1 else merge_meta([m for _, m in solving])
    if timing and solving is not timing:
        rows = refresh_compile_times(rows, [row for run_rows, _ in timing for row in run_rows])
        meta = dict(meta, compile_times_from=" ; ".join(m.get("command", "?") for _, m in timing))
    images = target.parent / target.stem
    linked = []
    if len(folders) == 1:
        for name in (plots.CACTUS, plots.BY_SIDE, plots.BY_DEPTH):
            if (folders[0] / name).exists():
                images.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(folders[0] / name, images / name)
                linked.append(f"{target.stem}/{name}")
    else:
        images.mkdir(parents=True, exist_ok=True)
        limit = meta["time_limit"] or max(m.get("time_limit") or 0 for _, m in solving)
        linked = [f"{target.stem}/{p.name}" for p in _draw(rows, images, limit, skip=False)]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(report.document(rows, meta, linked) + "\n", encoding="utf-8")
    print(f"bench: wrote {target}" + (f" and {len(linked)} plots in {images}" if linked else ""), file=sys.stderr)
    return EXIT_OK


def merge_meta(metas: list[dict]) -> dict:
    """One description of several runs: their commands, the union of what they measured,
    and a time limit only if they all used the same one (the targets are judged at 60 s)."""
    limits = {m.get("time_limit") for m in metas}
    return {
        "command": " ; ".join(m.get("command", "?") for m in metas),
        "runs": len(metas),
        "profile": ", ".join(dict.fromkeys(str(m.get("profile", "?")) for m in metas)),
        "date": metas[0].get("date", "unknown"),
        "machine": metas[0].get("machine", {}),
        "time_limit": limits.pop() if len(limits) == 1 else None,
        "repeat": min(m.get("repeat", 1) for m in metas),
        "model": all(m.get("model", True) for m in metas),
        "sets": list(dict.fromkeys(s for m in metas for s in m.get("sets", []))),
        "filter": [g for m in metas for g in m.get("filter", [])],
        "configurations": list(dict.fromkeys(c for m in metas for c in m.get("configurations", []))),
        "unavailable": {k: v for m in metas for k, v in m.get("unavailable", {}).items()},
        "interrupted": any(m.get("interrupted") for m in metas),
        "failures": [f for m in metas for f in m.get("failures", [])],
    }


_COMPILE_FIELDS = ("compile_process_s", "compile_peak_mb", "compile_inprocess_s")


def refresh_compile_times(rows: list, timings: list) -> list:
    """The rows with the compile timings of a compile-only run wherever it compiled the same
    instance with the same encoding: solving runs time their compiles while a solver may be
    busy on the other core; a compile-only run on a quiet machine measures them as users see them.
    Compile-only rows that match nothing in `rows` are kept as they are."""
    quiet = {(t.instance, t.encoding): t for t in timings}
    matched = set()
    refreshed = []
    for row in rows:
        timing = quiet.get((row.instance, row.encoding))
        if timing is not None:
            matched.add((row.instance, row.encoding))
            row = dataclasses.replace(row, **{name: getattr(timing, name) for name in _COMPILE_FIELDS})
        refreshed.append(row)
    return refreshed + [t for t in timings if (t.instance, t.encoding) not in matched]
