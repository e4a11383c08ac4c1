"""`python -m bench`: run instance sets under solving configurations, write CSV, markdown and plots.

Exit status: 0 the run went through and every verdict was right; 1 a wrong
verdict, two configurations that disagree, an instance that did not compile,
or (with --report) no results to report on; 2 a usage error.
"""

from __future__ import annotations

import argparse
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

from compiler.commands.common import positive_float, positive_int

from . import machine, plots, records, report
from .configs import ALIASES, TSEITIN_VARIANTS, ConfigurationError, parse_all
from .instances import FULL_SCALING, SETS, instances_for
from .preprocessing import PREPROCESSORS
from .progress import Progress
from .runner import Plan, RunOptions, run
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
    from compiler.solvers import SOLVER_CHOICES

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
    p.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, metavar="DIR", help="results folder (default bench/results)")
    p.add_argument("--no-model", action="store_true", help="do not ask solvers for the first move (bddlc solve does)")
    p.add_argument("--no-plots", action="store_true", help="write no PNG plots")
    p.add_argument("--list", action="store_true", help="list the instances and configurations, run nothing")
    p.add_argument("--report", type=Path, metavar="FILE", help="write a markdown report of the results in --output to FILE (plots beside it), run nothing")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.report:
        return write_report(args.output, args.report)
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
    output: Path = args.output
    output.mkdir(parents=True, exist_ok=True)
    instances = _instances(sets, output / "scaling", args.filter)
    if not instances:
        print("bench: no instances to run (is ../shared/corpus present? does --filter match?)", file=sys.stderr)
        return EXIT_FAILED

    unavailable = {c.preprocess: PREPROCESSORS[c.preprocess].unavailable() for c in configs}
    unavailable = {name: reason for name, reason in unavailable.items() if reason}
    for name, reason in unavailable.items():
        print(f"bench: preprocessing {name} {reason}; its configurations are recorded as unavailable", file=sys.stderr)
    meta = {
        "command": shlex.join(["python", "-m", "bench"] + list(sys.argv[1:] if argv is None else argv)),
        "profile": args.profile,
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": machine.describe(),
        "time_limit": options.time_limit,
        "repeat": options.repeat,
        "model": options.model,
        "sets": sets,
        "filter": args.filter or [],
        "configurations": [c.name for c in configs],
        "unavailable": unavailable,
    }
    plan = Plan(tuple(configs))
    print(f"bench: {len(instances)} instances, {len(configs)} configurations, limit {options.time_limit:g} s -> {output}", file=sys.stderr)
    progress = Progress(plan.steps(instances))
    rows: list = []
    interrupted = False
    try:
        run(instances, configs, options, progress, rows=rows)
    except KeyboardInterrupt:
        progress.close()
        interrupted = meta["interrupted"] = True
        print(f"bench: interrupted; writing the {len(rows)} rows measured so far", file=sys.stderr)

    found = failures(rows)
    meta["failures"] = [str(f) for f in found]
    records.save(rows, output / RESULTS_CSV)
    (output / RUN_JSON).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    drawn = _draw(rows, output, options.time_limit, args.no_plots)
    (output / RESULTS_MD).write_text(report.document(rows, meta, [p.name for p in drawn]) + "\n", encoding="utf-8")
    print(report.summary(rows), file=sys.stderr)
    print(f"bench: wrote {', '.join([RESULTS_CSV, RESULTS_MD, RUN_JSON] + [p.name for p in drawn])} in {output}", file=sys.stderr)
    if found:
        print(f"bench: the run FAILED ({len(found)} problem{'s' if len(found) > 1 else ''}):", file=sys.stderr)
        for failure in found:
            print(f"  {failure}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_INTERRUPTED if interrupted else EXIT_OK


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


def write_report(results: Path, target: Path) -> int:
    """docs/benchmarks.md (or any FILE) from a results folder; the plots are copied to FILE's stem folder."""
    try:
        rows = records.load(results / RESULTS_CSV)
        meta = json.loads((results / RUN_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"bench: cannot report on {results}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    images = target.parent / target.stem
    linked = []
    for name in (plots.CACTUS, plots.BY_SIDE, plots.BY_DEPTH):
        if (results / name).exists():
            images.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(results / name, images / name)
            linked.append(f"{target.stem}/{name}")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(report.document(rows, meta, linked) + "\n", encoding="utf-8")
    print(f"bench: wrote {target}" + (f" and {len(linked)} plots in {images}" if linked else ""), file=sys.stderr)
    return EXIT_OK
