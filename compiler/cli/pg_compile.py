"""`bddlc GAME.pg [-o OUT]`: a positional game compiled by COR+ (default) or COR.

COR+ is CNF by construction and is written as QDIMACS only; COR is a circuit
of clauses and can be written as QCIR too.  The file opens with the same
kind of comment lines as a BDDL model's formula."""

from __future__ import annotations

import io
import sys

from .common import EXIT_OK, plies, version

PG_ENCODINGS = {"cor+": "cor+", "corplus": "cor+", "corrective": "corrective"}  # name -> the name results carry
PG_ENCODINGS.update({name: name for name in ("ea", "en", "et", "la", "ln", "sa", "sn")})  # IMPLICIT_ENCODINGS


def pg_encoding(requested: str | None, parser) -> str | None:
    """The positional encoding an --encoding names (usage error for a BDDL-only one)."""
    if requested is None:
        return None  # the game's default (compiler.solving.positional.default_encoding)
    if requested not in PG_ENCODINGS:
        parser.error(
            f"--encoding {requested} compiles BDDL models only; a .pg game takes cor+ (corplus), corrective,"
            " or for Maker-Breaker games ea, en, et, la, ln, sa, sn"
        )
    return PG_ENCODINGS[requested]


def describe(path: str, game, compiled) -> list[str]:
    first = {"black": "Black moves first", "white": "White moves first", None: "no moves"}[compiled.first_side]
    open_game = compiled.game
    return [
        f"bddlc {version()}, encoding: {compiled.name}",
        f"game: {path}",
        f"cells: {len(game.cells)} ({open_game.size} open), time points: {game.depth} "
        f"({open_game.depth} encoded), {first}",
        f"true iff Black wins within {plies(game.depth)}",
    ]


def run_pg(args, path: str, parser, cannot_write) -> int:
    """`cannot_write(path, exc)`: compile's diagnostic for an output it could not write."""
    from bddl.pg.reader import load_pg
    from circuits import write_qdimacs

    from ..formula_files import format_for, formula_text, write_atomically
    from ..solving.positional import encode_pg

    encoding = pg_encoding(args.encoding, parser)
    game = load_pg(path)
    if args.depth is not None:
        game = game.with_depth(args.depth)
    compiled = encode_pg(game, encoding)
    fmt = args.format or ("qdimacs" if compiled.circuit is None else format_for(args.output, None))
    description = describe(path, game, compiled)
    if compiled.circuit is not None:
        text, _ = formula_text(compiled.circuit, fmt, description, args.polarity)
    elif fmt != "qdimacs":
        parser.error("COR+ is written as clauses: use --format qdimacs (or an OUT ending in .qdimacs)")
    else:
        q = compiled.qdimacs()
        universals = sum(len(block) for quantifier, block in q.prefix if quantifier == "forall")
        buf = io.StringIO()
        counts = f"variables: {q.num_vars} ({universals} universal), clauses: {q.num_clauses}, quantifier blocks: {len(q.prefix)}"
        write_qdimacs(q, buf, description + [counts])
        text = buf.getvalue()
    if args.output and args.output != "-":
        try:
            write_atomically(args.output, text)
        except OSError as exc:
            raise cannot_write(args.output, exc) from None
    else:
        sys.stdout.write(text)
    return EXIT_OK
