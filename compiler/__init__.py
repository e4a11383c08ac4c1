"""The compiler: BDDL games to QBF, and everything built on that (solving, checking, playing).

`compiler` brings `bddl` (the language and its explicit semantics) and
`circuits` (formulas and file formats) together; neither of those imports it.
"""

from .encodings import DEFAULT_ENCODING, ENCODINGS, encode

__all__ = ["DEFAULT_ENCODING", "ENCODINGS", "encode"]
