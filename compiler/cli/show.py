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

from .common import limits_of, EXIT_INPUT, EXIT_OK, add_model_arguments, paragraph

MAX_CELLS = 10_000  # a 100x100 board: about 4 MB of SVG per drawing of the whole board


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
    p.add_argument("-o", "--output", metavar="FILE", help="the file to write: .svg for a sheet or a position, .html for "
                   "a certificate's explorer (default: standard output)")
    return p


def run(args) -> int:
    parser = build_parser()
    suffix = ".html" if args.certificate else ".svg"
    if args.output and args.output != "-" and not args.output.lower().endswith(suffix):
        drawn = "a certificate's explorer" if args.certificate else "a position" if args.position or args.moves is not None else "a model sheet"
        parser.error(f"{drawn} is written as {suffix}: name the output FILE{suffix}, not {args.output}")
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
    if len(model.rules.cells) > MAX_CELLS:
        print(f"bddlc show: error: the board has {len(model.rules.cells):,} cells; bddlc show draws boards of at most "
              f"{MAX_CELLS:,} (a drawing of more would be neither readable nor small)", file=sys.stderr)
        return EXIT_INPUT
    if certificate is not None:
        from ..pictures.explorer import CertificateError, explorer_html

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
            return f"move {k} ({text}): the game is over after {rules.depth} plies"
        if last is not None and rules.won(position, last.side):
            return f"move {k} ({text}): the game is over: {last.side.capitalize()} won with move {k - 1} ({last.text})"
        try:
            play = rules.parse_play(position, text)
        except MoveInputError as exc:
            return f"move {k} ({text}): {exc}"
        before, last, position = position, play, play.after
    return before, last


def _read_certificate(path: str):
    """The certificate's JSON; a file that is not JSON is a `file:line:col` error (exit 1)."""
    import json

    from bddl.ast import Span
    from bddl.errors import BddlError, error

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


def _certificate_depth(certificate) -> int | None:
    game = certificate.get("game") if isinstance(certificate, dict) else None
    depth = game.get("depth") if isinstance(game, dict) else None
    return depth if isinstance(depth, int) and depth > 0 else None


def _write(output: str | None, text: str) -> int:
    if not output or output == "-":
        sys.stdout.write(text)
        return EXIT_OK
    from ..formula_files import write_atomically
    from .compile import _cannot_write

    try:
        write_atomically(output, text)
    except OSError as exc:
        raise _cannot_write(output, exc) from None
    return EXIT_OK
