"""Deciding compiled formulas in tests, through the real solver programs (with a time limit)."""

from __future__ import annotations

from circuits import to_qcir, to_qdimacs, write_qdimacs
from compiler.solving.qbf.solver_programs import run_solver_on_text

TIME_LIMIT = 60.0


def qdimacs_text(circuit, polarity: bool = False) -> str:
    import io

    buf = io.StringIO()
    write_qdimacs(to_qdimacs(circuit, polarity=polarity), buf)
    return buf.getvalue()


def verdict(run) -> bool:
    assert run.status == "solved", f"{run.solver} gave no verdict ({run.status}, {run.seconds:.1f} s):\n{run.output[-2000:]}"
    return run.verdict


def depqbf(circuit, polarity: bool = False, timeout: float = TIME_LIMIT) -> bool:
    """DepQBF's answer on the Tseitin (or Plaisted-Greenbaum) QDIMACS of the circuit."""
    return verdict(run_solver_on_text("depqbf", qdimacs_text(circuit, polarity), ".qdimacs", timeout, model=False))


def qute(circuit, timeout: float = TIME_LIMIT) -> bool:
    """Qute's answer on our QCIR text: an outside reader of the format."""
    return verdict(run_solver_on_text("qute", to_qcir(circuit), ".qcir", timeout, model=False))
