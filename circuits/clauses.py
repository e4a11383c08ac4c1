"""Clauses written directly, for the encodings the literature gives as QDIMACS.

Why this module exists: most formulas are built as circuits (`circuits.circuit`)
and reach QDIMACS through Tseitin, but some encodings are published as clauses
with their variables numbered in prefix order (the explicit-board encodings EA,
EN and ET of the positional-games paper, `compiler.encodings.explicit_board`:
785k clauses on a 19x19 board at depth 361), and building a circuit only to
translate it back would cost time and change the numbering.  `ClauseBuilder`
collects such a formula and `ClausalFormula` holds it: the `Qdimacs` to write,
the variables' names, and the same formula as a circuit (an and of ors) for
QCIR and the circuit solvers.

A clause-building tool for any encoding, not one encoding's: it knows nothing
of games, like the rest of the package.
"""

from __future__ import annotations

from dataclasses import dataclass

from .circuit import Circuit
from .tseitin import Qdimacs


class ClauseBuilder:
    """Clauses over quantified variables, numbered 1.. in prefix order, for
    the encodings the paper writes as QDIMACS.  The literal 0 stands for
    false and is left out of a clause."""

    def __init__(self) -> None:
        self.names: list[str] = [""]
        self.blocks: list[tuple[str, list[int]]] = []
        self.clauses: list[tuple[int, ...]] = []

    def var(self, name: str) -> int:
        self.names.append(name)
        return len(self.names) - 1

    def _quantify(self, quantifier: str, variables) -> None:
        variables = list(variables)
        if not variables:
            return
        if self.blocks and self.blocks[-1][0] == quantifier:
            self.blocks[-1][1].extend(variables)
        else:
            self.blocks.append((quantifier, variables))

    def exists(self, variables) -> None:
        self._quantify("exists", variables)

    def forall(self, variables) -> None:
        self._quantify("forall", variables)

    def add(self, *lits: int) -> None:
        self.clauses.append(tuple(lit for lit in lits if lit))

    def formula(self) -> ClausalFormula:
        return ClausalFormula(
            Qdimacs(len(self.names) - 1, tuple((q, tuple(vs)) for q, vs in self.blocks), tuple(self.clauses)),
            tuple(self.names[1:]),
        )


@dataclass(frozen=True)
class ClausalFormula:
    qdimacs: Qdimacs
    names: tuple[str, ...]  # names[i - 1]: the name of variable i

    def circuit(self) -> Circuit:
        """The same formula as a circuit (an and of ors), for QCIR and the circuit solvers."""
        c = Circuit()
        ids = [0] + [c.var(name) for name in self.names]
        for quantifier, block in self.qdimacs.prefix:
            (c.exists if quantifier == "exists" else c.forall)([ids[v] for v in block])
        c.set_output(
            c.and_([c.or_([ids[lit] if lit > 0 else -ids[-lit] for lit in clause]) for clause in self.qdimacs.clauses])
        )
        return c
