"""What every command shares: argument types, the model arguments, loading a model."""

from __future__ import annotations

import argparse
import sys

EXIT_OK = 0
EXIT_INPUT = 1
EXIT_USAGE = 2
EXIT_BUDGET = 3
EXIT_STRATEGY_FAILED = 4  # `validate` found a line of play where Black's strategy fails
EXIT_MISMATCH = 4  # `regress`: an answer contradicts the manifest
EXIT_INTERRUPTED = 130
# the QBF solvers' convention, used by `solve` and `depth`
EXIT_TRUE = 10
EXIT_FALSE = 20
EXIT_UNKNOWN = 0


def paragraph(text: str) -> str:
    """A help description filled to the terminal width argparse's raw formatter keeps."""
    import textwrap

    return textwrap.fill(text, 79)


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text}")
    return value


def add_model_arguments(
    parser: argparse.ArgumentParser, depth_help: str | None = "override the problem's depth", positional: bool = False
) -> None:
    """DOMAIN PROBLEM and the model limits; `--depth` too unless `depth_help` is None.

    With `positional`, a `.pg` positional game may stand in place of DOMAIN PROBLEM (`pg_path`)."""
    if positional:
        parser.add_argument("domain", metavar="DOMAIN", help="the domain file (actions), or a positional game GAME.pg")
        parser.add_argument("problem", metavar="PROBLEM", nargs="?", help="the problem file (none after a .pg game)")
    else:
        parser.add_argument("domain", metavar="DOMAIN", help="the domain file (actions)")
        parser.add_argument("problem", metavar="PROBLEM", help="the problem file (board, initial state, depth, goals)")
    if depth_help is not None:
        parser.add_argument("--depth", type=positive_int, metavar="N", help=depth_help + "; also stands in for a missing #depth")
    parser.add_argument("--max-board-side", type=positive_int, default=1000, metavar="N", help="refuse boards wider or higher than N (default 1000)")
    parser.add_argument("--max-depth", type=positive_int, default=10_000, metavar="N", help="refuse depths above N (default 10000)")
    parser.add_argument(
        "--max-memory",
        type=positive_int,
        default=2048,
        metavar="MB",
        help="refuse work estimated to need more than MB megabytes of memory (default 2048): "
        "the explicit and corrective encodings, search, check --reachable and --exhaustive on large boards",
    )


def add_solver_arguments(parser: argparse.ArgumentParser, timeout_help: str = "give up after S seconds (compiling included) and report unknown") -> None:
    from ..solving.solver_programs import DEFAULT_SOLVER, PORTFOLIOS, SOLVER_CHOICES

    portfolios = "; ".join(f"{name} runs {' and '.join(run)} side by side, the first verdict wins" for name, run in PORTFOLIOS.items())
    parser.add_argument(
        "--solver",
        choices=SOLVER_CHOICES,
        default=DEFAULT_SOLVER,
        help=f"the QBF solver (default: {DEFAULT_SOLVER}, which is DepQBF on the corrective encoding of a claiming "
        f"game and Qute on QCIR otherwise; {portfolios})",
    )
    parser.add_argument("--timeout", type=positive_float, metavar="S", help=timeout_help)


def add_budget_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--time-budget",
        type=positive_float,
        metavar="S",
        help="stop after S seconds in all (each solve gets at most the time left) and report what is known",
    )


def load(args, print_warnings: bool = True, default_depth: int | None = None):
    """The validated model the arguments name; its warnings go to stderr
    unless the caller reports them itself.  `default_depth` stands in for a
    missing `#depth` (`--depth` does so for every command that has it)."""
    from bddl.loader import load_model
    from bddl.validate import Limits

    model = load_model(
        args.domain,
        args.problem,
        depth=getattr(args, "depth", None),
        default_depth=default_depth,
        limits=Limits(args.max_board_side, args.max_depth),
    )
    if print_warnings:
        for diagnostic in model.warnings:
            print(diagnostic.render(), file=sys.stderr)
    return model


def pg_path(args, parser: argparse.ArgumentParser) -> str | None:
    """The `.pg` game the arguments name instead of DOMAIN PROBLEM, or None for a BDDL model.

    A missing PROBLEM after a file that is not `.pg`, or a PROBLEM after a `.pg`
    game, is a usage error (exit 2)."""
    is_pg = args.domain.endswith(".pg")
    if is_pg and args.problem is not None:
        parser.error(f"a positional game ({args.domain}) stands alone: give no PROBLEM file")
    if not is_pg and args.problem is None:
        parser.error("give a DOMAIN and a PROBLEM file, or a positional game GAME.pg")
    return args.domain if is_pg else None


def version() -> str:
    from .. import __version__

    return __version__


def plies(count: int) -> str:
    """'1 move', '9 moves': a depth as the reports say it (one move is one ply)."""
    return f"{count} move" if count == 1 else f"{count} moves"
