"""The `bddlc` command line: thin wrappers over the library, one per command.

Exit statuses are part of the interface (docs/cli.md): 0 success, 1 a bad
model or input file, 2 a usage error (argparse's), 3 a search that ran out
of budget, 130 interrupted; `solve` and `depth` add the QBF convention 10
(Black wins) / 20 (no winning strategy) / 0 (unknown).  A bad model never
produces a traceback; an internal error keeps its traceback, because that is
a bug for us to fix.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Callable, Sequence

EXIT_OK = 0
EXIT_INPUT = 1
EXIT_USAGE = 2
EXIT_BUDGET = 3
EXIT_INTERRUPTED = 130

DESCRIPTION = """\
Compile a BDDL game (a domain file and a problem file) into a quantified
Boolean formula that is true iff Black has a winning strategy of at most
`depth` moves, and solve, search and check such games."""

EXAMPLES = """\
commands:
  bddlc DOMAIN PROBLEM [-o OUT]     compile to QCIR (or QDIMACS); also `bddlc compile ...`
  bddlc search DOMAIN PROBLEM       decide the game by explicit game-tree search

examples:
  bddlc domains/positional.bddl problems/httt/tic_3x3_d9.bddl -o tic.qcir
  bddlc search domains/domineering.bddl problems/domineering/3x3_d4.bddl

Run `bddlc COMMAND --help` for a command's options.  Exit status: 0 ok,
1 bad input (with file:line:col diagnostics), 2 usage error, 3 search budget
exhausted."""


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def _add_model_arguments(parser: argparse.ArgumentParser, depth_help: str = "override the problem's depth") -> None:
    parser.add_argument("domain", metavar="DOMAIN", help="the domain file (actions)")
    parser.add_argument("problem", metavar="PROBLEM", help="the problem file (board, initial state, depth, goals)")
    parser.add_argument("--depth", type=_positive_int, metavar="N", help=depth_help)
    parser.add_argument("--max-board-side", type=_positive_int, default=1000, metavar="N", help="refuse boards wider or higher than N (default 1000)")
    parser.add_argument("--max-depth", type=_positive_int, default=10_000, metavar="N", help="refuse depths above N (default 10000)")


def _load(args):
    from bddl.loader import load_model
    from bddl.validate import Limits

    model = load_model(
        args.domain,
        args.problem,
        depth=args.depth,
        limits=Limits(args.max_board_side, args.max_depth),
    )
    for diagnostic in model.warnings:
        print(diagnostic.render(), file=sys.stderr)
    return model


# ---------------------------------------------------------------------------
# compile (the default command)


def _compile_parser() -> argparse.ArgumentParser:
    from .encodings import DEFAULT_ENCODING, DESCRIPTIONS, ENCODINGS
    from .output import FORMATS

    p = argparse.ArgumentParser(
        prog="bddlc",
        description="Compile a BDDL game into a QBF that is true iff Black has a winning strategy "
        "of at most DEPTH moves.",
        epilog="examples:\n"
        "  bddlc domains/positional.bddl problems/httt/tic_3x3_d9.bddl -o tic.qcir\n"
        "  bddlc domains/domineering.bddl problems/domineering/3x3_d4.bddl --format qdimacs > dom.qdimacs\n\n"
        "encodings:\n" + "\n".join(f"  {name:10} {DESCRIPTIONS[name]}" for name in ENCODINGS),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_model_arguments(p, "override the problem's depth (the number of plies)")
    p.add_argument("-o", "--output", metavar="OUT", help="output file (default: standard output)")
    p.add_argument("--format", choices=FORMATS, help="qcir or qdimacs (default: from OUT's suffix, .qcir/.qdimacs/.cnf, else qcir)")
    p.add_argument("--encoding", choices=sorted(ENCODINGS), default=DEFAULT_ENCODING, help=f"which encoding (default {DEFAULT_ENCODING})")
    p.add_argument("--polarity", action="store_true", help="QDIMACS: Plaisted-Greenbaum (polarity-aware) Tseitin instead of the full one")
    return p


def describe(model, depth: int, encoding: str) -> list[str]:
    """The comment lines that open every formula file."""
    first = "Black moves first" if model.problem.black_first else "White moves first"
    return [
        f"bddlc {_version()}, encoding: {encoding}",
        f"domain: {model.domain_path}",
        f"problem: {model.problem_path}",
        f"board: {model.problem.width}x{model.problem.height}, depth: {depth}, {first}",
        f"true iff Black has a winning strategy of at most {depth} moves",
    ]


def cmd_compile(argv: Sequence[str]) -> int:
    from .encodings import encode
    from .output import format_for, formula_text, write_atomically

    args = _compile_parser().parse_args(argv)
    model = _load(args)
    depth = model.problem.depth
    fmt = format_for(args.output, args.format)
    encoding = encode(model.domain, model.problem, depth, args.encoding)
    text, _ = formula_text(encoding.circuit, fmt, describe(model, depth, args.encoding), args.polarity)
    if args.output and args.output != "-":
        write_atomically(args.output, text)
    else:
        sys.stdout.write(text)
    return EXIT_OK


# ---------------------------------------------------------------------------
# search


def _search_parser() -> argparse.ArgumentParser:
    from bddl.search import DEFAULT_MAX_POSITIONS

    p = argparse.ArgumentParser(
        prog="bddlc search",
        description="Decide whether Black wins within the depth by exhaustive game-tree search "
        "(the explicit semantics of the BDDL paper; no QBF involved).",
    )
    _add_model_arguments(p)
    p.add_argument(
        "--max-positions",
        type=_positive_int,
        default=DEFAULT_MAX_POSITIONS,
        metavar="N",
        help=f"give up (exit status 3) after expanding N positions (default {DEFAULT_MAX_POSITIONS:,})",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return p


def cmd_search(argv: Sequence[str]) -> int:
    from bddl.game import Game
    from bddl.search import SearchBudgetExceeded, search

    args = _search_parser().parse_args(argv)
    model = _load(args)
    game = Game(model.domain, model.problem)
    depth = model.problem.depth
    try:
        result = search(game, depth, max_positions=args.max_positions)
    except SearchBudgetExceeded as exc:
        if args.json:
            print(json.dumps({"black_wins": None, "depth": depth, "first_move": None, "positions": exc.positions, "error": "budget exhausted"}))
        else:
            print(f"unknown: the search expanded {exc.positions:,} positions without an answer (raise --max-positions)")
        return EXIT_BUDGET
    move = result.first_move
    if args.json:
        print(
            json.dumps(
                {
                    "black_wins": result.black_wins,
                    "depth": depth,
                    "first_move": None if move is None else {"action": move.action, "x": move.x, "y": move.y},
                    "positions": result.positions,
                    "seconds": round(result.seconds, 6),
                }
            )
        )
        return EXIT_OK
    if result.black_wins:
        print(f"Black wins within {depth} moves.")
        if move is not None:
            print(f"first move: {move.action} {move.x} {move.y}")
            print(game.render(move.state))
        else:
            print("White moves first (#blackturn second): Black wins whatever White plays.")
    else:
        print(f"Black has no winning strategy within {depth} moves.")
    print(f"positions: {result.positions:,}, time: {result.seconds:.2f} s")
    return EXIT_OK


# ---------------------------------------------------------------------------

COMMANDS: dict[str, Callable[[Sequence[str]], int]] = {
    "compile": cmd_compile,
    "search": cmd_search,
}


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("bddlc")
    except Exception:  # not installed (running from a checkout)
        return "0+unknown"


def _top_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bddlc",
        description=DESCRIPTION,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"bddlc {_version()}")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    from bddl.errors import BddlError

    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in COMMANDS:
        command, rest = COMMANDS[argv[0]], argv[1:]
    elif not argv:
        _top_parser().print_usage(sys.stderr)
        print("bddlc: error: give a domain and a problem file, or a command (see bddlc --help)", file=sys.stderr)
        return EXIT_USAGE
    elif argv[0] in ("-h", "--help", "--version"):
        _top_parser().parse_args(argv)
        return EXIT_OK
    else:
        command, rest = cmd_compile, argv
    try:
        return command(rest)
    except BddlError as exc:
        print(exc.render(), file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
