"""One row per measurement, and the CSV that holds them.

A row is one instance under one configuration (or, for compile-only
instances, under one encoding and CNF translation).  The compile figures are
measured once per instance and encoding and repeated on each of its rows, so
the CSV can be read without joins.  The report and the plots are computed
from the CSV alone, so a results folder can be reported on later or
elsewhere.
"""

from __future__ import annotations

import csv
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, TextIO

# statuses
SOLVED = "solved"  # the solver (or the preprocessor) gave a verdict
TIMEOUT = "timeout"  # killed at the time limit: no verdict
ERROR = "error"  # the solver ended without a verdict, or a step failed
UNAVAILABLE = "unavailable"  # the configuration cannot run here (e.g. no Bloqqer module)
COMPILE_ERROR = "compile-error"  # the instance did not compile
COMPILED = "compiled"  # compile-only instance: nothing to solve
LOST = "lost"  # the Dask worker running it died, again and again: not measured (a re-run tries again)

# checks of a verdict against the expected answer
CORRECT = "correct"
WRONG = "WRONG"
UNCHECKED = "unchecked"  # nobody knows the answer


@dataclass(frozen=True)
class Row:
    set: str
    instance: str
    width: int | None
    height: int | None
    depth: int | None
    expected: bool | None
    encoding: str
    tseitin: str
    solver: str
    preprocess: str
    compile_process_s: float | None
    compile_peak_mb: float | None
    compile_inprocess_s: float | None
    qcir_vars: int | None
    qcir_gates: int | None
    qcir_blocks: int | None
    qcir_bytes: int | None
    tseitin_s: float | None
    qdimacs_vars: int | None
    qdimacs_clauses: int | None
    qdimacs_bytes: int | None
    status: str
    verdict: bool | None
    solve_s: float | None
    check: str
    note: str
    # where it was measured (honest timing): the worker (host:pid; this process
    # for a serial run) and the solve tasks its machine ran side by side
    worker: str = ""
    tasks_at_once: int | None = None

    @property
    def config(self) -> str:
        """The configuration's name (ENCODING/TSEITIN/SOLVER/PREPROCESS; compile-only rows: ENCODING/TSEITIN)."""
        parts = [self.encoding, self.tseitin] + ([self.solver, self.preprocess] if self.solver else [])
        return "/".join(parts)


FIELDS = tuple(f.name for f in dataclasses.fields(Row))
_KINDS = {f.name: f.type for f in dataclasses.fields(Row)}
_FLOAT_DIGITS = {"compile_peak_mb": 1}


def _format(name: str, value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.{_FLOAT_DIGITS.get(name, 4)}f}"
    return str(value)


def _parse(name: str, text: str):
    kind = _KINDS[name]
    if kind == "str":
        return text
    if text == "":
        return None
    if kind == "bool | None":
        if text not in ("true", "false"):
            raise ValueError(f"column {name}: expected true or false, got {text!r}")
        return text == "true"
    if kind == "int | None":
        return int(text)
    if kind == "float | None":
        return float(text)
    raise AssertionError(f"no parser for column {name} ({kind})")


def write_csv(rows: Iterable[Row], fp: TextIO) -> None:
    writer = csv.writer(fp, lineterminator="\n")
    writer.writerow(FIELDS)
    for row in rows:
        writer.writerow([_format(name, getattr(row, name)) for name in FIELDS])


# results written before the harness recorded where rows were measured
_OLD_FIELDS = FIELDS[: FIELDS.index("worker")]


def read_csv(fp: TextIO) -> list[Row]:
    reader = csv.reader(fp)
    header = next(reader, None)
    if header is None or tuple(header) not in (FIELDS, _OLD_FIELDS):
        raise ValueError(f"not a bench results CSV: the header is not {','.join(FIELDS)}")
    rows = []
    for number, values in enumerate(reader, start=2):
        if len(values) != len(header):
            raise ValueError(f"line {number}: {len(values)} columns, expected {len(header)}")
        rows.append(Row(**{name: _parse(name, text) for name, text in zip(header, values)}))
    return rows


def save(rows: Iterable[Row], path: Path) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fp:
        write_csv(rows, fp)


def load(path: Path) -> list[Row]:
    with open(path, encoding="utf-8", newline="") as fp:
        return read_csv(fp)
