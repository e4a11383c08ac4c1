"""`python -m bench.positional`: `.pg` games under solving configurations.

Each configuration is ENCODING:SOLVER[:bloqqer] (e.g. cor+:depqbf,
corrective:caqe, cor+:default:bloqqer); "default" names what `bddlc solve`
uses.  Every instance runs through `compiler.languages.PgModel.solve_qbf`,
the library behind `bddlc solve game.pg`, one at a time, with a time limit
that covers compiling too.  Verdicts are compared with the corpus's
`answers.tsv`; a wrong one makes the exit status 1.  Results go to a TSV
(one line per instance and configuration) and a markdown summary per family
(the folder an instance is in).  The sizes mode prints COR+'s formula sizes
next to the paper's Table 3.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

from bddl.pg.reader import load_pg
from compiler.encodings import POSITIONAL_ENCODING as PG_SOLVE_ENCODING
from compiler.languages import pg_model

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pg"

# The paper's Table 3: blocks, universals, existentials, clauses, literals.
TABLE_3 = {
    "qubic_1_1_4x4x4.pg": ("Qubic 4x4x4", 63, 186, 4_500, 25_000, 102_000),
    "gttt_1_1_9x9_snaky.pg": ("Snaky 9x9", 81, 280, 7_500, 45_700, 188_000),
    "gomoku_1_1_15x15_connect5.pg": ("Gomoku 15x15", 225, 896, 52_900, 360_000, 1_514_000),
    "mickey_mouse_1_2_19x19_connect6.pg": ("Connect6 19x19 Mickey Mouse", 179, 1602, 130_000, 1_020_000, 3_070_000),
}


def answers(corpus: Path) -> dict[str, bool | None]:
    known = {}
    table = corpus / "answers.tsv"
    if table.exists():
        for line in table.read_text().splitlines():
            if line.startswith("#") or not line.strip():
                continue
            name, answer, *_ = line.split("\t")
            known[name] = {"true": True, "false": False}.get(answer)
    return known


def parse_config(text: str) -> tuple[str, str, str]:
    parts = text.split(":")
    if len(parts) not in (2, 3):
        raise argparse.ArgumentTypeError(f"a configuration is ENCODING:SOLVER[:bloqqer], not {text!r}")
    encoding, solver = parts[0] or PG_SOLVE_ENCODING, parts[1]
    return encoding, solver, parts[2] if len(parts) == 3 else "none"


def run(args) -> int:
    known = answers(args.corpus)
    files = sorted(path for folder in args.folders for path in (args.corpus / folder).glob("*.pg"))[:: args.every]
    rows, wrong = [], 0
    out = open(args.output, "w") if args.output else None
    if out:
        out.write("config\tgame\tverdict\texpected\tseconds\tstatus\tfirst_move\n")
    for path in files:  # every configuration on one game before the next: a partial run still compares them
        name = str(path.relative_to(args.corpus))
        game = load_pg(path)
        for config in args.configs:
            encoding, solver, preprocess = config
            result = pg_model(game).solve_qbf(encoding=encoding, solver=solver, preprocess=preprocess, timeout=args.time_limit)
            expected = known.get(name)
            status = "unknown" if result.black_wins is None else "right" if expected is None or result.black_wins == expected else "WRONG"
            wrong += status == "WRONG"
            rows.append((":".join(config), name, result.black_wins, expected, f"{result.seconds:.2f}", status, result.first_move.text if result.first_move else ""))
            line = "\t".join(map(str, rows[-1]))
            print(line, flush=True)
            if out:
                out.write(line + "\n")
                out.flush()
    if out:
        out.close()
    print(summary(rows))
    return 1 if wrong else 0


def family(name: str) -> str:
    """The folder, and for GTTT the stones per turn: gttt-4x4 (1,1) and so on."""
    folder, file = name.split("/")
    parts = file.split("_")
    return f"{folder} ({parts[1]},{parts[2]})" if parts[0] == "gttt" else folder


def summary(rows) -> str:
    """Per configuration and family: decided, right, total and largest time."""
    groups = defaultdict(list)
    for config, name, verdict, _expected, seconds, status, _move in rows:
        groups[(config, name.split("/")[0])].append((verdict, float(seconds), status))
        if family(name) != name.split("/")[0]:
            groups[(config, family(name))].append((verdict, float(seconds), status))
    lines = ["| configuration | family | instances | decided | wrong | total s | largest s |", "|---|---|---|---|---|---|---|"]
    for (config, family_name), items in sorted(groups.items()):
        decided = sum(status != "unknown" for _, _, status in items)
        wrong = sum(s == "WRONG" for _, _, s in items)
        total = sum(t for _, t, _ in items)
        largest = max(t for _, t, _ in items)
        lines.append(f"| {config} | {family_name} | {len(items)} | {decided} | {wrong} | {total:.1f} | {largest:.1f} |")
    slow = [(config, name, seconds, status) for config, name, _v, _e, seconds, status, _m in rows if status != "right" or float(seconds) > 60]
    if slow:
        lines += ["", "Not decided within the limit, or wrong:", ""]
        lines += [f"- {config} {name}: {status}, {float(seconds):.1f} s" for config, name, seconds, status in slow]
    return "\n".join(lines)


def read_results(path: str) -> list[tuple]:
    rows = []
    for line in Path(path).read_text().splitlines()[1:]:
        config, name, verdict, expected, seconds, status, *move = line.split("\t")
        rows.append((config, name, verdict, expected, seconds, status, move[0] if move else ""))
    return rows


def sizes(corpus: Path) -> str:
    lines = [
        "| milestone | | blocks | universals | existentials | clauses | literals | compile s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for file, (title, *paper) in TABLE_3.items():
        start = time.perf_counter()
        q = pg_model(load_pg(corpus / "milestones" / file)).compile("cor+").qdimacs()
        seconds = time.perf_counter() - start
        ours = (
            len(q.prefix),
            sum(len(b) for k, b in q.prefix if k == "forall"),
            sum(len(b) for k, b in q.prefix if k == "exists"),
            q.num_clauses,
            sum(map(len, q.clauses)),
        )
        lines.append(f"| {title} | paper | " + " | ".join(f"{v:,}" for v in paper) + " | |")
        lines.append(
            "| | ours | "
            + " | ".join(f"{o:,}" + ("" if o == p else f" ({(o - p) / p:+.1%})") for o, p in zip(ours, paper))
            + f" | {seconds:.1f} |"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.positional", description=__doc__.split("\n\n")[0])
    p.add_argument("folders", nargs="*", default=["gttt-3x3", "gttt-4x4"], help="folders of the corpus's pg/ (default: the GTTT ones)")
    p.add_argument("--corpus", type=Path, default=CORPUS, help=f"the pg corpus (default {CORPUS})")
    p.add_argument("--config", dest="configs", type=parse_config, action="append", help="ENCODING:SOLVER[:bloqqer] (repeatable; default :default, what bddlc solve runs)")
    p.add_argument("--time-limit", type=float, default=60.0, help="seconds per instance (default 60)")
    p.add_argument("-o", "--output", help="write the results as TSV here (one line as each run ends)")
    p.add_argument("--every", type=int, default=1, metavar="K", help="only every K-th game (a quick sample)")
    p.add_argument("--sizes", action="store_true", help="print COR+'s milestone sizes against the paper's Table 3 and stop")
    p.add_argument("--report", metavar="TSV", help="summarise a results file written by -o and stop")
    args = p.parse_args(argv)
    if args.report:
        print(summary(read_results(args.report)))
        return 0
    if args.sizes:
        print(sizes(args.corpus))
        return 0
    args.configs = args.configs or [parse_config(":default")]
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
