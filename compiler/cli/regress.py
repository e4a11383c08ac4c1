"""`bddlc regress`: check a folder of models against a manifest of expected answers."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import (
    EXIT_BUDGET,
    EXIT_MISMATCH,
    EXIT_INPUT,
    EXIT_OK,
    cannot_write,
    counted,
    paragraph,
    positive_float,
    positive_int,
    refuse_unwritable,
)


def build_parser() -> argparse.ArgumentParser:
    from .regress_run import DEFAULT_TIMEOUT, METHODS
    from ..solving.qbf.solver_programs import DEFAULT_SOLVER, SOLVER_CHOICES

    p = argparse.ArgumentParser(
        prog="bddlc regress",
        description=paragraph("Check every entry of a manifest (a TOML list of problems with the answer each must "
        "get, like problems/expected.toml; the format is in docs/regress.md) as bddlc solve decides it (the QBF "
        "route and the explicit engine raced, by default), with the game engine, or both, and print a table of "
        "agreements, mismatches and undecided entries."),
        epilog="exit status: 0 every entry agrees, 4 some entry's answer contradicts the manifest (named in the "
        "table), 3 no mismatch but some entry got no answer within the time limit, 1 a bad manifest.\n\n"
        "examples:\n"
        "  bddlc regress docs/regress-example.toml --timeout 30\n"
        "  bddlc regress docs/regress-example.toml --workers 2 --method both --junit regress.xml",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("manifest", metavar="MANIFEST", help="the manifest (TOML)")
    p.add_argument("games", nargs="*", help=argparse.SUPPRESS)  # a game given instead: refused by run, naming the command for it
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=positive_int, metavar="N",
                       help="check N entries at once on a local Dask cluster (needs bddlc[cluster]; default: one at a time here)")
    where.add_argument("--scheduler", metavar="ADDRESS", help="check the entries on the Dask cluster whose scheduler is at ADDRESS")
    p.add_argument("--timeout", type=positive_float, default=DEFAULT_TIMEOUT, metavar="S",
                   help=f"time limit per check in seconds (default {DEFAULT_TIMEOUT})")
    p.add_argument("--method", choices=METHODS, default="solve",
                   help="solve (as bddlc solve: the routes raced by default), search (game engine, in a child process) "
                   "or both (the QBF route and the game engine, each on its own, so that two independent answers are "
                   "compared) (default solve)")
    p.add_argument("--engine", choices=("auto", "qbf", "search"), default=None,
                   help="with --method solve, the solve's route(s), as `bddlc solve --engine` (default auto: the QBF "
                   "route and the explicit engine raced; qbf or search: one route); --method both always solves by "
                   "the QBF route")
    p.add_argument("--solver", choices=SOLVER_CHOICES, default=DEFAULT_SOLVER, help=f"the QBF solver for --method solve (default {DEFAULT_SOLVER})")
    p.add_argument("--slow", action="store_true", help="also check the entries marked slow = true")
    p.add_argument("--junit", type=Path, metavar="FILE", help="also write the results as JUnit XML to FILE")
    p.add_argument("--json", action="store_true", help="print one JSON object per entry (JSON Lines) instead of the table")
    return p


def verdict_json(verdict) -> dict:
    """One entry's result as `--json` prints it (docs/cli.md, "JSON")."""
    from ..schema import SCHEMA_VERSION

    entry = verdict.entry
    game = [str(entry.problem)] if entry.domain is None else [str(entry.domain), str(entry.problem)]
    return {
        "schema": SCHEMA_VERSION,
        "command": "regress",
        "game": game,
        "language": "pg" if entry.domain is None else "bddl",
        "entry": entry.name,
        "status": verdict.status,
        "expected": entry.black_wins,
        "depth": entry.depth,
        "checks": [{"method": c.method, "depth": c.depth, "black_wins": c.black_wins, "seconds": round(c.seconds, 6),
                    "note": c.note or None} for c in verdict.checks],
        "problems": list(verdict.problems),
        "worker": verdict.worker or None,
    }


def _refuse_games(args) -> None:
    """A game given where the manifest goes (`bddlc regress pawns.bddl race.bddl`): a usage error
    naming the command that decides one game, and what a manifest is."""
    import shlex

    from ..model import file_kind

    given = [args.manifest, *args.games]
    if args.games and any(path.lower().endswith(".toml") for path in given):
        build_parser().error("regress checks one MANIFEST at a time: " + "; ".join(f"bddlc regress {shlex.quote(p)}" for p in given))
    if args.games or file_kind(args.manifest) is not None:
        build_parser().error(f"regress checks a MANIFEST (a TOML file: a [[problem]] table per game, with its expected "
                             f"answer; docs/regress.md), not a game: to decide {' '.join(given)}, run "
                             f"bddlc solve {' '.join(map(shlex.quote, given))}")


def run(args) -> int:
    from . import regress_run as regress

    _refuse_games(args)
    options = regress.Options(args.method, args.timeout, args.solver, _engine(args))
    entries = regress.read_manifest(Path(args.manifest))
    if args.junit:  # before any entry runs: a run of many minutes must not end on a missing folder
        refuse_unwritable(str(args.junit), ".xml")
    skipped = [e for e in entries if e.slow and not args.slow]
    entries = [e for e in entries if args.slow or not e.slow]
    if args.workers is None and args.scheduler is None:
        verdicts = []
        for entry in entries:
            verdicts.append(regress.check_entry(entry, options))
            print(f"{verdicts[-1].status}: {entry.name}", file=sys.stderr, flush=True)
    else:
        verdicts = _on_dask(args, entries, options)
        if verdicts is None:
            return EXIT_INPUT
    if args.json:
        import json

        for verdict in verdicts:
            print(json.dumps(verdict_json(verdict)))
    else:
        print(regress.table(verdicts))
    if skipped and not args.json:
        print(f"({counted(len(skipped), 'slow entry', 'slow entries')} not checked; --slow checks them)")
    if args.junit:
        try:
            args.junit.write_text(regress.junit(verdicts, Path(args.manifest).stem), encoding="utf-8")
        except OSError as exc:  # the folder went away, or the disk filled, while the entries ran
            raise cannot_write(str(args.junit), exc, ".xml") from None
    if any(v.status == regress.MISMATCH for v in verdicts):
        for v in verdicts:
            if v.status == regress.MISMATCH:
                print(f"bddlc regress: MISMATCH: {v.entry.name}: {'; '.join(v.problems)}", file=sys.stderr)
        return EXIT_MISMATCH
    if any(v.status == regress.UNDECIDED for v in verdicts):
        return EXIT_BUDGET
    return EXIT_OK


def _engine(args) -> str:
    """The solve method's route(s): --engine (default auto) with --method solve; the QBF route with --method
    both, whose point is two independent answers.  A usage error where --engine or --solver cannot apply."""
    from ..solving.routes import DEFAULT_ENGINE
    from ..solving.qbf.solver_programs import DEFAULT_SOLVER

    parser = build_parser()
    if args.method == "search" and args.engine is not None:
        parser.error("--engine chooses the route(s) of --method solve; --method search runs the game engine alone")
    if args.method == "both" and args.engine not in (None, "qbf"):
        parser.error(f"--method both compares the QBF route with the game engine, each on its own; --engine {args.engine} "
                     f"would let the game engine answer for both: use --method solve --engine {args.engine}")
    engine = "qbf" if args.method == "both" else args.engine or DEFAULT_ENGINE
    if args.solver != DEFAULT_SOLVER and "search" in (engine, args.method):
        parser.error(f"--solver configures the QBF route, which --{'method' if args.method == 'search' else 'engine'} "
                     "search does not run: drop --solver")
    return engine


def _on_dask(args, entries, options):
    """The entries as Dask tasks (those the manifest says take longest start first), their
    verdicts in manifest order; None when no cluster can be had."""
    from . import regress_run as regress
    from ..solving.processes.cluster import ClusterUnavailable, connect, stream

    verdicts = []
    try:
        with connect(args.workers, args.scheduler) as client:
            items = [(index, entry, options) for index, entry in enumerate(entries)]
            for outcome in stream(client, _check, items, cost=lambda item: item[1].seconds):  # the longest first
                index, entry, _ = outcome.item
                if outcome.value is None:  # the task failed or its worker kept dying: no verdict
                    check = regress.Check(options.method, entry.depth or 0, None, 0.0, outcome.error or "lost")
                    verdict = regress.Verdict(entry, regress.UNDECIDED, (check,))
                else:
                    verdict = outcome.value
                print(f"{verdict.status}: {entry.name} [{verdict.worker}]", file=sys.stderr, flush=True)
                verdicts.append((index, verdict))
    except ClusterUnavailable as exc:
        print(f"bddlc regress: error: {exc}", file=sys.stderr)
        return None
    return [verdict for _, verdict in sorted(verdicts, key=lambda pair: pair[0])]


def _check(item):
    from .regress_run import check_entry

    _, entry, options = item
    return check_entry(entry, options)
