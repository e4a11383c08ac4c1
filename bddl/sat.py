"""The SAT solver bddlc asks (python-sat), imported without the part bddlc never uses.

`pysat.formula`, which `pysat.solvers` and `pysat.card` import, imports py-aiger-cnf when it is
installed (pyqbf installs it), only to read AIGER circuits into a CNF: 80-100 ms of a process's
start, a fifth of `bddlc check` on a 1000x1000 board, for a conversion bddlc never asks for (nor
does its use of pyqbf: PCNF and Bloqqer, not `from_aiger`).  So pysat is imported here once with
that package hidden (an ImportError to pysat, which then marks AIGER support absent), and every
SAT user in bddlc takes the solver from this module.  Where pysat was imported already, nothing is
hidden.  The hiding lasts only for this import: a later `import aiger_cnf` works as before.
"""

from __future__ import annotations

import sys


def _import_pysat_without_aiger() -> None:
    if "pysat.formula" in sys.modules or "aiger_cnf" in sys.modules:
        return
    sys.modules["aiger_cnf"] = None  # type: ignore[assignment]  # `import aiger_cnf` raises ImportError
    try:
        import pysat.formula  # noqa: F401
    finally:
        del sys.modules["aiger_cnf"]


_import_pysat_without_aiger()

from pysat.card import CardEnc, EncType  # noqa: E402
from pysat.formula import IDPool  # noqa: E402
from pysat.solvers import Solver  # noqa: E402

__all__ = ["CardEnc", "EncType", "IDPool", "Solver"]
