"""The circuit builder: a hash-consed, constant-folding and/or DAG with a quantifier prefix.

Why it exists: the encoding of a game describes the same sub-formula (a cell
being empty at a time step, a bit of a counter) many times over. Building every
gate through one unique table, with constants folded away as they appear,
makes the emitted QCIR/QDIMACS small without a separate optimisation pass, and
keeps the compiler's own code free of size bookkeeping.

Representation (chosen for speed; the compiler builds ~10^5 gates per compile):

* A literal is a signed int; ``-lit`` is its negation. Node id 1 is the
  constant true node, so ``TRUE == 1`` and ``FALSE == -1``.
* Node ids are allocated in creation order from 2; input variables and gates
  share the id space. Because a gate can only mention nodes that already
  exist, creation order is a topological order, which the writers rely on.
* Per node, two parallel lists hold the kind (``_op``) and the payload
  (``_args``: the variable's name, or the gate's tuple of input literals,
  deduplicated and sorted by node id). There is no per-gate object.
* The unique tables map that tuple to the gate id, one dict per kind, so a
  repeated gate costs one dict lookup; binary gates take a shortcut that
  skips building a set.
* ``or`` is a gate kind of its own rather than a negated ``and``: the QCIR
  writer then emits ``or`` exactly where the encoder wrote one, so the output
  reads like the formula in the paper. The price is that ``and_([a, b])`` and
  ``-or_([-a, -b])`` are two different gates, so an encoder should spell one
  sub-formula one way throughout (the unique table cannot merge the two).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import compress

TRUE = 1
FALSE = -1

# Node kinds stored in Circuit._op, kept as small ints so that the tables are compact.
_CONST = 0
_VAR = 1
_AND = 2
_OR = 3

EXISTS = "exists"
FORALL = "forall"


def neg(lit: int) -> int:
    """Negation of a literal (exists so that ``map(neg, lits)`` reads well)."""
    return -lit


class Circuit:
    """One formula under construction: input variables, gates, prefix, output.

    Every instance owns all of its state; two circuits never share tables.
    """

    __slots__ = ("_op", "_args", "_and_table", "_or_table", "_by_name", "_quant", "_blocks", "_output")

    def __init__(self) -> None:
        # Index 0 is unused (0 is not a literal); index 1 is the constant true node.
        self._op: list[int] = [_CONST, _CONST]
        self._args: list = [None, "true"]
        self._and_table: dict[tuple[int, ...], int] = {}
        self._or_table: dict[tuple[int, ...], int] = {}
        self._by_name: dict[str, int] = {}
        self._quant: dict[int, int] = {}  # variable id -> index of its block in _blocks
        self._blocks: list[tuple[str, list[int]]] = []
        self._output: int | None = None

    # ------------------------------------------------------------------ literals

    neg = staticmethod(neg)

    def _check_lit(self, lit: int) -> None:
        if type(lit) is not int or lit == 0 or abs(lit) >= len(self._op):
            raise ValueError(f"not a literal of this circuit: {lit!r}")

    def var(self, name: str) -> int:
        """A new input variable; names are unique so that files and reports can name it."""
        if not isinstance(name, str):
            raise TypeError(f"variable name must be a str, not {type(name).__name__}")
        if name in self._by_name:
            raise ValueError(f"duplicate variable name {name!r}")
        vid = len(self._op)
        self._op.append(_VAR)
        self._args.append(name)
        self._by_name[name] = vid
        return vid

    def variable(self, name: str) -> int:
        """The positive literal of the variable called ``name`` (KeyError if none)."""
        return self._by_name[name]

    def has_variable(self, name: str) -> bool:
        return name in self._by_name

    def name_of(self, lit: int) -> str:
        """Name of the node under ``lit`` (the sign is ignored): a variable's name, ``g<id>`` for a gate."""
        self._check_lit(lit)
        node = abs(lit)
        op = self._op[node]
        if op == _VAR or op == _CONST:
            return self._args[node]
        return f"g{node}"

    def is_var(self, lit: int) -> bool:
        return self._op[abs(lit)] == _VAR

    def is_gate(self, lit: int) -> bool:
        return self._op[abs(lit)] >= _AND

    # ----------------------------------------------------------------- gates

    def and_(self, lits: Iterable[int]) -> int:
        """Conjunction, folded and hash-consed (see the module docstring)."""
        if lits.__class__ is not tuple:
            lits = tuple(lits)
        if len(lits) == 2:
            # Fast path for the common binary gate: a table hit costs one lookup.
            a, b = lits
            key: tuple[int, ...] = (a, b) if (a if a > 0 else -a) < (b if b > 0 else -b) else (b, a)
            gid = self._and_table.get(key)
            if gid is not None:
                return gid
            if a == FALSE or b == FALSE or a == -b:
                return FALSE
            if a == TRUE or a == b:
                self._check_lit(b)
                return b
            if b == TRUE:
                self._check_lit(a)
                return a
            return self._new_gate(_AND, key, self._and_table)
        seen: set[int] = set()
        add = seen.add
        for lit in lits:
            if lit == TRUE:
                continue
            if lit == FALSE or -lit in seen:
                return FALSE
            add(lit)
        n = len(seen)
        if n == 0:
            return TRUE
        if n == 1:
            (only,) = seen
            self._check_lit(only)
            return only
        key = tuple(sorted(seen, key=abs))
        gid = self._and_table.get(key)
        if gid is None:
            gid = self._new_gate(_AND, key, self._and_table)
        return gid

    def or_(self, lits: Iterable[int]) -> int:
        """Disjunction, folded and hash-consed (dual of :meth:`and_`)."""
        if lits.__class__ is not tuple:
            lits = tuple(lits)
        if len(lits) == 2:
            a, b = lits
            key: tuple[int, ...] = (a, b) if (a if a > 0 else -a) < (b if b > 0 else -b) else (b, a)
            gid = self._or_table.get(key)
            if gid is not None:
                return gid
            if a == TRUE or b == TRUE or a == -b:
                return TRUE
            if a == FALSE or a == b:
                self._check_lit(b)
                return b
            if b == FALSE:
                self._check_lit(a)
                return a
            return self._new_gate(_OR, key, self._or_table)
        seen: set[int] = set()
        add = seen.add
        for lit in lits:
            if lit == FALSE:
                continue
            if lit == TRUE or -lit in seen:
                return TRUE
            add(lit)
        n = len(seen)
        if n == 0:
            return FALSE
        if n == 1:
            (only,) = seen
            self._check_lit(only)
            return only
        key = tuple(sorted(seen, key=abs))
        gid = self._or_table.get(key)
        if gid is None:
            gid = self._new_gate(_OR, key, self._or_table)
        return gid

    def and_flat(self, lits: Iterable[int]) -> int:
        """Conjunction with the and-gates among ``lits`` (positive literals)
        merged into it: ``and_flat([g, x])`` with ``g = and(a, b)`` is
        ``and(a, b, x)``.  Never more gates than :meth:`and_`, usually fewer
        (``g`` itself is dropped from the output when nothing else uses it)."""
        op, args = self._op, self._args
        flat: list[int] = []
        stack = list(lits)
        while stack:
            lit = stack.pop()
            if lit > 0 and op[lit] == _AND:
                stack.extend(args[lit])
            else:
                flat.append(lit)
        return self.and_(flat)

    def _new_gate(self, op: int, key: tuple[int, ...], table: dict) -> int:
        top = len(self._op)
        # key is sorted by node id, so its ends bound every literal.
        last = key[-1]
        if key[0] == 0 or last >= top or last <= -top:
            for lit in key:
                self._check_lit(lit)
        self._op.append(op)
        self._args.append(key)
        table[key] = top
        return top

    def implies(self, a: int, b: int) -> int:
        return self.or_((-a, b))

    def iff(self, a: int, b: int) -> int:
        """Equivalence. Canonicalised so that iff(a,b), iff(b,a), iff(-a,-b) and -iff(a,-b) share gates."""
        if a == b:
            return TRUE
        if a == -b:
            return FALSE
        if abs(a) == TRUE:
            return b if a == TRUE else -b
        if abs(b) == TRUE:
            return a if b == TRUE else -a
        if abs(a) > abs(b):
            a, b = b, a
        sign = 1
        if a < 0:
            a, b = -a, -b
        if b < 0:
            b, sign = -b, -1
        return sign * self.or_((self.and_((a, b)), self.and_((-a, -b))))

    equiv = iff

    def xor(self, a: int, b: int) -> int:
        return -self.iff(a, b)

    def ite(self, c: int, t: int, e: int) -> int:
        """If-then-else, with the trivial cases folded to and/or/iff."""
        if c == TRUE:
            return t
        if c == FALSE:
            return e
        if t == e:
            return t
        if t == -e:
            return self.iff(c, t)
        if t == c or t == TRUE:
            return self.or_((c, e))
        if t == -c or t == FALSE:
            return self.and_((-c, e))
        if e == c or e == FALSE:
            return self.and_((c, t))
        if e == -c or e == TRUE:
            return self.or_((-c, t))
        if c < 0:
            c, t, e = -c, e, t
        if t < 0:
            return -self.or_((self.and_((c, -t)), self.and_((-c, -e))))
        return self.or_((self.and_((c, t)), self.and_((-c, e))))

    # ------------------------------------------------------------ quantifiers

    def exists(self, variables: Iterable[int]) -> None:
        self._quantify(EXISTS, variables)

    def forall(self, variables: Iterable[int]) -> None:
        self._quantify(FORALL, variables)

    def _quantify(self, quant: str, variables: Iterable[int]) -> None:
        vs = list(variables)
        if not vs:
            return
        fresh: set[int] = set()
        for v in vs:
            if type(v) is not int or v <= 0 or v >= len(self._op) or self._op[v] != _VAR:
                raise ValueError(f"{v!r} is not a positive variable literal")
            if v in self._quant or v in fresh:
                raise ValueError(f"variable {self._args[v]!r} is quantified twice")
            fresh.add(v)
        if self._blocks and self._blocks[-1][0] == quant:
            block = self._blocks[-1][1]
        else:
            block = []
            self._blocks.append((quant, block))
        index = len(self._blocks) - 1
        for v in vs:
            self._quant[v] = index
        block.extend(vs)

    @property
    def prefix(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        return tuple((q, tuple(vs)) for q, vs in self._blocks)

    def quantifier_of(self, var: int) -> str | None:
        """``"exists"``/``"forall"``, or None for a variable not yet quantified."""
        index = self._quant.get(abs(var))
        return None if index is None else self._blocks[index][0]

    def is_quantified(self, var: int) -> bool:
        return abs(var) in self._quant

    # ---------------------------------------------------------------- output

    @property
    def output(self) -> int | None:
        return self._output

    def set_output(self, lit: int) -> None:
        self._check_lit(lit)
        self._output = lit

    # ----------------------------------------------------------------- sizes

    @property
    def num_nodes(self) -> int:
        """Largest internal id (variables, gates and the constant node)."""
        return len(self._op) - 1

    @property
    def num_vars(self) -> int:
        return len(self._by_name)

    @property
    def num_gates(self) -> int:
        """Gates ever created, reachable from the output or not."""
        return len(self._and_table) + len(self._or_table)

    def variables(self) -> list[int]:
        """All input variables, in creation order."""
        return list(self._by_name.values())

    def reachable(self, lit: int | None = None) -> list[int]:
        """Ids of all variables and gates under ``lit`` (default: the output), ascending.

        Ascending id order is creation order, hence topological (inputs first).
        """
        if lit is None:
            lit = self._output
            if lit is None:
                raise ValueError("the circuit has no output")
        else:
            self._check_lit(lit)
        root = abs(lit)
        if root == TRUE:
            return []
        args = self._args
        seen = bytearray(root + 1)
        seen[root] = 1
        stack = [root]
        pop, push = stack.pop, stack.append
        while stack:
            ins = args[pop()]
            if ins.__class__ is tuple:  # a gate (variables hold their name)
                for a in ins:
                    if a < 0:
                        a = -a
                    if not seen[a]:
                        seen[a] = 1
                        push(a)
        return list(compress(range(root + 1), seen))

    def reachable_gates(self, lit: int | None = None) -> list[int]:
        """Gate ids in the cone of ``lit`` (default: the output), in creation order."""
        op = self._op
        return [n for n in self.reachable(lit) if op[n] >= _AND]

    def free_variables(self, lit: int | None = None) -> list[int]:
        """Variables in the cone of ``lit`` (default: the output) that no block quantifies."""
        op, quant = self._op, self._quant
        return [n for n in self.reachable(lit) if op[n] == _VAR and n not in quant]

    def __repr__(self) -> str:
        return (
            f"<Circuit vars={self.num_vars} gates={self.num_gates} "
            f"blocks={len(self._blocks)} output={self._output}>"
        )
