"""`python -m bench.hex`: Hex with implicit goals, measured.

Four modes:

* `solve` (default): the Hein puzzles of the corpus (`pg/hein/`) through
  `compiler.languages.PgModel.solve_qbf`, the library behind `bddlc solve
  game.pg`, under one or more configurations ENCODING:SOLVER[:bloqqer]
  ("default" is what `bddlc solve` picks), one instance at a time, with a
  time limit per instance that covers compiling.  Verdicts are compared with
  the corpus's `answers.tsv`; a wrong one makes the exit status 1.
* `sizes`: EN, ET and LN (and SN up to depth 91) on the empty 19x19 board at
  depths 45, 91, 181 and 361, generation time and QDIMACS size next to the
  paper's Table 2, and a plot of size against depth (matplotlib).
* `search`: the Hein puzzles (or, `--family`, the GTTT games) through the explicit searches (`bddlc search
  game.pg --algorithm minimax|pns`), each run in a child process killed at
  the time limit, with the Maker-Breaker relevance pruning on (what bddlc
  does) and/or off (`--relevance off`: the searches as they were before it):
  verdict, positions and seconds per instance, compared with answers.tsv.
* Timings are wall-clock on whatever machine runs this; the figures in
  docs/benchmarks.md say under what load they were taken.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pg"
DEPTHS = (45, 91, 181, 361)
# The paper's Table 2 (vars, clauses), thousands, as generated (before Bloqqer).
TABLE_2 = {
    "en": ((25, 122), (50, 246), (100, 488), (199, 972)),
    "et": ((17, 100), (34, 200), (67, 395), (134, 785)),
    "ln": ((5, 22), (9, 33), (17, 54), (32, 97)),
    "sn": ((53, 261), (167, 720), (560, 2182), (2027, 7342)),
}


def answers(corpus: Path) -> dict[str, str]:
    table = corpus / "answers.tsv"
    known = {}
    for line in table.read_text().splitlines() if table.exists() else []:
        fields = line.split("\t")
        if len(fields) >= 2:
            known[fields[0]] = fields[1]
    return known


def hein_files(corpus: Path, largest: int) -> list[Path]:
    """The Hein instances on boards up to largest x largest."""
    files = []
    for path in sorted((corpus / "hein").glob("*.pg")):
        size = int(path.stem.split("x")[0][-1]) if "x" in path.stem else 5
        if size <= largest:
            files.append(path)
    return files


def search_files(corpus: Path, family: str, largest: int) -> list[Path]:
    """The instances of one corpus family for the search mode (Hein: up to largest x largest)."""
    if family == "hein":
        return hein_files(corpus, largest)
    return sorted((corpus / family).glob("*.pg"))


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the solver
    programs): on a loaded machine, what the run itself cost."""
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class _Rows:
    """A TSV table printed as it grows, and copied to `path` when one is given
    (a long run leaves every finished row behind if it is interrupted)."""

    def __init__(self, path, header: str) -> None:
        self.out = open(path, "w", encoding="ascii") if path else None
        self.add(header)

    def add(self, line: str) -> None:
        print(line, flush=True)
        if self.out:
            print(line, file=self.out, flush=True)

    def __enter__(self) -> _Rows:
        return self

    def __exit__(self, *exc) -> None:
        if self.out:
            self.out.close()


def _judged(verdict: str, expected: str) -> tuple[str, bool]:
    """The verdict as reported, and whether it contradicts a known answer."""
    wrong = verdict != "unknown" and expected != "unknown" and verdict != expected
    return (verdict + " WRONG" if wrong else verdict), wrong


def run_solve(args) -> int:
    from bddl.pg.reader import load_pg
    from compiler.languages import pg_model

    known = answers(args.corpus)
    wrong = 0
    header = "instance\tconfig\texpected\tverdict\tseconds\tcpu_seconds\tdepth_decided\tvariables\tclauses\tfirst_move\tnote"
    with _Rows(args.output, header) as rows:
        for path in hein_files(args.corpus, args.largest):
            game = load_pg(path)
            expected = known.get(f"hein/{path.name}", "unknown")
            for config in args.config:
                encoding, solver, *pre = config.split(":")
                cpu = _cpu()
                result = pg_model(game).solve_qbf(
                    encoding=None if encoding in ("", "default") else encoding,
                    solver=solver or "default",
                    preprocess=pre[0] if pre else "none",
                    timeout=args.time_limit,
                )
                cpu = _cpu() - cpu
                verdict, contradicts = _judged({True: "true", False: "false", None: "unknown"}[result.black_wins], expected)
                wrong += contradicts
                rows.add("\t".join(map(str, (
                    path.stem, config, expected, verdict, f"{result.seconds:.2f}", f"{cpu:.2f}", result.depth_solved,
                    result.size.vars, result.size.clauses, result.first_move.text if result.first_move else "", result.reason or "",
                ))))
    return 1 if wrong else 0


SEARCH_VARIANTS = {"on": True, "off": False}
SEARCH_FAMILIES = ("hein", "gttt-3x3", "gttt-4x4")


def run_search(args) -> int:
    """Each instance, algorithm and pruning setting in a child (`search-one`), killed at the limit."""
    import json
    import subprocess

    known = answers(args.corpus)
    wrong = 0
    header = "instance\talgorithm\trelevance\texpected\tverdict\tpositions\tseconds\tfirst_move"
    with _Rows(args.output, header) as rows:
        for path in search_files(args.corpus, args.family, args.largest):
            expected = known.get(f"{args.family}/{path.name}", "unknown")
            for algorithm in args.algorithms:
                for variant in args.relevance:
                    command = [sys.executable, "-m", "bench.hex", "search-one", str(path), "--algorithm", algorithm]
                    command += ["--relevance", variant]
                    try:
                        done = subprocess.run(command, capture_output=True, text=True, timeout=args.time_limit, check=False)
                    except subprocess.TimeoutExpired:  # run() has killed and reaped the child
                        verdict, positions, seconds, move = "unknown", "", f">{args.time_limit:g}", ""
                    else:
                        if done.returncode != 0:
                            raise SystemExit(f"{path.name} {algorithm}: the child failed:\n{done.stderr}")
                        found = json.loads(done.stdout)
                        verdict, contradicts = _judged("true" if found["black_wins"] else "false", expected)
                        wrong += contradicts
                        positions, seconds = found["positions"], f"{found['seconds']:.2f}"
                        move = found["first_move"] or ""
                    rows.add("\t".join(map(str, (path.stem, algorithm, variant, expected, verdict, positions, seconds, move))))
    return 1 if wrong else 0


def search_one(args) -> int:
    """One search in this process, its result as JSON on stdout (the child of `search`)."""
    import json

    from bddl.engines.positional_pns import solve_pns
    from bddl.pg.reader import load_pg
    from bddl.engines.positional import solve

    game = load_pg(args.path)
    relevance = SEARCH_VARIANTS[args.relevance]
    if args.algorithm == "pns":
        result = solve_pns(game, max_positions=10**12, relevance=relevance)
    else:
        result = solve(game, max_positions=10**12, relevance=relevance)
    move = None if result.first_move is None else game.cells[result.first_move]
    print(json.dumps({"black_wins": result.black_wins, "positions": result.positions, "seconds": result.seconds, "first_move": move}))
    return 0


def run_sizes(args) -> int:
    from bddl.pg.hex import hex_board
    from compiler.encodings import encode_implicit

    rows = []
    print("encoding\tdepth\tseconds\tvariables\tclauses\tpaper_variables\tpaper_clauses")
    for name in args.encodings:
        for k, depth in enumerate(DEPTHS):
            if name == "sn" and depth > args.sn_depth:
                continue
            start = time.perf_counter()
            encoding = encode_implicit(hex_board(19, depth), encoding=name)
            formula = encoding.qdimacs()  # QCIR encodings through the full Tseitin, as the paper counts them
            seconds = time.perf_counter() - start
            paper = TABLE_2[name][k]
            rows.append((name, depth, seconds, formula.num_vars, formula.num_clauses, paper))
            print(f"{name}\t{depth}\t{seconds:.2f}\t{formula.num_vars}\t{formula.num_clauses}\t{paper[0]}k\t{paper[1]}k", flush=True)
    if args.plot:
        plot_sizes(rows, Path(args.plot))
    return 0


def plot_sizes(rows, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, index, label in ((axes[0], 3, "variables"), (axes[1], 4, "clauses")):
        for name in dict.fromkeys(r[0] for r in rows):
            mine = [r for r in rows if r[0] == name]
            ax.plot([r[1] for r in mine], [r[index] for r in mine], marker="o", label=f"{name.upper()} (bddlc)")
            paper = [(d, TABLE_2[name][k][index - 3] * 1000) for k, d in enumerate(DEPTHS) if k < len(TABLE_2[name])]
            paper = paper[: len(mine)]
            ax.plot([d for d, _ in paper], [v for _, v in paper], linestyle="--", marker="x", label=f"{name.upper()} (paper)")
        ax.set_xlabel("depth (plies)")
        ax.set_ylabel(label)
        ax.set_yscale("log")
        ax.set_title(f"empty 19x19 Hex board: {label}")
        ax.grid(True, alpha=0.3)
    axes[1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.hex", description=__doc__.split("\n\n")[0])
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["search-one"]:
        one = argparse.ArgumentParser(prog="python -m bench.hex search-one")
        one.add_argument("path")
        one.add_argument("--algorithm", choices=("minimax", "pns"), default="minimax")
        one.add_argument("--relevance", choices=tuple(SEARCH_VARIANTS), default="on")
        return search_one(one.parse_args(argv[1:]))
    p.add_argument("mode", nargs="?", choices=("solve", "sizes", "search"), default="solve")
    p.add_argument("--corpus", type=Path, default=CORPUS, help=f"the pg corpus (default {CORPUS})")
    p.add_argument("--config", action="append", help="ENCODING:SOLVER[:bloqqer] (repeatable; default :default)")
    p.add_argument("--time-limit", type=float, default=60.0, help="seconds per instance (default 60)")
    p.add_argument("--largest", type=int, default=5, help="largest board side of the Hein instances (default 5)")
    p.add_argument("-o", "--output", help="also write the TSV here")
    p.add_argument("--encodings", nargs="+", default=["en", "et", "ln"], help="sizes: which encodings")
    p.add_argument("--sn-depth", type=int, default=91, help="sizes: deepest SN (it grows with d^2)")
    p.add_argument("--plot", help="sizes: write the plot here (PNG)")
    p.add_argument("--algorithms", nargs="+", choices=("minimax", "pns"), default=["minimax", "pns"], help="search: which searches")
    p.add_argument(
        "--family", default="hein", choices=SEARCH_FAMILIES, help="search: the corpus family (default hein; GTTT: Maker-Maker)"
    )
    p.add_argument(
        "--relevance", nargs="+", choices=tuple(SEARCH_VARIANTS), default=["on"],
        help="search: with the relevance pruning (on, the default), without it (off), or both",
    )
    args = p.parse_args(argv)
    args.config = args.config or [":default"]
    if args.mode == "search":
        return run_search(args)
    return run_sizes(args) if args.mode == "sizes" else run_solve(args)


if __name__ == "__main__":
    sys.exit(main())
