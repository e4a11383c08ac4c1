"""`bddlc show GAME... -o FILE`: pictures of a game, for both languages.

The model sheet (the default), a position (`--position`, or `--moves` for the
one after a line of play) as SVG, or the strategy explorer of a certificate
(`--certificate CERT.json`) as one self-contained HTML file.  The output's
suffix must match what is drawn, so a sheet is never saved as `.html` by a
slip; files are written whole or not at all.
"""

from __future__ import annotations

import argparse
import sys

from .common import EXIT_BUDGET, EXIT_INPUT, EXIT_OK, add_model_arguments, limits_of, paragraph, positive_int, cannot_write, counted, refuse_unwritable, refuse_missing_certificate, moves_here

MAX_CELLS = 10_000  # a 100x100 board: about 4 MB of SVG per drawing of the whole board
# the explorer's page holds every position of the certificate, and is about as large as the certificate's
# file (Hein 02 5x5 at 11: 41,602 positions, 5.4 MB of JSON, 4.7 MB of HTML written in 2 s): 100,000
# positions make some 10 to 40 MB, which a browser still opens; the largest certificates of
# docs/certificates.md's table (57,636 positions) pass
MAX_POSITIONS = 100_000


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bddlc show",
        description=paragraph(
            "Draw a game (a BDDL domain and problem, or a positional game GAME.pg): its model sheet (the board, "
            "the initial stones, each goal pattern or winning set, the turn order) or a position as SVG, or a "
            "strategy certificate as a self-contained HTML explorer. Nothing is fetched when the files are opened."
        ),
        epilog="examples:\n"
        "  bddlc show domains/positional.bddl problems/httt/tic_3x3_d9.bddl -o sheet.svg\n"
        "  bddlc show problems/pg/tictactoe_3x3.pg --moves 'b2, a1, c3' -o position.svg\n"
        "\nWith --certificate CERT.json -o strategy.html: the explorer of a certificate (docs/pictures.md).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_model_arguments(p, "override the game's depth (for a certificate: default the certificate's)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--position", action="store_true", help="draw the initial position instead of the model sheet")
    what.add_argument("--moves", metavar="MOVES", help="draw the position after these moves, in the game's notation, separated by commas "
                      "(e.g. 'occupy 2 2, occupy 1 1' or 'b2, a1'); the last one is marked")
    what.add_argument("--certificate", metavar="CERT", help="write the strategy explorer of this certificate (a .json file) as HTML")
    p.add_argument("--max-positions", type=positive_int, metavar="N",
                   help=f"with --certificate: refuse (exit status 3) a certificate of more than N positions, whose page "
                   f"would be too large to open (default {MAX_POSITIONS:,})")
    p.add_argument("-o", "--output", metavar="FILE", help="the file to write: .svg for a sheet or a position, .html for "
                   "a certificate's explorer (default: standard output)")
    return p


def run(args) -> int:
    parser = build_parser()
    suffix = ".html" if args.certificate else ".svg"
    if args.output and args.output != "-" and not args.output.lower().endswith(suffix):
        drawn = "a certificate's explorer" if args.certificate else "a position" if args.position or args.moves is not None else "a model sheet"
        parser.error(f"{drawn} is written as {suffix}: name the output FILE{suffix}, not {args.output}")
    if args.max_positions is not None and not args.certificate:
        parser.error("--max-positions bounds a certificate's explorer: it needs --certificate")
    from ..model import ModelPathsError, open_model

    paths = args.paths
    certificate = _read_certificate(args.certificate) if args.certificate else None
    depth = args.depth
    if certificate is not None and depth is None:
        depth = _certificate_depth(certificate)

    try:
        model = open_model(paths, depth=depth, limits=limits_of(args, parser))
    except ModelPathsError as exc:
        parser.error(str(exc))
    for diagnostic in model.warnings:
        print(diagnostic.render(), file=sys.stderr)
    too_large = board_too_large(model.rules)
    if too_large:
        print(f"bddlc show: error: {too_large}", file=sys.stderr)
        return EXIT_INPUT
    if certificate is not None:
        from ..pictures.explorer import CertificateError, explorer_html

        count, limit = _certificate_positions(certificate), args.max_positions or MAX_POSITIONS
        if count > limit:
            from pathlib import Path

            size = Path(args.certificate).stat().st_size  # the page holds every position: it is about as large
            # the replies a version 4 file leaves out are on the page too, each a move of its own
            leaves_out = any(isinstance(node, dict) and node.get("others_lose_at_once") for node in certificate["nodes"])
            like = (f"more than the certificate's {_megabytes(size)}: the replies it leaves out as answered at once are moves on the page too"
                    if leaves_out else f"about {_megabytes(size)} like the certificate")
            print(f"bddlc show: the certificate {args.certificate} has {counted(count, 'position')}, more than the explorer's limit of "
                  f"{limit:,} (its page would hold them all, {like}); "
                  f"raise it with --max-positions {count} if a browser should open a page that large", file=sys.stderr)
            return EXIT_BUDGET

        try:
            text = explorer_html(model, certificate, args.certificate)
        except CertificateError as exc:
            print(f"{args.certificate}: error: {exc}", file=sys.stderr)
            return EXIT_INPUT
    elif args.position or args.moves is not None:
        from ..pictures import position_svg

        line = _line_of_play(model.rules, args.moves or "")
        if isinstance(line, str):
            print(f"bddlc show: error: --moves: {line}", file=sys.stderr)
            return EXIT_INPUT
        before, last = line
        position = last.after if last is not None else model.rules.initial
        text = position_svg(model.rules, position, last, before)
    else:
        from ..pictures.sheet import model_sheet

        text = model_sheet(model)
    return _write(args.output, text)


def _line_of_play(rules, moves: str):
    """(the position before the last move, the last move), or what is wrong with `moves` as a message."""
    from bddl.notation import MoveInputError

    position, before, last = rules.initial, None, None
    texts = [m.strip() for m in moves.split(",")] if moves.strip() else []
    for k, text in enumerate(texts, 1):
        if not text:
            return f"move {k} is empty: separate the moves by single commas"
        if position.ply >= rules.depth:
            return f"move {k} ({text}): the game is over after {counted(rules.depth, 'ply', 'plies')}"
        if last is not None and rules.won(position, last.side):
            return f"move {k} ({text}): the game is over: {last.side.capitalize()} won with move {k - 1} ({last.text})"
        try:
            play = rules.parse_play(position, text)
        except MoveInputError as exc:
            split = _several_moves(rules, position, text)
            if split is not None:
                fixed = ", ".join(texts[: k - 1] + split + texts[k:])
                return f"move {k} ({text}) is {len(split)} moves: separate them by commas, --moves '{fixed}'"
            several = "; several moves are separated by commas" if len(text.split()) > 1 else ""
            return f"move {k} ({text}): {exc}{several}{moves_here(rules, position)}"
        before, last, position = position, play, play.after
    return before, last


def _several_moves(rules, position, text: str, first_only: bool = False) -> list[str] | None:
    """`text` read as several moves in a row, when that is how it reads: a user who
    separated moves by spaces ('hub p2 p6') gets the list with commas, not the
    rules' word on what one move is.  `first_only`: only the first need be legal
    (`play`, where the later ones are guesses at the game's future)."""
    from bddl.notation import MoveInputError

    words = text.split()
    for size in range(1, 4):  # a cell name, or ACTION X Y
        if len(words) % size or len(words) // size < 2:
            continue
        groups = [" ".join(words[i : i + size]) for i in range(0, len(words), size)]
        here = position
        try:
            for group in groups:
                if here.ply >= rules.depth:
                    raise MoveInputError("past the depth")
                here = rules.parse_play(here, group).after
                if first_only:
                    break
        except MoveInputError:
            continue
        return groups
    return None


def _read_certificate(path: str):
    """The certificate's JSON; a file that is not JSON is a `file:line:col` error (exit 1)."""
    import json

    from bddl.ast import Span
    from bddl.errors import BddlError, error

    refuse_missing_certificate(path)
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except OSError as exc:
        raise BddlError(error(f"cannot read the certificate: {exc.strerror or exc}", Span(path, 0, 0, 0, 0), "")) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        line, column = (exc.lineno, exc.colno) if isinstance(exc, json.JSONDecodeError) else (1, 1)
        message = exc.msg if isinstance(exc, json.JSONDecodeError) else "not UTF-8 text"
        raise BddlError(error(f"not a JSON certificate: {message}", Span(path, line, column, line, column + 1),
                              "note: a certificate is the JSON file bddlc solve|search --certificate writes")) from None


def _certificate_positions(certificate) -> int:
    """How many positions (nodes) the certificate holds; 0 for one without a list of nodes, which the explorer refuses."""
    nodes = certificate.get("nodes") if isinstance(certificate, dict) else None
    return len(nodes) if isinstance(nodes, list) else 0


def _megabytes(size: int) -> str:
    return f"{size / 1e6:,.1f} MB" if size >= 100_000 else f"{size / 1e3:,.0f} KB"


def _certificate_depth(certificate) -> int | None:
    game = certificate.get("game") if isinstance(certificate, dict) else None
    depth = game.get("depth") if isinstance(game, dict) else None
    return depth if isinstance(depth, int) and depth > 0 else None


def board_too_large(rules) -> str | None:
    """Why the board is not drawn (more than MAX_CELLS cells), or None."""
    if len(rules.cells) <= MAX_CELLS:
        return None
    return (f"the board has {len(rules.cells):,} cells; bddlc draws boards of at most {MAX_CELLS:,} "
            f"(a drawing of more would be neither readable nor small)")


def add_svg_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """--svg FILE.svg for a command that shows a position (`play`, `solve`): the drawing `show --moves` makes."""
    parser.add_argument("--svg", metavar="FILE.svg", help=f"also draw {what} as SVG in FILE.svg, as bddlc show draws a position")


def svg_path(args, parser: argparse.ArgumentParser, rules) -> str | None:
    """--svg's file, checked before any work: a usage error (exit 2) unless it ends in .svg, bad input
    (exit 1, BddlError) when its folder is missing or the board too large to draw, so that no game
    is played or solved only to find that its picture cannot be written."""
    path = getattr(args, "svg", None)
    if path is None:
        return None
    if not path.lower().endswith(".svg"):
        parser.error(f"a position is written as .svg: name the output FILE.svg, not {path}")
    refuse_unwritable(path)
    too_large = board_too_large(rules)
    if too_large:
        from bddl.ast import Span
        from bddl.errors import BddlError, error

        raise BddlError(error(f"cannot draw the position: {too_large}", Span(path, 0, 0, 0, 0), "note: drop --svg"))
    return path


def write_position_svg(path: str | None, rules, position, last=None, before=None) -> None:
    """Write --svg's drawing of `position` (the cells `last` changed from `before` marked), whole or not at all."""
    if path is None:
        return
    from ..pictures import position_svg

    _write(path, position_svg(rules, position, last, before))


def _write(output: str | None, text: str) -> int:
    if not output or output == "-":
        sys.stdout.write(text)
        return EXIT_OK
    from ..formula_files import write_atomically

    try:
        write_atomically(output, text)
    except OSError as exc:
        raise cannot_write(output, exc) from None
    return EXIT_OK
