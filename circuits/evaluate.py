"""Reference semantics for circuits and QDIMACS, by plain evaluation and expansion.

Why it exists: it is the oracle the tests compare everything else against
(arithmetic against Python integers, the Tseitin pass against the circuit,
QBF solvers against both). It is written for obviousness, not speed, and is
meant for tiny formulas only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from .circuit import _AND, _VAR, TRUE, Circuit

if TYPE_CHECKING:  # the evaluator is imported with the package; Tseitin need not be
    from .tseitin import Qdimacs

__all__ = ["evaluate", "qbf_value", "qdimacs_value"]

#: refuse expansions bigger than this many quantified variables (2^n leaves)
MAX_EXPANSION_VARS = 20


def _cone_values(circuit: Circuit, assignment: Mapping[int, bool], cone: list[int]) -> dict[int, bool]:
    op, args = circuit._op, circuit._args
    values: dict[int, bool] = {TRUE: True}
    for node in cone:  # ascending ids: inputs before the gates that use them
        if op[node] == _VAR:
            try:
                values[node] = bool(assignment[node])
            except KeyError:
                raise ValueError(f"variable {circuit.name_of(node)!r} is not assigned") from None
        else:
            ins = [values[a] if a > 0 else not values[-a] for a in args[node]]
            values[node] = all(ins) if op[node] == _AND else any(ins)
    return values


def evaluate(circuit: Circuit, assignment: Mapping[int, bool], lit: int | None = None) -> bool:
    """Value of ``lit`` (default: the output) with the inputs set by ``assignment`` (var id -> bool)."""
    if lit is None:
        lit = circuit.output
        if lit is None:
            raise ValueError("the circuit has no output")
    values = _cone_values(circuit, assignment, circuit.reachable(lit))
    value = values[abs(lit)]
    return value if lit > 0 else not value


def qbf_value(circuit: Circuit) -> bool:
    """The closed QBF's value, by expanding the prefix over the output's cone.

    Quantified variables outside the cone cannot change the value and are
    skipped. ValueError if a variable under the output is unquantified.
    """
    out = circuit.output
    if out is None:
        raise ValueError("the circuit has no output")
    cone = circuit.reachable(out)
    used = {n for n in cone if circuit.is_var(n)}
    free = [n for n in cone if n in used and not circuit.is_quantified(n)]
    if free:
        raise ValueError(f"free variables under the output: {[circuit.name_of(v) for v in free]}")
    order = [(v, q == "exists") for q, block in circuit.prefix for v in block if v in used]
    if len(order) > MAX_EXPANSION_VARS:
        raise ValueError(f"{len(order)} quantified variables are too many to expand")
    assignment: dict[int, bool] = {}

    def expand(i: int) -> bool:
        if i == len(order):
            return evaluate(circuit, assignment, out)
        v, existential = order[i]
        for value in (False, True):
            assignment[v] = value
            r = expand(i + 1)
            if r == existential:  # short-circuit: any() for exists, all() for forall
                del assignment[v]
                return r
        del assignment[v]
        return not existential

    return expand(0)


def qdimacs_value(q: Qdimacs) -> bool:
    """The value of a small closed QDIMACS formula, by search over the prefix.

    Clauses are checked under every partial assignment (a falsified clause or a
    fully satisfied clause set decides early), and the innermost existential
    block is solved as plain SAT with unit propagation, so the Tseitin
    variables of a small circuit do not blow up the search. Unlike the QDIMACS
    convention (free variables are outermost existentials) a variable missing
    from the prefix raises ValueError: our writers must never produce one.
    """
    order: list[tuple[int, bool]] = []
    seen: set[int] = set()
    for quant, vs in q.prefix:
        if quant not in ("exists", "forall"):
            raise ValueError(f"bad quantifier {quant!r}")
        for v in vs:
            if v <= 0 or v > q.num_vars or v in seen:
                raise ValueError(f"bad or repeated prefix variable {v}")
            seen.add(v)
            order.append((v, quant == "exists"))
    for clause in q.clauses:
        for lit in clause:
            if abs(lit) not in seen:
                raise ValueError(f"clause variable {abs(lit)} is not in the prefix")
    clauses = [tuple(c) for c in q.clauses]
    value: list[bool | None] = [None] * (q.num_vars + 1)
    # order[sat_from:] is the innermost run of existentials: plain SAT.
    sat_from = len(order)
    while sat_from > 0 and order[sat_from - 1][1]:
        sat_from -= 1
    sat_vars = [v for v, _ in order[sat_from:]]

    def status() -> bool | None:
        """False if a clause is falsified, True if all are satisfied, else None."""
        undecided = False
        for clause in clauses:
            open_ = False
            for lit in clause:
                val = value[abs(lit)]
                if val is None:
                    open_ = True
                elif val == (lit > 0):
                    break
            else:
                if not open_:
                    return False
                undecided = True
        return None if undecided else True

    def sat() -> bool:
        trail: list[int] = []

        def undo() -> None:
            for v in trail:
                value[v] = None

        changed = True
        while changed:  # unit propagation
            changed = False
            for clause in clauses:
                unit = 0
                count = 0
                for lit in clause:
                    val = value[abs(lit)]
                    if val is None:
                        count += 1
                        unit = lit
                    elif val == (lit > 0):
                        break
                else:
                    if count == 0:
                        undo()
                        return False
                    if count == 1:
                        value[abs(unit)] = unit > 0
                        trail.append(abs(unit))
                        changed = True
        st = status()
        if st is not None:
            undo()
            return st
        v = next(v for v in sat_vars if value[v] is None)
        for choice in (True, False):
            value[v] = choice
            if sat():
                value[v] = None
                undo()
                return True
        value[v] = None
        undo()
        return False

    def search(i: int) -> bool:
        st = status()
        if st is not None:
            return st
        if i >= sat_from:
            return sat()
        v, existential = order[i]
        for choice in (False, True):
            value[v] = choice
            r = search(i + 1)
            if r == existential:
                value[v] = None
                return r
        value[v] = None
        return not existential

    return search(0)
