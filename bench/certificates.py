"""`python -m bench.certificates GAME.pg...`: write and check each game's certificate, one TSV line each.

For every game given (a `.pg` file; or `DOMAIN,PROBLEM` for a BDDL model):
the verdict from the explicit engine, the certificate written to `--out`
(`compiler.certificates.write_certificate`), then checked by the independent
checker (`compiler.certificates.check`); printed: the game, the verdict,
nodes, swap edges, lines ended by pairings, replies left out as answered at once,
bytes, seconds to decide, to write, to check, the checker's verdict,
and the process's peak memory (MB).  `--answers` compares the verdicts with
a corpus table (answers.tsv) and exits 1 on a disagreement or an invalid
certificate.  `--claim` writes the certificate of the claim given without
deciding the game first (the checker says whether it holds): a refutation
whose lines end in pairings needs the engine at a few positions only.
`--every-reply` lists every reply (no format version 4), to compare.
`--depth` asks about another depth than the files' (as `bddlc search
--depth`; the certificate's name then ends in `-dN`), so that deeper
questions about the corpus's games need no edited copies.  The seconds are
wall-clock on whatever machine runs it.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

from bddl.budget import MemoryBudgetExceeded
from bddl.errors import BddlError
from compiler.certificates import StrategyNotFound, write_certificate
from compiler.cli.common import positive_int
from compiler.certificates.check import check_files
from compiler.certificates.oracles import engine_oracle
from compiler.model import ModelPathsError, open_model


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bench.certificates", description=__doc__.split("\n\n")[1])
    p.add_argument("games", nargs="+", metavar="GAME", help="a .pg game, or DOMAIN,PROBLEM")
    p.add_argument("--out", type=Path, required=True, help="the folder the certificates are written to")
    p.add_argument("--answers", type=Path, help="answers.tsv: compare the verdicts (rows name games relative to its folder)")
    p.add_argument("--max-memory", type=int, default=4096, metavar="MB", help="memory for the engine and the certificate (default 4096)")
    p.add_argument("--claim", choices=("black-wins", "no-black-win"),
                   help="certify this claim without deciding the game first (the checker judges it)")
    p.add_argument("--depth", type=positive_int, metavar="N", help="the depth asked about, if not the game files' (the certificate is named GAME-dN.json)")
    p.add_argument("--every-reply", action="store_true",
                   help="list every reply of the other side, leaving none out as answered at once (format version 3 or older)")
    return p


def _answers(path: Path) -> dict[str, str]:
    table = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, answer, *_ = line.split("\t")
            table[str((path.parent / name).resolve())] = answer
    return table


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    table = _answers(args.answers) if args.answers else {}
    failures = 0
    print("game\tblack_wins\tnodes\tswaps\tpairings\tat_once\tbytes\tdecide_s\twrite_s\tcheck_s\tvalid\tpeak_mb", flush=True)
    for game in args.games:
        paths = game.split(",")
        try:
            model = open_model(paths, depth=args.depth)
        except ModelPathsError as exc:  # paths that name no game: a usage error (exit 2), as bddlc's
            parser.error(str(exc))
        except BddlError as exc:  # a file that is missing or wrong: its diagnostic, then the other games
            failures += 1
            print(exc.render(), file=sys.stderr)
            continue
        start = time.perf_counter()
        wins: bool | None = None
        decided = start
        try:
            oracle = engine_oracle(model, args.max_memory << 19)
            before = model.rules.winner_before_play()
            if args.claim is not None:
                wins = args.claim == "black-wins"
            else:
                wins = before == "black" if before is not None else oracle.black_wins(model.rules.initial)
            decided = time.perf_counter()
            target = args.out / (Path(paths[-1]).stem + ("" if args.depth is None else f"-d{args.depth}") + ".json")
            written = write_certificate(model, wins, target, oracle=oracle, max_memory=args.max_memory,
                                        decide_first=args.claim is None, at_once=not args.every_reply)
        except StrategyNotFound as exc:  # a --claim that does not hold (or an engine at odds with itself)
            failures += 1
            _not_written(game, str(wins).lower(), decided - start, time.perf_counter() - decided)
            print(f"{game}: no certificate: {exc}", file=sys.stderr)
            continue
        except MemoryBudgetExceeded as exc:  # one game past its budget: say so, go on with the others
            failures += 1
            _not_written(game, "-" if wins is None else str(wins).lower(), decided - start, time.perf_counter() - decided)
            told = exc if wins is not None else exc.of_a_share(2, args.max_memory << 20)  # the engine's half
            print(f"{game}: {told}", file=sys.stderr)
            continue
        done = time.perf_counter()
        verdict = check_files(model, target)
        checked = time.perf_counter()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        print(f"{game}\t{str(wins).lower()}\t{written.nodes}\t{written.swaps}\t{written.pairings}\t{written.at_once}\t{written.bytes}\t{decided - start:.2f}\t{done - decided:.2f}\t"
              f"{checked - done:.2f}\t{str(verdict.valid).lower()}\t{peak}", flush=True)
        expected = table.get(str(Path(paths[-1]).resolve())) if args.depth is None else None  # (the table is about the files' depths)
        if not verdict.valid or (expected in ("true", "false") and expected != str(wins).lower()):
            failures += 1
            print(f"{game}: {verdict.report()} (answers.tsv: {expected})", file=sys.stderr)
    return 1 if failures else 0


def _not_written(game: str, verdict: str, decide_s: float, write_s: float) -> None:
    """A game's line when no certificate was written: no sizes, no check."""
    sizes = "\t".join("-" * 5)  # nodes, swaps, pairings, at_once, bytes
    print(f"{game}\t{verdict}\t{sizes}\t{decide_s:.2f}\t{write_s:.2f}\t-\tnot written\t"
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
