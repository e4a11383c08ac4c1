"""Hypothesis strategies and solver helpers shared by the circuits tests.

Random circuits are generated valid by construction (no ``assume``): every
variable is quantified, blocks alternate, gates only use earlier literals.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from hypothesis import strategies as st

from circuits import FALSE, TRUE, Circuit, Qdimacs, evaluate

OPS = ("and", "or", "xor", "ite", "implies", "iff")


def _rarely(draw) -> bool:
    """True about one time in 16. (Not ``integers(...) == 0``: hypothesis favours the bounds.)"""
    return draw(st.integers(0, 15)) == 9


def _sometimes(draw) -> bool:
    """True about one time in 5."""
    return draw(st.integers(0, 15)) in (3, 6, 9)


def _literals(draw, pool: list[int], k: int) -> list[int]:
    """``k`` literals over distinct earlier nodes (while there are enough), either sign,
    now and then a constant. Mostly distinct so that gates do not all fold away."""
    n = min(k, len(pool))
    indices = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n, unique=True)) if pool else []
    lits = [pool[i] * draw(st.sampled_from((1, -1))) for i in indices]
    while len(lits) < k:
        lits.append(draw(st.sampled_from((TRUE, FALSE))))
    return [draw(st.sampled_from((TRUE, FALSE))) if _rarely(draw) else lit for lit in lits]


def _build_gate(draw, c: Circuit, pool: list[int]) -> int:
    op = draw(st.sampled_from(OPS))
    if op in ("and", "or"):
        # mostly 2 or 3 inputs; the bounds (hypothesis' favourites) are 2
        lits = _literals(draw, pool, draw(st.sampled_from((2, 3, 1, 3, 0, 2))))
        return c.and_(lits) if op == "and" else c.or_(lits)
    if op == "ite":
        return c.ite(*_literals(draw, pool, 3))
    return getattr(c, op)(*_literals(draw, pool, 2))


def _quantify(draw, c: Circuit, variables: list[int]) -> None:
    """Quantify all ``variables`` in a random order as a random alternating prefix."""
    order = draw(st.permutations(variables))
    if not order:
        return
    quant = draw(st.sampled_from(("exists", "forall")))
    block = [order[0]]
    for v in order[1:]:
        if draw(st.integers(0, 3)) in (1, 2):  # a new block half of the time
            getattr(c, quant)(block)
            quant = "forall" if quant == "exists" else "exists"
            block = []
        block.append(v)
    getattr(c, quant)(block)


@st.composite
def prenex_circuits(draw, max_vars: int = 7, max_gates: int = 10) -> Circuit:
    """A closed prenex circuit: ≤ max_vars variables, ≤ max_gates gate-building steps.

    Variables and gates are created interleaved (so internal ids mix the two,
    and the prefix order differs from creation order); gates draw literals of
    either sign, now and then a constant, from everything built so far; the
    output is mostly the last gate, negated or not, sometimes any literal.
    The tuning of the draws (see the helpers) keeps most examples non-trivial:
    with 200 derandomized examples about 55% have 3 or more gates under the
    output, and about 60% have two or more quantifier blocks.
    """
    c = Circuit()
    # 0 or 1 variables (everything folds to constants or literals) only rarely
    n_vars = draw(st.sampled_from((0, 1))) if _rarely(draw) else draw(st.integers(2, max_vars))
    n_gates = 0 if _rarely(draw) else draw(st.integers(1, max_gates))
    # Two variables come first (so that early gates have distinct inputs and
    # do not simply fold), the rest are interleaved with the gates.
    rest = ["var"] * max(n_vars - 2, 0) + ["gate"] * n_gates
    steps = ["var"] * min(n_vars, 2) + list(draw(st.permutations(rest)))
    pool: list[int] = []
    variables: list[int] = []
    for step in steps:
        if step == "var":
            v = c.var(f"x{len(variables)}")
            variables.append(v)
            pool.append(v)
        else:
            lit = _build_gate(draw, c, pool)
            # Folded results (constants, copies of earlier nodes) stay out of
            # the pool, or later gates would mostly fold too.
            if abs(lit) != TRUE and abs(lit) not in map(abs, pool):
                pool.append(lit)
    # Mostly the last gate built (the deepest), sometimes any literal.
    gates = [lit for lit in pool if c.is_gate(lit)]
    if gates and not _sometimes(draw):
        out = gates[-1] * draw(st.sampled_from((1, -1)))
    else:
        (out,) = _literals(draw, pool, 1)
    c.set_output(out)
    _quantify(draw, c, variables)
    return c


# ------------------------------------------------------------------ helpers


def bits_value(c: Circuit, bits: list[int], assignment: dict[int, bool]) -> int:
    """The unsigned integer a bit vector (LSB first) has under ``assignment``."""
    return sum(1 << i for i, b in enumerate(bits) if evaluate(c, assignment, b))


def assign_int(xs: list[int], value: int) -> dict[int, bool]:
    return {x: bool((value >> i) & 1) for i, x in enumerate(xs)}


def pcnf_of(q: Qdimacs):
    """Our QDIMACS data as a pyqbf PCNF (pyqbf imported here, never by circuits/)."""
    from pyqbf.formula import PCNF

    f = PCNF(from_clauses=[list(cl) for cl in q.clauses])
    for quant, vs in q.prefix:
        (f.exists if quant == "exists" else f.forall)(*vs)
    f.nv = q.num_vars
    return f


def depqbf_solve(q: Qdimacs) -> bool:
    """DepQBF in-process. NB: ``DepQBF().solve(f)``; ``DepQBF(f)`` would solve an empty problem."""
    from pyqbf.solvers import DepQBF

    return DepQBF().solve(pcnf_of(q))


def qute_program() -> str | None:
    """The real Qute ELF binary (10 ms a call), else the PATH wrapper (~250 ms), else None."""
    try:
        import pyqbf
    except ImportError:
        return shutil.which("pyqbf_qute")
    binary = Path(pyqbf.__file__).parents[4] / "bin" / "pyqbf_qute"
    if binary.is_file():
        return str(binary)
    return shutil.which("pyqbf_qute")


def run_qute(program: str, qcir_text: str, timeout: float = 20.0) -> bool:
    """Qute's verdict on a QCIR text (exit code 10 = true, 20 = false; anything else fails)."""
    with tempfile.NamedTemporaryFile("w", suffix=".qcir", delete=False) as fh:
        fh.write(qcir_text)
        path = fh.name
    try:
        proc = subprocess.run([program, path], capture_output=True, text=True, timeout=timeout)
    finally:
        Path(path).unlink()
    if proc.returncode not in (10, 20):
        raise AssertionError(f"qute exit {proc.returncode}: {proc.stdout}{proc.stderr}\n{qcir_text}")
    return proc.returncode == 10
