"""What every command shares: argument types, the model arguments, opening the game, JSON pieces."""

from __future__ import annotations

import argparse
import sys

EXIT_OK = 0
EXIT_INPUT = 1
EXIT_USAGE = 2
EXIT_BUDGET = 3
EXIT_STRATEGY_FAILED = 4  # `validate` found a line of play where Black's strategy fails
EXIT_MISMATCH = 4  # `regress`: an answer contradicts the manifest
EXIT_DISAGREE = 5  # `solve --cross-check`: the QBF route and the search contradict each other
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: the output's reader went away (`| head`)
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


def add_model_arguments(parser: argparse.ArgumentParser, depth_help: str | None = "override the problem's depth") -> None:
    """GAME... (a domain and a problem file, or one positional game GAME.pg,
    read by `compiler.model.open_model`), and the model limits; `--depth` too
    unless `depth_help` is None."""
    parser.add_argument(
        "paths",
        metavar="GAME",
        nargs="+",
        help="the game: a domain file and a problem file, or one positional game GAME.pg",
    )
    if depth_help is not None:
        parser.add_argument("--depth", type=positive_int, metavar="N", help=depth_help + "; also stands in for a missing #depth")
    parser.add_argument("--max-board-side", type=positive_int, metavar="N",
                        help="refuse BDDL boards wider or higher than N (default 1000; a .pg game has cells, not sides)")
    parser.add_argument("--max-depth", type=positive_int, default=10_000, metavar="N", help="refuse depths above N (default 10000)")
    parser.add_argument(
        "--max-memory",
        type=positive_int,
        default=2048,
        metavar="MB",
        help="refuse work estimated to need more than MB megabytes of memory (default 2048): "
        "the explicit and corrective encodings, search, check --reachable and --exhaustive on large boards",
    )


def limits_of(args, parser: argparse.ArgumentParser):
    """The model limits the options give; --max-board-side refused for a `.pg` game, which has no sides."""
    from bddl.validate import Limits

    from ..model import PG, language_of

    paths = getattr(args, "paths", None) or getattr(args, "game", None) or []
    check_game_paths(paths, args, parser)
    side = getattr(args, "max_board_side", None)
    if side is not None:
        try:
            pg = language_of(paths) == PG
        except ValueError:
            pg = False
        if pg:
            parser.error("--max-board-side bounds a BDDL board's width and height; a .pg game has cells, not sides: drop --max-board-side")
    return Limits(side or Limits.max_board_side, args.max_depth)


def check_game_paths(paths, args, parser: argparse.ArgumentParser) -> None:
    """Mistakes in the game's paths, named with their fix before any file is read (every command that
    reads a game comes here, through limits_of): a missing file or a folder (exit 1, the reader's own
    diagnostic: the file meant, or the games in the folder), the problem given before its domain and a
    --depth past --max-depth (usage errors, exit 2, with the command that works)."""
    import shlex

    from ..model import file_kind, require_files

    require_files(paths)
    if len(paths) == 2 and file_kind(paths[0]) == "problem" and file_kind(paths[1]) == "domain":
        certificate = [args.certificate] if getattr(args, "certificate", None) and parser.prog == "bddlc certify" else []
        parser.error(f"{paths[0]} is a problem and {paths[1]} a domain: the domain comes first, "
                     f"{parser.prog} {' '.join(map(shlex.quote, [paths[1], paths[0], *certificate]))}")
    depth, guard = getattr(args, "depth", None), getattr(args, "max_depth", None)
    if "--depth" in parser._option_string_actions and depth is not None and guard is not None and depth > guard:
        parser.error(f"--depth {depth} is beyond the limit of {guard} (--max-depth, a guard against huge depths): "
                     f"give a smaller --depth, or raise the limit with --max-depth {depth}")


def open_game(args, parser: argparse.ArgumentParser, *, default_depth: int | None = None, initial_state: bool = True, print_warnings: bool = False):
    """The `compiler.model.GameModel` the arguments name.  Paths that name no
    game are a usage error (exit 2); a wrong file raises BddlError (exit 1)."""

    from ..model import ModelPathsError, open_model

    try:
        model = open_model(
            args.paths,
            depth=getattr(args, "depth", None),
            default_depth=default_depth,
            limits=limits_of(args, parser),
            initial_state=initial_state,
        )
    except ModelPathsError as exc:
        parser.error(str(exc))
    if print_warnings:
        for diagnostic in model.warnings:
            print(diagnostic.render(), file=sys.stderr)
    return model


def add_encoding_argument(parser: argparse.ArgumentParser, help: str) -> None:
    from ..encodings import all_encoding_names

    parser.add_argument("--encoding", choices=all_encoding_names(), help=help + "; one that does not fit the game is refused, naming those that do")


def game_json(model) -> dict:
    """The keys every command's JSON opens with: which game, in which language."""
    return {"game": list(model.paths), "language": model.language}


def move_json(play) -> dict | None:
    """A move as every command's JSON gives it: who plays it and how it is written."""
    return None if play is None else {"side": play.side, "text": play.text}


def white_first(model) -> str:
    """How the reports say that White moves first (a BDDL model says so by #blackturn second)."""
    return model.words.white_first


def checked_encoding(model, encoding: str | None, parser: argparse.ArgumentParser) -> str | None:
    """--encoding checked against the game (exit 2, naming the encodings that fit); None stays None."""
    from ..model import EncodingDoesNotFit

    if encoding is None:
        return None
    try:
        return model.check_encoding(encoding)
    except EncodingDoesNotFit as exc:
        parser.error(str(exc))


def add_solver_arguments(parser: argparse.ArgumentParser, timeout_help: str = "give up after S seconds (compiling included) and report unknown") -> None:
    from ..solving.qbf.solver_programs import DEFAULT_SOLVER, PORTFOLIOS, SOLVER_CHOICES

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


def version() -> str:
    from .. import __version__

    return __version__


def plies(count: int) -> str:
    """'1 move', '9 moves': a depth as the reports say it (one move is one ply)."""
    return f"{count} move" if count == 1 else f"{count} moves"


def counted(count: int, word: str, words: str | None = None) -> str:
    """'1 position', '2,048 positions': a count with its noun in the right number."""
    return f"{count:,} {word if count == 1 else words or word + 's'}"


def add_certificate_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--certificate",
        metavar="FILE.json",
        help="write the verdict's strategy certificate to FILE.json (docs/certificates.md), for `bddlc certify` to check",
    )
    parser.add_argument(
        "--every-reply",
        action="store_true",
        help="with --certificate: list every reply of the other side, none left out as answered by a win at once "
        "(format version 3 or older, which checkers before version 4 read; larger)",
    )


def cannot_write(path: str, exc: OSError, suffix: str = ".qcir"):
    """The diagnostic for an output file we could not write (exit status 1, like any bad input);
    `suffix`: the kind of file written, for the example of a file name when a folder was given."""
    from pathlib import Path

    from bddl.ast import Span
    from bddl.errors import BddlError, error

    folder = Path(path).parent
    if Path(path).is_dir():  # renaming onto a folder fails as EBUSY ('.') or EISDIR, whichever the system says
        exc = IsADirectoryError(21, "Is a directory", path)
    if isinstance(exc, FileNotFoundError):
        reason, hint = f"no such folder '{folder}'", "note: create the folder first, or write somewhere else"
    elif isinstance(exc, IsADirectoryError):
        reason, hint = "it is a folder", f"note: name a file, e.g. {Path(path) / ('game' + (Path(path).suffix or suffix))}"
    elif isinstance(exc, PermissionError):
        reason, hint = f"permission denied in '{folder}'", "note: write somewhere you may write"
    else:
        reason, hint = exc.strerror or str(exc), ""
    return BddlError(error(f"cannot write the output: {reason}", Span(path, 0, 0, 0, 0), hint))


def refuse_unwritable(path: str, suffix: str = ".qcir") -> None:
    """An output file written only once the work is done: its folder is checked first (exit 1,
    BddlError), so that no game is searched only to find that the file cannot be written."""
    from pathlib import Path

    folder = Path(path).parent
    if not folder.is_dir():
        raise cannot_write(path, FileNotFoundError(2, "No such file or directory", str(folder)), suffix)
    if Path(path).is_dir():
        raise cannot_write(path, IsADirectoryError(21, "Is a directory", path), suffix)
    import os

    if not os.access(Path(path) if Path(path).exists() else folder, os.W_OK):
        raise cannot_write(path, PermissionError(13, "Permission denied", path), suffix)


def refuse_missing_certificate(path: str) -> None:
    """A certificate that is not there: the file meant (`wheel.jsn` -> `wheel.json`), or how one is written."""
    import os

    from bddl.ast import Span
    from bddl.errors import BddlError, error
    from bddl.suggest import missing_file_hint

    if os.path.isdir(path):
        raise BddlError(error("is a folder, not a certificate", Span(path, 0, 0, 0, 0),
                              "note: give the JSON file `bddlc search|solve --certificate FILE.json` writes"))
    if not os.path.exists(path):
        hint = missing_file_hint(path) or "note: write one with bddlc search|solve GAME... --certificate FILE.json"
        raise BddlError(error("no such file", Span(path, 0, 0, 0, 0), hint))


def moves_here(rules, position, shown: int = 8) -> str:
    """'; Black to move here, whose moves are: a1, a2, ...': the moves that can come where a wrong one was given
    (White's piece moved on Black's turn, a cell of another board)."""
    plays = [play.text for play in rules.plays(position)]
    if not plays:
        return ""
    more = f", ... ({len(plays)} in all)" if len(plays) > shown else ""
    return f"; {rules.to_move(position.ply).capitalize()} to move here, whose moves are: {', '.join(plays[:shown])}{more}"


def certificate_path(args, parser: argparse.ArgumentParser) -> str | None:
    """--certificate's file, refused (exit 2) unless it ends in .json, and (exit 1) where it cannot be written."""
    path = getattr(args, "certificate", None)
    if path is None and getattr(args, "every_reply", False):
        parser.error("--every-reply says how --certificate writes its file: add --certificate FILE.json")
    if path is not None:
        if not path.lower().endswith(".json"):
            parser.error(f"a certificate is written as JSON: name it FILE.json, not {path}")
        refuse_unwritable(path, ".json")
    return path


def write_certificate_for(args, model, black_wins: bool | None, *, qbf_solver: str | None = None, searched=None) -> dict | None:
    """Write the certificate --certificate asks for, once the verdict is known; its
    summary for the JSON output, and a line on stderr.  No verdict: no certificate.
    `searched`: the solver that decided a positional game, whose table and moves the
    certificate then reuses (`compiler.certificates.build_certificate`).  --core python (where the
    command has it) asks the Python engines; else the compiled core's where it takes the game."""
    path = getattr(args, "certificate", None)
    if path is None or black_wins is None:
        if path is not None:
            print(f"no certificate written to {path}: there is no verdict to certify", file=sys.stderr)
        return None
    from ..certificates import write_certificate

    written = write_certificate(model, black_wins, path, max_memory=args.max_memory, qbf_solver=qbf_solver,
                                qbf_timeout=getattr(args, "timeout", None), searched=searched, core=getattr(args, "core", None),
                                at_once=not getattr(args, "every_reply", False))
    swaps = f", {written.swaps:,} moves answered by a sibling's strategy" if written.swaps else ""
    pairings = "" if not written.pairings else f", {written.pairings:,} line{'s' if written.pairings > 1 else ''} ended by a pairing strategy"
    at_once = "" if not written.at_once else f", {counted(written.at_once, 'reply', 'replies')} answered by a win at once"
    positions = counted(written.nodes, "position")
    print(f"certificate: {written.path} ({written.claim}, {positions}{swaps}{pairings}{at_once}, {written.bytes:,} bytes, "
          f"produced by {written.produced_by}); check it with bddlc certify", file=sys.stderr)
    return {"path": written.path, "claim": written.claim, "nodes": written.nodes, "swaps": written.swaps,
            "pairings": written.pairings, "at_once": written.at_once, "bytes": written.bytes, "produced_by": written.produced_by}


ENGINE_HELP = ("auto (the default): the QBF route and the explicit engine that suits the game side by side, one "
               "process each, the first verdict wins; qbf or search: that route alone, for research and for output "
               "that is the same on every run (as `bddlc solve --engine`)")


def add_engine_argument(parser: argparse.ArgumentParser, each: str, explained: str = ENGINE_HELP) -> None:
    """--engine, the same for every command: `each` says when the route(s) run ("for each depth", ...),
    `explained` what the choices mean.  Its default is None, read as auto by `engine_of`, so that a command
    can tell an explicit choice."""
    parser.add_argument("--engine", choices=("auto", "qbf", "search"), default=None, help=f"{each}: {explained}" if each else explained)


def engine_of(args, parser: argparse.ArgumentParser) -> str:
    """--engine's route(s), auto unless given; --encoding, --solver or --preprocess with --engine search is
    a usage error (they configure the QBF route, which search does not run)."""
    from ..solving.routes import DEFAULT_ENGINE

    engine = args.engine or DEFAULT_ENGINE
    if engine == "search":
        given = [f"--{name}" for name, default in (("encoding", None), ("solver", "default"), ("preprocess", "none"))
                 if getattr(args, name, default) != default]
        if given:
            parser.error(f"--engine search uses no encoding, solver or preprocessing: drop {', '.join(given)}, "
                         "or use --engine auto (they configure its QBF route) or --engine qbf")
    return engine


def add_progress_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--progress",
        action="store_true",
        help="say on stderr which routes are running (both under --engine auto, the one asked under qbf or search) "
        "and for how long, every few seconds after the first 3 without an answer (the default when stderr is a terminal)",
    )


PROGRESS_AFTER = 3.0  # seconds of a race without an answer before its first progress line


def race_progress(what: str, engine: str, asked: bool):
    """The progress callback of one answer (`routes.answer`'s on_wait), or None: only when asked (--progress)
    or when stderr is a terminal, whatever the `engine`: one route alone is waited for as long as a race
    (issue 42: `--engine qbf` said nothing on a terminal).  One callback per answer: it counts from its start."""
    if not (asked or sys.stderr.isatty()):
        return None
    from bddl.budget import Progress

    say = Progress(what, after=PROGRESS_AFTER)

    def on_wait(running: list[tuple[str, float]]) -> None:
        say("running " + " and ".join(name for name, _ in running))  # started together: Progress adds the seconds

    return on_wait
