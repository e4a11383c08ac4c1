"""Formula files: QCIR or QDIMACS text with a self-describing header, written atomically."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from circuits import numbering, to_qcir, to_qdimacs, write_qdimacs

FORMATS = ("qcir", "qdimacs")
SUFFIXES = {".qcir": "qcir", ".qdimacs": "qdimacs", ".cnf": "qdimacs", ".qdimac": "qdimacs"}


def format_for(path: str | None, requested: str | None) -> str:
    """`--format` wins; else the output file's suffix; else QCIR."""
    if requested:
        return requested
    if path:
        return SUFFIXES.get(Path(path).suffix.lower(), "qcir")
    return "qcir"


@dataclass(frozen=True)
class FormulaStats:
    variables: int  # quantified variables
    gates: int  # QCIR gates reachable from the output
    blocks: int  # quantifier blocks
    qdimacs_variables: int | None = None
    clauses: int | None = None


def circuit_stats(circuit) -> FormulaStats:
    n = numbering(circuit)
    return FormulaStats(n.num_inputs, len(n.gates), len(n.prefix))


def formula_text(circuit, fmt: str, description: list[str], polarity: bool = False) -> tuple[str, FormulaStats]:
    """The file text, starting with `description` and the formula's counts as comments."""
    stats = circuit_stats(circuit)
    counts = f"variables: {stats.variables}, gates: {stats.gates}, quantifier blocks: {stats.blocks}"
    if fmt == "qcir":
        return to_qcir(circuit, description + [counts]), stats
    if fmt == "qdimacs":
        import io

        q = to_qdimacs(circuit, polarity=polarity)
        stats = FormulaStats(stats.variables, stats.gates, stats.blocks, q.num_vars, q.num_clauses)
        buf = io.StringIO()
        tseitin = "Plaisted-Greenbaum" if polarity else "Tseitin"
        write_qdimacs(q, buf, description + [counts, f"{tseitin}: {q.num_vars} variables, {q.num_clauses} clauses"])
        return buf.getvalue(), stats
    raise ValueError(f"unknown format {fmt!r}")


def write_atomically(path: str | Path, text: str) -> None:
    """Write to a temporary file beside `path`, then rename: a failure never leaves a partial file.

    Raises OSError (with nothing left behind) when the folder is missing or
    unwritable, or `path` is a folder.  The temporary file is private while
    it is written; the finished file gets the mode any new file would get."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="ascii", newline="\n") as fh:
            fh.write(text)
            os.fchmod(fh.fileno(), _new_file_mode())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _new_file_mode() -> int:
    """0o666 less the umask: what open() would have given a new file (mkstemp gives 0o600)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
