"""Circuit -> prenex CNF (QDIMACS) by Tseitin or Plaisted–Greenbaum encoding.

Why it exists: most QBF solvers (DepQBF, CAQE, RAReQS, QFun) read only
QDIMACS. Each reachable gate gets a variable in the innermost existential
block; because those variables sit inside every other quantifier, their
values are fixed by the inputs and the encoding is equivalent to the circuit.

With ``polarity=True`` only the implication directions a gate actually needs
are emitted (Plaisted–Greenbaum). That is sound here because the gate
variables are innermost existentials: for every assignment of the inputs, the
remaining clauses are satisfiable exactly when the circuit is true, which is
all a QBF's value depends on. The needed directions are computed for every gate
from the output down (a gate under both polarities gets both), which is what
keeps a negated sub-formula correct; one-way encodings applied blindly are not
(docs/qbf-solvers.md §4).

Numbering is :mod:`circuits.numbering`'s, so variable ``i`` is the same input
or gate as id ``i`` in the QCIR file.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO

from .circuit import _AND, _OR, FALSE, TRUE, Circuit
from .numbering import numbering
from .qcir import _comment_lines

__all__ = ["Qdimacs", "to_qdimacs", "write_qdimacs", "to_qdimacs_text"]

_POS = 1
_NEG = 2


@dataclass(frozen=True)
class Qdimacs:
    """A closed prenex CNF: every clause variable is in ``prefix``; blocks alternate."""

    num_vars: int
    prefix: tuple[tuple[str, tuple[int, ...]], ...]
    clauses: tuple[tuple[int, ...], ...]

    @property
    def num_clauses(self) -> int:
        return len(self.clauses)


def _polarities(circuit: Circuit, gates: tuple[int, ...], output: int) -> dict[int, int]:
    """For each gate, which directions (_POS, _NEG or both) its definition is needed in.

    and/or are monotone, so a gate's polarity passes to its inputs unchanged
    through a positive literal and swapped through a negative one. Reverse
    creation order visits every gate after all of its users.
    """
    op_args = circuit._args
    pol = dict.fromkeys(gates, 0)
    root = output if output > 0 else -output
    if root in pol:
        pol[root] = _POS if output > 0 else _NEG
    swap = (0, _NEG, _POS, _POS | _NEG)
    for g in reversed(gates):
        p = pol[g]
        for a in op_args[g]:
            if a > 0:
                if a in pol:
                    pol[a] |= p
            elif -a in pol:
                pol[-a] |= swap[p]
    return pol


PLACEMENTS = ("innermost", "early")


def to_qdimacs(circuit: Circuit, polarity: bool = False, placement: str = "innermost") -> Qdimacs:
    """Encode the closed circuit as QDIMACS data (full Tseitin, or Plaisted–Greenbaum with ``polarity``).

    ``placement`` says where gate variables are quantified: all in the
    innermost existential block (the textbook form), or ``"early"``: each in
    the first existential block after every variable it depends on.  Both are
    sound, since a gate's value is a function of its inputs; early placement
    lets a search-based solver see a gate's value as soon as its inputs are
    decided, which is what explicit-board encodings rely on."""
    if placement not in PLACEMENTS:
        raise ValueError(f"unknown placement {placement!r}; choose from {', '.join(PLACEMENTS)}")
    num = numbering(circuit)
    table = num.table()
    op, args = circuit._op, circuit._args
    prefix = list(num.prefix)
    num_vars = num.max_id
    out = num.output
    clauses: list[tuple[int, ...]] = []

    if out == TRUE or out == FALSE:
        # Never an empty clause set and never an empty clause: pyqbf's DepQBF
        # aborts the whole process on a prefix with no clauses, and an empty
        # clause trips up some readers. A fresh innermost existential d gives
        # "d" (true) or "d and not d" (false).
        num_vars += 1
        d = num_vars
        if prefix and prefix[-1][0] == "exists":
            prefix[-1] = ("exists", prefix[-1][1] + (d,))
        else:
            prefix.append(("exists", (d,)))
        clauses = [(d,)] if out == TRUE else [(d,), (-d,)]
        return Qdimacs(num_vars, tuple(prefix), tuple(clauses))

    # lits[lit] is the file literal of an internal literal of either sign
    # (negative indices reach the mirrored second half of the list).
    lits = list(table)
    lits.extend([-fid for fid in reversed(table[1:])])
    get = lits.__getitem__
    add, extend = clauses.append, clauses.extend
    top, direct = _clausal_top(circuit, num, out)
    if top is not None:
        # The output is a conjunction: its conjuncts are asserted as they are
        # (a unit, or the clause of a disjunction of inputs), not through
        # gate variables, so a formula written as clauses stays those clauses.
        for a in sorted(args[top], key=lambda a: abs(lits[a])):  # in numbering order, however the gate lists them
            add(tuple(map(get, args[a])) if a in direct else (lits[a],))
    skipped = direct | ({top} if top is not None else set())
    if polarity:
        pol = _polarities(circuit, num.gates, out)
        for g in num.gates:
            if g in skipped:
                continue
            gid = lits[g]
            ins = tuple(map(get, args[g]))
            p = pol[g]
            if op[g] == _AND:
                if p & _POS:
                    extend([(-gid, a) for a in ins])
                if p & _NEG:
                    add((gid, *[-a for a in ins]))
            else:
                if p & _POS:
                    add((-gid, *ins))
                if p & _NEG:
                    extend([(gid, -a) for a in ins])
    else:
        for g in num.gates:
            if g in skipped:
                continue
            gid = lits[g]
            ins = args[g]
            if len(ins) == 2:  # the common case, unrolled
                a, b = lits[ins[0]], lits[ins[1]]
                if op[g] == _AND:
                    add((-gid, a))
                    add((-gid, b))
                    add((gid, -a, -b))
                else:
                    add((-gid, a, b))
                    add((gid, -a))
                    add((gid, -b))
                continue
            ins = tuple(map(get, ins))
            if op[g] == _AND:
                extend([(-gid, a) for a in ins])
                add((gid, *[-a for a in ins]))
            else:
                add((-gid, *ins))
                extend([(gid, -a) for a in ins])
    if top is None:
        add((num.lit(out),))

    if num.gates and placement == "early":
        prefix = _place_early(circuit, num, lits, prefix, {lits[g] for g in skipped})
    elif num.gates:
        unused = {lits[g] for g in skipped}
        gate_ids = tuple(v for v in range(num.num_inputs + 1, num_vars + 1) if v not in unused)
        if prefix and prefix[-1][0] == "exists":
            prefix[-1] = ("exists", prefix[-1][1] + gate_ids)
        elif gate_ids:
            prefix.append(("exists", gate_ids))
    return Qdimacs(num_vars, tuple(prefix), tuple(clauses))


def write_qdimacs(q: Qdimacs, fp: TextIO, comments: Iterable[str] = ()) -> None:
    """``c`` comment lines, ``p cnf``, the prefix (``e``/``a`` lines), then the clauses."""
    lines = _comment_lines(comments, "c")
    lines.append(f"p cnf {q.num_vars} {len(q.clauses)}")
    for quant, vs in q.prefix:
        lines.append(f"{'e' if quant == 'exists' else 'a'} {' '.join(map(str, vs))} 0")
    # One "%d %d ... 0" format per clause length present: %-formatting a
    # tuple is the fastest way CPython has to print a clause.
    formats = {k: "%d " * k + "0" for k in set(map(len, q.clauses))}
    lines.extend([formats[len(clause)] % tuple(clause) for clause in q.clauses])
    fp.write("\n".join(lines))
    fp.write("\n")


def to_qdimacs_text(q: Qdimacs | Circuit, comments: Iterable[str] = (), polarity: bool = False) -> str:
    """QDIMACS text for a :class:`Qdimacs`, or for a circuit (encoded first)."""
    if isinstance(q, Circuit):
        q = to_qdimacs(q, polarity=polarity)
    buf = io.StringIO()
    write_qdimacs(q, buf, comments)
    return buf.getvalue()


def _clausal_top(circuit: Circuit, num, out: int) -> tuple[int | None, set[int]]:
    """The output gate when it is a conjunction (else None), and those of its
    conjuncts that are disjunctions of inputs used nowhere else: their
    clauses can be written as they are, with no gate variable."""
    op, args = circuit._op, circuit._args
    if out <= 0 or op[out] != _AND:
        return None, set()
    users: dict[int, int] = {}
    for g in num.gates:
        for a in args[g]:
            a = a if a > 0 else -a
            users[a] = users.get(a, 0) + 1
    direct = {
        a
        for a in args[out]
        if a > 0 and op[a] == _OR and users[a] == 1 and not any(op[b if b > 0 else -b] >= _AND for b in args[a])
    }
    return out, direct


def _place_early(circuit: Circuit, num, lits: list[int], prefix: list, unused: frozenset[int] | set[int] = frozenset()) -> list:
    """Put every gate variable in the first existential block at or after the
    block of its latest input (see `to_qdimacs`); gates in `unused` (written
    as clauses, with no variable) are left out."""
    level = {}
    for index, (_quant, block) in enumerate(prefix):
        for v in block:
            level[v] = index
    if not prefix or prefix[-1][0] != "exists":
        prefix.append(("exists", ()))
    last = len(prefix) - 1
    target = [i if prefix[i][0] == "exists" else i + 1 for i in range(len(prefix))]
    extra: list[list[int]] = [[] for _ in prefix]
    args = circuit._args
    for g in num.gates:
        gid = lits[g]
        if gid in unused:
            continue
        deepest = 0
        for a in args[g]:
            fid = lits[a]
            fid = fid if fid > 0 else -fid
            d = level.get(fid, 0)
            if d > deepest:
                deepest = d
        block = min(target[deepest], last)
        level[gid] = block
        extra[block].append(gid)
    placed = [(quant, tuple(block) + tuple(extra[i])) for i, (quant, block) in enumerate(prefix)]
    return [entry for entry in placed if entry[1]]
