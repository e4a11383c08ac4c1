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
* :mod:`circuits.evaluate` — reference semantics for tests (tiny formulas only).
"""

from .arith import add, add_const, const_bits, equals, equals_const, less_than, less_than_const, sub_const
from .circuit import EXISTS, FALSE, FORALL, TRUE, Circuit, neg
from .evaluate import evaluate, qbf_value, qdimacs_value
from .numbering import Numbering, numbering
from .qcir import read_qcir, to_qcir, write_qcir
from .tseitin import Qdimacs, to_qdimacs, to_qdimacs_text, write_qdimacs

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
    "evaluate",
    "qbf_value",
    "qdimacs_value",
]
