"""`python -m bench.engines`: the game engine's two searches side by side.

Runs the minimax (`bddl.engines.minimax`) and df-pn (`bddl.engines.pns`) on every suite and
corpus instance, and df-pn with the knowledge the game admits: race patterns
on Breakthrough-like games, the positional rules on positional games (where
the positional solver's own minimax runs too, so that df-pn and minimax are
also compared on the same rules).  Each search has a positions budget and a
time limit; every verdict is checked against the known answer.  The Markdown
report has one row per instance, then the ratio of positions per family.
Issue 16 asks df-pn to never search more than a small factor more positions
than the minimax, and far fewer on Breakthrough, Hex and GTTT.
"""

from __future__ import annotations

import argparse
import math
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bddl import Game, load_model
from bddl.engines.pns import search_pns
from bddl.engines.race import race_knowledge
from bddl.engines.minimax import SearchBudgetExceeded, search
from compiler.solving.search.positional_rules import not_searchable, search_positional

from . import corpus as corpus_module
from .suite import REPOSITORY, read_manifest


class _OutOfTime(Exception):
    pass


@dataclass(frozen=True)
class Run:
    verdict: bool | None  # None: no answer within the budget or the time
    positions: int | None
    seconds: float
    note: str = ""  # "budget", "time" when there is no verdict


@dataclass(frozen=True)
class Row:
    family: str
    name: str
    expected: bool | None
    minimax: Run
    pns: Run
    knowledge: Run | None  # df-pn with race patterns or the positional rules, where the game admits them
    kind: str = ""  # which knowledge: "race" or "rules"
    rules_minimax: Run | None = None  # the positional solver's minimax, on positional games


def _alarm(signum, frame):
    raise _OutOfTime


def _run(engine, game: Game, max_positions: int, seconds: float, **options) -> Run:
    start = time.perf_counter()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        result = engine(game, max_positions=max_positions, **options)
        return Run(result.black_wins, result.positions, time.perf_counter() - start)
    except SearchBudgetExceeded as exc:
        return Run(None, exc.positions, time.perf_counter() - start, "budget")
    except _OutOfTime:
        return Run(None, None, time.perf_counter() - start, "time")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def instances(corpus_folder: Path):
    for entry in read_manifest(REPOSITORY):
        yield entry.file.split("/")[0], entry.file, entry.domain, entry.problem, entry.black_wins
    for entry in corpus_module.instances(corpus_folder):
        yield entry.game, entry.id, entry.domain, entry.problem, entry.black_wins


def measure(corpus_folder: Path, max_positions: int, seconds: float, only: str | None = None, log=sys.stderr) -> list[Row]:
    rows = []
    for family, name, domain, problem, expected in instances(corpus_folder):
        if only and only not in name:
            continue
        model = load_model(domain, problem)
        game = Game(model.domain, model.problem)
        minimax = _run(search, game, max_positions, seconds)
        pns = _run(search_pns, game, max_positions, seconds)
        knowledge, kind, rules_minimax = None, "", None
        race = race_knowledge(game)
        if race is not None:
            knowledge, kind = _run(search_pns, game, max_positions, seconds, knowledge=race), "race"
        elif not_searchable(model.domain, model.problem, model.problem.depth) is None:
            knowledge, kind = _run(search_positional, game, max_positions, seconds, algorithm="pns"), "rules"
            rules_minimax = _run(search_positional, game, max_positions, seconds, algorithm="minimax")
        for run in (minimax, pns, knowledge, rules_minimax):
            if run is not None and run.verdict is not None and expected is not None and run.verdict != expected:
                raise AssertionError(f"{name}: verdict {run.verdict}, expected {expected}")
        row = Row(family, name, expected, minimax, pns, knowledge, kind, rules_minimax)
        rows.append(row)
        print(_row_text(row), file=log, flush=True)
    return rows


def _cell(run: Run | None) -> str:
    if run is None:
        return " | "
    if run.verdict is None:
        return f"{run.note} | {run.seconds:.1f}"
    return f"{run.positions:,} | {run.seconds:.2f}"


def _ratio(a: Run | None, b: Run | None) -> float | None:
    if a is None or b is None or a.verdict is None or b.verdict is None:
        return None
    return max(b.positions, 1) / max(a.positions, 1)


def _row_text(row: Row) -> str:
    verdict = {True: "wins", False: "no win", None: "?"}[row.expected]
    return (
        f"| {row.name} | {verdict} | {_cell(row.minimax)} | {_cell(row.pns)} | {_text(_ratio(row.minimax, row.pns))} "
        f"| {row.kind} | {_cell(row.knowledge)} | {_text(_ratio(row.minimax, row.knowledge))} "
        f"| {_cell(row.rules_minimax)} | {_text(_ratio(row.rules_minimax, row.knowledge))} |"
    )


def _text(ratio: float | None) -> str:
    return "" if ratio is None else f"{ratio:.2f}"


def _summary(ratios: list[float | None]) -> str:
    """Geometric mean, smallest, largest of the ratios there are."""
    known = [x for x in ratios if x is not None]
    return f"{_geomean(known):.2f} | {min(known):.2f} | {max(known):.2f}" if known else " | | "


def _geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def report(rows: list[Row], command: str) -> str:
    lines = [
        "# Game engine benchmarks: minimax and df-pn",
        "",
        "Generated by `bench/engines.py` (issue 16); [benchmarks.md](benchmarks.md#the-game-engine-minimax-and-df-pn) "
        "summarises it with the runs too long for this table.",
        "",
        f"Measured with `{command}` (positions = expanded positions; seconds on a shared 2-core machine, under load).",
        "",
        (
            "Per family, over the instances both searches decided: df-pn positions / minimax positions "
            "(geometric mean, smallest, largest); the same for df-pn with the game's knowledge (race "
            "patterns on Breakthrough-like games, the positional rules on positional games); and, on "
            "positional games, df-pn / minimax with the positional rules on both sides."
        ),
        "",
        (
            "| family | both decided | pns/minimax geo. mean | min | max | only minimax decided | only pns decided "
            "| knowledge | pns+knowledge/minimax geo. mean | min | max | only pns+knowledge decided "
            "| pns/minimax, both with the rules | min | max |"
        ),
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    families = list(dict.fromkeys(r.family for r in rows))
    for family in families:
        mine = [r for r in rows if r.family == family]
        ratios = [_ratio(r.minimax, r.pns) for r in mine]
        only_minimax = sum(1 for r in mine if r.minimax.verdict is not None and r.pns.verdict is None)
        only_pns = sum(1 for r in mine if r.minimax.verdict is None and r.pns.verdict is not None)
        kinds = ", ".join(sorted({r.kind for r in mine if r.kind}))
        only_knowledge = sum(1 for r in mine if r.knowledge is not None and r.minimax.verdict is None and r.knowledge.verdict is not None)
        lines.append(
            f"| {family} | {sum(x is not None for x in ratios)} | {_summary(ratios)} | {only_minimax} | {only_pns} "
            f"| {kinds} | {_summary([_ratio(r.minimax, r.knowledge) for r in mine])} | {only_knowledge if kinds else ''} "
            f"| {_summary([_ratio(r.rules_minimax, r.knowledge) for r in mine])} |"
        )
    lines += [
        "",
        (
            "| instance | answer | minimax positions | s | df-pn positions | s | ratio | knowledge "
            "| df-pn + knowledge positions | s | ratio to minimax | minimax with the rules positions | s "
            "| df-pn / minimax, both with the rules |"
        ),
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    lines += [_row_text(r) for r in rows]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.engines", description=__doc__.splitlines()[0])
    p.add_argument("--max-positions", type=int, default=2_000_000, help="positions budget per search (default 2,000,000)")
    p.add_argument("--time-limit", type=float, default=120.0, help="seconds per search (default 120)")
    p.add_argument("--corpus", type=Path, default=REPOSITORY.parent / "shared" / "corpus", help="the corpus folder")
    p.add_argument("--only", help="run only the instances whose name contains this text")
    p.add_argument("--output", type=Path, help="write the Markdown report here (default: standard output)")
    args = p.parse_args(argv)
    rows = measure(args.corpus, args.max_positions, args.time_limit, args.only)
    command = f"python -m bench.engines --max-positions {args.max_positions} --time-limit {args.time_limit:g}"
    text = report(rows, command)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
