"""`bddlc GAME.pg [-o OUT]`: a positional game compiled by COR+ (default) or COR.

COR+ is CNF by construction and is written as QDIMACS only; COR is a circuit
of clauses and can be written as QCIR too.  The file opens with the same
kind of comment lines as a BDDL model's formula."""

from __future__ import annotations


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
