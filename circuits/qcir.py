"""QCIR-G14 writer and reader.

Why the writer is so narrow: the solvers we can reach disagree on QCIR. Qute
(the only QCIR solver installed here) rejects ``output(-g)``, crashes when the
output is a variable, and gives wrong answers when a gate mentions one variable
twice; QuAbS takes numeric ids and and/or gates only. So the writer emits only
the subset every reader handles (docs/qbf-solvers.md §2):

* ``#QCIR-G14 <max id>``, then ``# <comment>`` lines, then alternating
  non-empty ``exists(...)``/``forall(...)`` blocks, ``output(<gate id>)`` and
  ``<id> = and(...)``/``<id> = or(...)`` lines;
* numeric ids from :mod:`circuits.numbering` (the same as in QDIMACS);
* a positive gate as output (a one-input ``and`` wraps anything else; a
  constant output becomes ``v or not v`` / ``v and not v`` over a quantified
  variable, adding a dummy existential one if the prefix is empty);
* no id twice in a gate (guaranteed by the builder's folding), single spaces
  after commas, LF line endings, no blank lines.

The reader is deliberately more tolerant than the writer (names, ``#QCIR-14``,
blank lines, ``free``, xor/ite, ``output(-g)``) so that files from other tools
and hand-written test cases load too.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from typing import TextIO

from .circuit import _AND, FALSE, TRUE, Circuit
from .numbering import Numbering, numbering

__all__ = ["write_qcir", "to_qcir", "read_qcir", "numbering", "Numbering"]


def _comment_lines(comments: Iterable[str], lead: str) -> list[str]:
    lines = []
    for comment in comments:
        for line in str(comment).splitlines() or [""]:
            lines.append(f"{lead} {line}".rstrip() if line else lead)
    return lines


def qcir_lines(circuit: Circuit, comments: Iterable[str] = ()) -> list[str]:
    """The lines of the QCIR text, without line ends (``write_qcir`` joins them)."""
    num = numbering(circuit)
    table = num.table()
    op, args = circuit._op, circuit._args
    # strs[lit] is the file text of an internal literal of either sign (a
    # negative index reaches the second half), so a gate's input list is
    # formatted by map() without a Python-level loop per literal.
    strs = [str(fid) for fid in table]
    strs.extend([f"-{fid}" for fid in reversed(table[1:])])
    get = strs.__getitem__

    gate_lines: list[str] = []
    append = gate_lines.append
    for g in num.gates:
        if op[g] == _AND:
            append(f"{strs[g]} = and({', '.join(map(get, args[g]))})")
        else:
            append(f"{strs[g]} = or({', '.join(map(get, args[g]))})")

    prefix = num.prefix
    top = num.max_id
    out = num.output
    if out == TRUE or out == FALSE:
        if not prefix:
            prefix = (("exists", (1,)),)
            top = 1
        # Never "v, -v" in one gate (Qute mis-answers it): go through a copy of v.
        copy, result = top + 1, top + 2
        gate_lines.append(f"{copy} = and(1)")
        gate_lines.append(f"{result} = {'or' if out == TRUE else 'and'}(1, -{copy})")
        out_id = top = result
    else:
        fid = num.lit(out)
        if fid > 0 and fid > num.num_inputs:
            out_id = fid
        else:
            out_id = top = top + 1
            gate_lines.append(f"{out_id} = and({fid})")

    lines = [f"#QCIR-G14 {top}"]
    lines.extend(_comment_lines(comments, "#"))
    lines.extend(f"{quant}({', '.join(map(str, ids))})" for quant, ids in prefix)
    lines.append(f"output({out_id})")
    lines.extend(gate_lines)
    return lines


def write_qcir(circuit: Circuit, fp: TextIO, comments: Iterable[str] = ()) -> None:
    """Write the closed circuit as QCIR-G14 (see the module docstring for the exact form)."""
    fp.write("\n".join(qcir_lines(circuit, comments)))
    fp.write("\n")


def to_qcir(circuit: Circuit, comments: Iterable[str] = ()) -> str:
    buf = io.StringIO()
    write_qcir(circuit, buf, comments)
    return buf.getvalue()


# --------------------------------------------------------------------- reader

_HEADER = re.compile(r"#\s*QCIR-(?:G)?14(?:\s+(\S+))?\s*$", re.IGNORECASE)
_CALL = re.compile(r"([A-Za-z]+)\s*\((.*)\)$", re.DOTALL)
_GATE = re.compile(r"([A-Za-z0-9_]+)\s*=\s*([A-Za-z]+)\s*\((.*)\)$", re.DOTALL)
_NAME = re.compile(r"[A-Za-z0-9_]+")


class _Reader:
    """State of one ``read_qcir`` call (kept off the module so calls never share state)."""

    def __init__(self) -> None:
        self.circuit = Circuit()
        self.gates: dict[str, int] = {}
        self.seen_gate_or_output = False
        self.seen_block = False
        self.output: tuple[int, str] | None = None  # (line number, literal text)

    def fail(self, lineno: int, message: str) -> ValueError:
        return ValueError(f"line {lineno}: {message}")

    def names(self, lineno: int, text: str) -> list[str]:
        text = text.strip()
        if not text:
            return []
        names = [part.strip() for part in text.split(",")]
        for name in names:
            if not _NAME.fullmatch(name):
                raise self.fail(lineno, f"bad variable name {name!r}")
        return names

    def lit(self, lineno: int, text: str) -> int:
        text = text.strip()
        sign = 1
        if text.startswith("-"):
            sign, text = -1, text[1:].strip()
        # Known names first: the name check is only needed to word the error.
        lit = self.gates.get(text)
        if lit is not None:
            return sign * lit
        if self.circuit.has_variable(text):
            return sign * self.circuit.variable(text)
        if not _NAME.fullmatch(text):
            raise self.fail(lineno, f"bad literal {text!r}")
        raise self.fail(lineno, f"undeclared variable or gate {text!r}")

    def lits(self, lineno: int, text: str) -> list[int]:
        text = text.strip()
        return [self.lit(lineno, part) for part in text.split(",")] if text else []

    def block(self, lineno: int, keyword: str, body: str) -> None:
        if self.seen_gate_or_output:
            raise self.fail(lineno, f"{keyword}(...) after the output or a gate")
        if keyword == "free" and self.seen_block:
            raise self.fail(lineno, "free(...) must come before every quantifier block")
        self.seen_block = True
        c = self.circuit
        vs = []
        for name in self.names(lineno, body):
            if c.has_variable(name):
                raise self.fail(lineno, f"variable {name!r} is quantified twice")
            vs.append(c.var(name))
        if keyword == "forall":
            c.forall(vs)
        else:
            c.exists(vs)

    def gate(self, lineno: int, name: str, kind: str, body: str) -> None:
        c = self.circuit
        if name in self.gates:
            raise self.fail(lineno, f"gate {name!r} is defined twice")
        if c.has_variable(name):
            raise self.fail(lineno, f"gate {name!r} has the name of a variable")
        if kind in ("exists", "forall"):
            raise self.fail(lineno, "quantifier gates (non-prenex QCIR) are not supported")
        lits = self.lits(lineno, body)
        if kind == "and":
            lit = c.and_(lits)
        elif kind == "or":
            lit = c.or_(lits)
        elif kind == "xor":
            if len(lits) != 2:
                raise self.fail(lineno, f"xor takes 2 inputs, not {len(lits)}")
            lit = c.xor(*lits)
        elif kind == "ite":
            if len(lits) != 3:
                raise self.fail(lineno, f"ite takes 3 inputs, not {len(lits)}")
            lit = c.ite(*lits)
        else:
            raise self.fail(lineno, f"unknown gate type {kind!r}")
        self.gates[name] = lit

    def line(self, lineno: int, line: str) -> None:
        m = _GATE.fullmatch(line)
        if m:
            self.seen_gate_or_output = True
            self.gate(lineno, m.group(1), m.group(2).lower(), m.group(3))
            return
        m = _CALL.fullmatch(line)
        if not m:
            raise self.fail(lineno, f"cannot parse {line!r}")
        keyword, body = m.group(1).lower(), m.group(2)
        if keyword in ("exists", "forall", "free"):
            self.block(lineno, keyword, body)
        elif keyword == "output":
            if self.output is not None:
                raise self.fail(lineno, "a second output(...)")
            self.seen_gate_or_output = True
            self.output = (lineno, body)
        else:
            raise self.fail(lineno, f"unknown statement {keyword!r}")


def read_qcir(text: str) -> Circuit:
    """Parse prenex QCIR (G14 or the older 14 dialect) into a new circuit.

    Variables keep their names from the file; gates are rebuilt through the
    builder, so they are folded and shared and their file names are not kept.
    Raises ValueError, with the line number, on anything it does not understand.
    """
    reader = _Reader()
    first = True
    lineno = 0
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if first:
            first = False
            m = _HEADER.fullmatch(line)
            if m:
                if m.group(1) is not None and not m.group(1).isdigit():
                    raise reader.fail(lineno, f"bad header {line!r}")
                continue
        if line.startswith("#"):
            continue
        reader.line(lineno, line)
    if reader.output is None:
        raise ValueError(f"line {lineno}: no output(...) statement")
    out_line, out_text = reader.output
    reader.circuit.set_output(reader.lit(out_line, out_text))
    return reader.circuit
