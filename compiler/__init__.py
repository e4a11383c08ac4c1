"""The compiler: BDDL games to QBF, and everything built on that (solving, checking, playing).

`compiler` brings `bddl` (the language and its explicit semantics) and
`circuits` (formulas and file formats) together; neither of those imports it.
"""

__version__ = "0.1.0"

__all__ = ["DEFAULT_ENCODING", "ENCODINGS", "applicable_encodings", "encode", "__version__"]


def __getattr__(name: str):
    # Loaded on first use (PEP 562): `bddlc search` never needs the encodings.
    if name in ("DEFAULT_ENCODING", "ENCODINGS", "applicable_encodings", "encode"):
        from . import encodings

        return getattr(encodings, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
