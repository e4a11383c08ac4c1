"""circuits: Boolean circuits with a quantifier prefix, and their QBF file formats.

Why this package exists: the BDDL compiler describes a game as one large
quantified Boolean formula. Building it as a hash-consed, constant-folding
and/or circuit keeps the formula small without a separate optimisation pass,
and writing it out is then a matter of numbering nodes: QCIR-G14 for
circuit solvers (Qute), and QDIMACS via Tseitin for CNF solvers (DepQBF, CAQE,
RAReQS), both with the same variable numbers so answers can be read back.

The package stands alone: it imports nothing from ``bddl`` or ``compiler``
and nothing beyond the standard library, so it loads fast and can be tested
and reused on its own. Modules:

* :mod:`circuits.circuit`  — the builder (literals are signed ints, TRUE/FALSE);
* :mod:`circuits.arith`    — bit-vector add/subtract/compare on literals;
* :mod:`circuits.numbering` — the file numbering shared by both writers;
* :mod:`circuits.qcir`     — QCIR-G14 writer (safe subset) and tolerant reader;
* :mod:`circuits.tseitin`  — QDIMACS by Tseitin or Plaisted–Greenbaum;
* :mod:`circuits.clauses`  — clauses written directly, numbered in prefix order
  (for the encodings published as QDIMACS), and the same formula as a circuit;
* :mod:`circuits.evaluate` — reference semantics for tests (tiny formulas only).
"""

import importlib

# name -> the module that defines it.  Loaded on first use (PEP 562), so a
# command imports only the modules it needs: start-up is most of a compile.
_EXPORTS = {
    "add": "arith",
    "add_const": "arith",
    "const_bits": "arith",
    "equals": "arith",
    "equals_const": "arith",
    "less_than": "arith",
    "less_than_const": "arith",
    "sub_const": "arith",
    "ClausalFormula": "clauses",
    "ClauseBuilder": "clauses",
    "EXISTS": "circuit",
    "FALSE": "circuit",
    "FORALL": "circuit",
    "TRUE": "circuit",
    "Circuit": "circuit",
    "neg": "circuit",
    "evaluate": "evaluate",
    "qbf_value": "evaluate",
    "qdimacs_value": "evaluate",
    "Numbering": "numbering",
    "numbering": "numbering",
    "read_qcir": "qcir",
    "to_qcir": "qcir",
    "write_qcir": "qcir",
    "Qdimacs": "tseitin",
    "to_qdimacs": "tseitin",
    "to_qdimacs_text": "tseitin",
    "write_qdimacs": "tseitin",
}


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)


# Functions named like their own module are bound eagerly: once the module
# is imported the package attribute would otherwise be the module.
from .evaluate import evaluate  # noqa: E402 (see above)
from .numbering import numbering  # noqa: E402

__all__ = [
    "Circuit",
    "TRUE",
    "FALSE",
    "EXISTS",
    "FORALL",
    "neg",
    "const_bits",
    "add_const",
    "add",
    "sub_const",
    "less_than_const",
    "less_than",
    "equals",
    "equals_const",
    "numbering",
    "Numbering",
    "to_qcir",
    "write_qcir",
    "read_qcir",
    "to_qdimacs",
    "write_qdimacs",
    "to_qdimacs_text",
    "Qdimacs",
    "ClauseBuilder",
    "ClausalFormula",
    "evaluate",
    "qbf_value",
    "qdimacs_value",
]
