"""`bddlc DOMAIN PROBLEM [-o OUT]`: the compiler proper."""

from __future__ import annotations

import argparse
import sys

from .common import EXIT_OK, add_model_arguments, cannot_write, checked_encoding, open_game, refuse_unwritable


def build_parser() -> argparse.ArgumentParser:
    from ..encodings import DEFAULT_ENCODING, DESCRIPTIONS, ENCODINGS, POSITIONAL_DESCRIPTIONS, all_encoding_names
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
    add_model_arguments(p, "override the problem's depth (the number of plies)")
    p.add_argument("-o", "--output", metavar="OUT", help="output file (default: standard output)")
    p.add_argument("--format", choices=FORMATS, help="qcir or qdimacs (default: from OUT's suffix, .qcir/.qdimacs/.cnf, else qcir, "
                   "or qdimacs for an encoding built as clauses); an OUT whose suffix names the other format is refused")
    p.add_argument("--json", action="store_true", help="with -o OUT: print one JSON object (encoding, sizes, output) on standard output")
    p.add_argument(
        "--encoding",
        choices=all_encoding_names(),
        help=f"which encoding (default {DEFAULT_ENCODING}; for a .pg game et on a Hex board, else cor+); "
        "one that does not fit the game is refused, naming those that do",
    )
    p.add_argument("--polarity", action="store_true", help="QDIMACS: Plaisted-Greenbaum (polarity-aware) Tseitin instead of the full one")
    p.add_argument(
        "--strict",
        action="store_true",
        help="treat warnings about the model (dead actions or goals, a side without actions, cells no action "
        "changes, Black without a goal, goals split over lines, that add nothing or that a stone blocks; a .pg "
        "game's reader warnings) as errors: exit status 1 and no output",
    )
    return p


def report_warnings(model, strict: bool) -> None:
    """The game's warnings (the reader's and validator's, and for a BDDL
    model `compiler.analysis.lint`'s): to stderr, or under `--strict` raised
    as errors (so no output file is written)."""
    import dataclasses

    from bddl.errors import BddlSemanticError


    warnings = list(model.warnings) + model.lint()
    if strict and warnings:
        raise BddlSemanticError(
            [dataclasses.replace(d, severity="error", message=d.message + " [--strict]") for d in warnings]
        )
    for diagnostic in warnings:
        print(diagnostic.render(), file=sys.stderr)


def run(args) -> int:
    import json

    from ..formula_files import write_atomically

    parser = build_parser()
    model = open_game(args, parser)
    report_warnings(model, args.strict)
    if args.json and not (args.output and args.output != "-"):
        parser.error("--json describes the file written: give -o OUT (the formula itself goes to standard output otherwise)")
    encoding = checked_encoding(model, args.encoding, parser)
    if args.output and args.output != "-":
        refuse_unwritable(args.output)  # before the compile: a folder for OUT, or a missing folder, says so at once
    formula = model.formula(encoding)
    fmt = output_format(args.output, args.format, formula, parser)
    if args.polarity and formula.circuit is None:
        parser.error(f"--polarity chooses the Tseitin transformation of a circuit; {formula.encoding} is built as clauses, with none: drop --polarity")
    text, sizes = formula.text(fmt, args.polarity)
    if args.output and args.output != "-":
        try:
            write_atomically(args.output, text)
        except OSError as exc:
            raise cannot_write(args.output, exc) from None
    else:
        sys.stdout.write(text)
    if args.json:
        print(json.dumps(compile_json(model, formula, fmt, sizes, args.output)))
    return EXIT_OK


def output_format(output: str | None, requested: str | None, formula, parser) -> str:
    """The format to write: --format, else OUT's suffix, else QCIR (QDIMACS for
    a formula built as clauses).  A suffix that names the other format than
    --format, or a format the encoding cannot write, is a usage error."""
    from pathlib import Path

    from ..formula_files import SUFFIXES

    suffix = SUFFIXES.get(Path(output).suffix.lower()) if output and output != "-" else None
    if requested and suffix and requested != suffix:
        parser.error(f"--format {requested} does not agree with {output}, whose suffix names {suffix}")
    fmt = requested or suffix or formula.formats[0]
    if fmt not in formula.formats:
        how = f"--format {fmt}" if requested else f"the suffix of {output}"
        parser.error(f"{formula.encoding} is built as clauses: it is written as QDIMACS only, not QCIR ({how}); "
                     "use --format qdimacs or an OUT ending in .qdimacs")
    return fmt


def compile_json(model, formula, fmt: str, sizes: dict, output: str | None) -> dict:
    from ..schema import SCHEMA_VERSION

    return {
        "schema": SCHEMA_VERSION,
        "command": "compile",
        "game": list(model.paths),
        "language": model.language,
        "depth": model.depth,
        "encoding": formula.encoding,
        "format": fmt,
        "output": output,
        **{key: sizes[key] for key in ("variables", "gates", "clauses", "blocks")},
    }
