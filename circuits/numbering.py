"""The one numbering shared by the QCIR and QDIMACS writers.

Why it exists: the compiler reads solver answers (a first move, a model) back
by variable number, and QDIMACS tools are sometimes run on a file that was
meant for a QCIR solver. Both only work if variable ``i`` means the same thing
in both files, so the rule lives in one place:

* file ids ``1..n`` are the quantified variables, in prefix order;
* file ids ``n+1..n+m`` are the gates reachable from the output, in creation
  order (a topological order, so every gate is defined before it is used).

Unreachable gates and quantified-but-unused variables cost nothing in this
scheme: the former are dropped, the latter keep their place in the prefix.
"""

from __future__ import annotations

from .circuit import _VAR, TRUE, Circuit


class Numbering:
    """Internal node ids -> file ids for one circuit (see the module docstring)."""

    __slots__ = ("_map", "inputs", "gates", "prefix", "output", "names")

    def __init__(self, circuit: Circuit) -> None:
        output = circuit.output
        if output is None:
            raise ValueError("the circuit has no output")
        table = [0] * (circuit.num_nodes + 1)
        inputs: list[int] = []
        prefix: list[tuple[str, tuple[int, ...]]] = []
        for quant, block in circuit.prefix:
            ids = []
            for v in block:
                inputs.append(v)
                table[v] = len(inputs)
                ids.append(len(inputs))
            prefix.append((quant, tuple(ids)))
        op = circuit._op
        cone = circuit.reachable(output)
        free = [v for v in cone if op[v] == _VAR and not table[v]]
        if free:
            shown = ", ".join(repr(circuit.name_of(v)) for v in free[:5])
            more = f" and {len(free) - 5} more" if len(free) > 5 else ""
            raise ValueError(f"free (unquantified) variables under the output: {shown}{more}")
        gates = [g for g in cone if op[g] != _VAR]
        next_id = len(inputs)
        for g in gates:
            next_id += 1
            table[g] = next_id
        self._map = table
        #: internal variable ids, file id ``i + 1`` for ``inputs[i]``
        self.inputs: tuple[int, ...] = tuple(inputs)
        #: internal gate ids, file id ``len(inputs) + i + 1`` for ``gates[i]``
        self.gates: tuple[int, ...] = tuple(gates)
        #: the prefix in file ids
        self.prefix: tuple[tuple[str, tuple[int, ...]], ...] = tuple(prefix)
        #: the circuit's output as an internal literal (may be TRUE/FALSE)
        self.output: int = output
        #: variable name -> file id, in file order
        self.names: dict[str, int] = {circuit.name_of(v): i for i, v in enumerate(inputs, 1)}

    @property
    def num_inputs(self) -> int:
        return len(self.inputs)

    @property
    def max_id(self) -> int:
        """Largest file id of a variable or reachable gate (no writer-added gates)."""
        return len(self.inputs) + len(self.gates)

    def lit(self, lit: int) -> int:
        """The file literal for an internal literal (ValueError if it has no file id)."""
        node = lit if lit > 0 else -lit
        fid = self._map[node] if node < len(self._map) and node != TRUE else 0
        if not fid:
            raise ValueError(f"literal {lit} has no file id (a constant, unreachable or unquantified)")
        return fid if lit > 0 else -fid

    def table(self) -> list[int]:
        """Internal node id -> file id (0 = none) as a list; for writers that map many literals."""
        return self._map


def numbering(circuit: Circuit) -> Numbering:
    """Number a closed circuit for output; ValueError on free variables or a missing output."""
    return Numbering(circuit)
