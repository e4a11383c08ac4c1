"""`python -m bench.portfolio`: the routes of `bddlc solve --engine` side by side, instance by instance.

Each instance is decided by `qbf` (the QBF route alone), `search` (the
explicit engine that suits the game, alone) and `auto` (both raced), in one
run, through `compiler.solving.routes`, the library behind `bddlc solve
--engine`, in-process (no interpreter start counted).  Every verdict is
compared with the instance's known answer (the suite's manifest, the
corpus's answers.tsv); a wrong one makes the exit status 1.  The summary
gives, per set and engine, the instances decided and the seconds in all, and
the five instances where racing cost most against the faster single route
(issue 27's "never a loss for racing": at most 0.5 s).

    python -m bench.portfolio --sets gttt,suite --time-limit 30 --output /tmp/portfolio.tsv

The sets: `gttt` and `hein` (the .pg corpus), `suite` (problems/expected.toml,
the non-slow entries) and `corpus` (the BDDL models of ../shared/corpus/sat2023).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from compiler.model import open_model
from compiler.solving.processes.portfolio import Member, race
from compiler.solving.routes import answer, search_plan, search_result

from .corpus import CORPUS as BDDL_CORPUS
from .corpus import instances as corpus_instances
from .positional import CORPUS, answers
from .suite import read_manifest

ROOT = Path(__file__).resolve().parents[1]
ENGINES = ("qbf", "search", "auto")
SETS = ("gttt", "hein", "suite", "corpus")


def instances(sets: list[str], corpus: Path) -> list[tuple[str, str, list[str], bool | None]]:
    """(set, name, paths, expected) for each instance of the sets asked for."""
    found = []
    known = answers(corpus)
    if "gttt" in sets:
        for folder in ("gttt-3x3", "gttt-4x4"):
            for path in sorted((corpus / folder).glob("*.pg")):
                found.append(("gttt", f"{folder}/{path.name}", [str(path)], known.get(f"{folder}/{path.name}")))
    if "hein" in sets:
        for path in sorted((corpus / "hein").glob("*.pg")):
            found.append(("hein", f"hein/{path.name}", [str(path)], known.get(f"hein/{path.name}")))
    if "suite" in sets:
        for entry in read_manifest(ROOT):
            if not entry.slow:
                found.append(("suite", entry.file, [str(entry.domain), str(entry.problem)], entry.black_wins))
    if "corpus" in sets:  # the BDDL models of the sat2023 corpus, with the README's answers
        for instance in corpus_instances(bddl_corpus_beside(corpus)):
            found.append(("corpus", instance.id, [str(instance.domain), str(instance.problem)], instance.black_wins))
    return found


def bddl_corpus_beside(pg_corpus: Path) -> Path:
    """The corpus folder above `pg/` (its `sat2023/` holds the BDDL models)."""
    return pg_corpus.parent if pg_corpus.name == "pg" else BDDL_CORPUS


def decide(paths: list[str], engine: str, limit: float) -> tuple[bool | None, float, str]:
    """The verdict, the seconds and who answered, by one engine within `limit` seconds."""
    model = open_model(paths)
    if engine == "search":  # alone, but in a child all the same, so that the limit holds
        plan = search_plan(model)
        raced = race([Member(plan[0], lambda: search_result(model, plan=plan))], timeout=limit)
        result = raced.winner.result if raced.winner else None
        return (None if result is None else result.black_wins), raced.seconds, plan[0]
    if engine == "cross-check":  # `bddlc solve --cross-check`: both routes to their end, compared
        checked = answer(model, engine="auto", cross_check=True, timeout=limit)
        others = "; ".join(f"{route}: {verdict}" for route, verdict, _ in checked.others)
        if checked.disagreement is not None:
            return checked.result.black_wins, checked.result.seconds, "DISAGREE " + " / ".join(checked.disagreement)
        return checked.result.black_wins, checked.result.seconds, f"{checked.result.answered_by}; {others}"
    found = answer(model, engine=engine, timeout=limit).result
    return found.black_wins, found.seconds, found.answered_by or ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.portfolio", description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="gttt,suite", help=f"comma-separated, from {', '.join(SETS)} (default gttt,suite)")
    parser.add_argument("--engines", default=",".join(ENGINES),
                        help="comma-separated, from qbf, search, auto, cross-check (both routes to their end, as `solve --cross-check`)")
    parser.add_argument("--time-limit", type=float, default=30.0, metavar="S", help="seconds per instance and engine (default 30)")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the .pg corpus (default ../shared/corpus/pg)")
    parser.add_argument("--output", help="also write one TSV line per instance and engine here")
    args = parser.parse_args(argv)
    sets, engines = args.sets.split(","), args.engines.split(",")
    rows = []
    out = open(args.output, "w") if args.output else None
    header = "set\tinstance\tengine\tverdict\texpected\tseconds\tstatus\tanswered_by"
    print(header)
    if out:
        out.write(header + "\n")
    for kind, name, paths, expected in instances(sets, args.corpus):
        for engine in engines:
            verdict, seconds, who = decide(paths, engine, args.time_limit)
            status = "unknown" if verdict is None else "right" if expected is None or verdict == expected else "WRONG"
            if who.startswith("DISAGREE"):
                status = "WRONG"  # two routes contradict each other: one of them is wrong
            rows.append((kind, name, engine, verdict, expected, seconds, status, who))
            line = "\t".join(map(str, rows[-1][:5])) + f"\t{seconds:.3f}\t{status}\t{who}"
            print(line, flush=True)
            if out:
                out.write(line + "\n")
                out.flush()
    print(summary(rows))
    return 1 if any(r[6] == "WRONG" for r in rows) else 0


def summary(rows) -> str:
    totals: dict = defaultdict(lambda: [0, 0, 0, 0.0])  # instances, decided, wrong, seconds
    by_instance: dict = defaultdict(dict)
    for kind, name, engine, verdict, _expected, seconds, status, _who in rows:
        entry = totals[(kind, engine)]
        entry[0] += 1
        entry[1] += status != "unknown"
        entry[2] += status == "WRONG"
        entry[3] += seconds
        by_instance[(kind, name)][engine] = (seconds, status, verdict)
    lines = ["| set | engine | instances | decided | wrong | seconds in all |", "|---|---|---:|---:|---:|---:|"]
    for (kind, engine), (n, decided, wrong, seconds) in sorted(totals.items()):
        lines.append(f"| {kind} | {engine} | {n} | {decided} | {wrong} | {seconds:.1f} |")
    both = [(f"{kind}/{name}", runs) for (kind, name), runs in by_instance.items()
            if {"qbf", "search"} <= runs.keys() and "unknown" not in (runs["qbf"][1], runs["search"][1])]
    split = [name for name, runs in both if runs["qbf"][2] != runs["search"][2]]
    if any(engine in ("qbf", "search") for _, _, engine, *_ in rows):
        lines += ["", f"The two routes cross-checked: {len(both)} instances decided by both, "
                  + (f"**{len(split)} disagreements**: {', '.join(split)}" if split else "no disagreement") + "."]
    crossed = [(f"{kind}/{name}", who) for kind, name, engine, _v, _e, _s, _st, who in rows if engine == "cross-check"]
    if crossed:
        by_both = sum(who.startswith("DISAGREE") or who.endswith((": True", ": False")) for _, who in crossed)
        against = [name for name, who in crossed if who.startswith("DISAGREE")]
        lines += ["", f"--cross-check: {by_both} of {len(crossed)} instances decided by both routes, "
                  + (f"**{len(against)} disagreements**: {', '.join(against)}" if against else "no disagreement") + "."]
    losses = []
    for (kind, name), runs in by_instance.items():
        if {"qbf", "search", "auto"} <= runs.keys():
            singles = [runs[e][0] for e in ("qbf", "search") if runs[e][1] != "unknown"]
            if singles and runs["auto"][1] != "unknown":
                losses.append((runs["auto"][0] - min(singles), f"{kind}/{name}", runs["auto"][0], min(singles)))
    if losses:
        losses.sort(reverse=True)
        lines += ["", "Racing against the faster single route, the five worst (auto s - faster single s):", ""]
        lines += [f"- {name}: {loss:+.2f} s (auto {auto:.2f} s, faster single {best:.2f} s)" for loss, name, auto, best in losses[:5]]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
