"""`bddlc DOMAIN PROBLEM [-o OUT]`: the compiler proper."""

from __future__ import annotations

import argparse
import sys

from .common import EXIT_OK, add_model_arguments, load, pg_path, plies, version


def build_parser() -> argparse.ArgumentParser:
    from ..encodings import DEFAULT_ENCODING, DESCRIPTIONS, ENCODINGS, POSITIONAL_DESCRIPTIONS, POSITIONAL_ENCODINGS
    from ..formula_files import FORMATS

    p = argparse.ArgumentParser(
        prog="bddlc",
        description="Compile a BDDL game into a QBF that is true iff Black has a winning strategy "
        "of at most DEPTH moves.  A positional game GAME.pg may stand in place of DOMAIN PROBLEM: "
        "it is compiled by COR+ (default) or COR.",
        epilog="examples:\n"
        "  bddlc domains/positional.bddl problems/httt/tic_3x3_d9.bddl -o tic.qcir\n"
        "  bddlc domains/domineering.bddl problems/domineering/3x3_d4.bddl --format qdimacs > dom.qdimacs\n"
        "  bddlc problems/pg/tictactoe_3x3.pg -o tic.qdimacs\n\n"
        "encodings:\n" + "\n".join(f"  {name:10} {DESCRIPTIONS[name]}" for name in ENCODINGS)
        + "\n" + "\n".join(f"  {name:10} {text}" for name, text in POSITIONAL_DESCRIPTIONS.items()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_model_arguments(p, "override the problem's depth (the number of plies)", positional=True)
    p.add_argument("-o", "--output", metavar="OUT", help="output file (default: standard output)")
    p.add_argument("--format", choices=FORMATS, help="qcir or qdimacs (default: from OUT's suffix, .qcir/.qdimacs/.cnf, else qcir)")
    p.add_argument(
        "--encoding",
        choices=sorted(set(ENCODINGS) | set(POSITIONAL_ENCODINGS)),
        help=f"which encoding (default {DEFAULT_ENCODING}; for a .pg game et on a Hex board, else cor+)",
    )
    p.add_argument("--polarity", action="store_true", help="QDIMACS: Plaisted-Greenbaum (polarity-aware) Tseitin instead of the full one")
    p.add_argument(
        "--strict",
        action="store_true",
        help="treat warnings about the model (dead actions or goals, a side without actions, cells no action "
        "changes, Black without a goal, goals split over lines, that add nothing or that a stone blocks) as errors: "
        "exit status 1 and no output",
    )
    return p


def describe(model, depth: int, encoding: str) -> list[str]:
    """The comment lines that open every formula file."""
    first = "Black moves first" if model.problem.black_first else "White moves first"
    return [
        f"bddlc {version()}, encoding: {encoding}",
        f"domain: {model.domain_path}",
        f"problem: {model.problem_path}",
        f"board: {model.problem.width}x{model.problem.height}, depth: {depth}, {first}",
        f"true iff Black has a winning strategy of at most {plies(depth)}",
    ]


def report_warnings(model, strict: bool) -> None:
    """The validator's and `compiler.analysis.lint`'s warnings: to stderr, or under
    `--strict` raised as errors (so no output file is written)."""
    import dataclasses

    from bddl.errors import BddlSemanticError

    from ..analysis.lint import lint

    warnings = list(model.warnings) + lint(model.domain, model.problem)
    if strict and warnings:
        raise BddlSemanticError(
            [dataclasses.replace(d, severity="error", message=d.message + " [--strict]") for d in warnings]
        )
    for diagnostic in warnings:
        print(diagnostic.render(), file=sys.stderr)


def run(args) -> int:
    from ..encodings import DEFAULT_ENCODING, ENCODINGS, POSITIONAL_ENCODINGS, encode, encoding_name
    from ..formula_files import format_for, formula_text, write_atomically

    game_file = pg_path(args, build_parser())
    if game_file is not None:
        from .pg_compile import run_pg

        return run_pg(args, game_file, build_parser(), _cannot_write)
    if args.encoding in POSITIONAL_ENCODINGS and args.encoding not in ENCODINGS:
        build_parser().error(f"--encoding {args.encoding} compiles .pg games: write the model as one with bddlc export first")
    args.encoding = args.encoding or DEFAULT_ENCODING
    if args.encoding not in ENCODINGS:
        build_parser().error(f"--encoding {args.encoding} compiles .pg games only")
    model = load(args, print_warnings=False)
    report_warnings(model, args.strict)
    depth = model.problem.depth
    fmt = format_for(args.output, args.format)
    encoding = encode(model.domain, model.problem, depth, args.encoding)
    header = describe(model, depth, encoding_name(encoding, args.encoding))  # "auto" says which it chose
    text, _ = formula_text(encoding.circuit, fmt, header, args.polarity)
    if args.output and args.output != "-":
        try:
            write_atomically(args.output, text)
        except OSError as exc:
            raise _cannot_write(args.output, exc) from None
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _cannot_write(path: str, exc: OSError):
    """The diagnostic for an output file we could not write (exit status 1, like any bad input)."""
    from pathlib import Path

    from bddl.ast import Span
    from bddl.errors import BddlError, error

    folder = Path(path).parent
    if isinstance(exc, FileNotFoundError):
        reason, hint = f"no such folder '{folder}'", "note: create the folder first, or write somewhere else"
    elif isinstance(exc, IsADirectoryError):
        reason, hint = "it is a folder", f"note: name a file, e.g. {Path(path) / 'game.qcir'}"
    elif isinstance(exc, PermissionError):
        reason, hint = f"permission denied in '{folder}'", "note: write somewhere you may write"
    else:
        reason, hint = exc.strerror or str(exc), ""
    return BddlError(error(f"cannot write the output: {reason}", Span(path, 0, 0, 0, 0), hint))
