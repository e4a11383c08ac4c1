"""Random closed circuits: the evaluator, both CNF encodings, the QCIR round trip and two
real solvers must all agree on the QBF's value.

The solvers are the point: the evaluator and the encoders are ours, so only an
independent solver can catch a misunderstanding we share with ourselves.
"""

from __future__ import annotations

import pytest
from circuit_strategies import depqbf_solve, prenex_circuits, qute_program, run_qute
from conftest import scaled
from hypothesis import given, settings

from circuits import Circuit, Qdimacs, qbf_value, qdimacs_value, read_qcir, to_qcir, to_qdimacs


@settings(max_examples=scaled(200), deadline=None)
@given(prenex_circuits())
def test_tseitin_and_plaisted_greenbaum_preserve_value(c):
    value = qbf_value(c)
    full, pg = to_qdimacs(c), to_qdimacs(c, polarity=True)
    assert qdimacs_value(full) == value
    assert qdimacs_value(pg) == value
    assert set(pg.clauses) <= set(full.clauses)
    assert pg.prefix == full.prefix and pg.num_vars == full.num_vars


@settings(max_examples=scaled(100), deadline=None)
@given(prenex_circuits())
def test_qcir_round_trip(c):
    text = to_qcir(c, ["round trip"])
    assert to_qcir(c, ["round trip"]) == text  # deterministic
    back = read_qcir(text)
    assert qbf_value(back) == qbf_value(c)
    # after one trip internal order is file order, so the text is a fixpoint
    again = to_qcir(back, ["round trip"])
    assert to_qcir(read_qcir(again), ["round trip"]) == again


@settings(max_examples=scaled(100), deadline=None)
@given(prenex_circuits())
def test_writer_emits_the_safe_subset(c):
    lines = to_qcir(c, ["a comment"]).split("\n")
    assert lines[-1] == "" and all(lines[:-1])  # LF-terminated, no blank lines
    lines.pop()
    top = int(lines[0].removeprefix("#QCIR-G14 "))
    assert lines[1] == "# a comment"
    i = 2
    quants = []
    declared: set[int] = set()
    while not lines[i].startswith("output("):
        quant, rest = lines[i].split("(", 1)
        ids = [int(t) for t in rest.rstrip(")").split(", ")]
        assert quant in ("exists", "forall") and ids
        assert not declared & set(ids)
        declared.update(ids)
        quants.append(quant)
        i += 1
    assert all(p != q for p, q in zip(quants, quants[1:]))  # alternating
    assert declared == set(range(1, len(declared) + 1))
    out = int(lines[i][len("output(") : -1])
    defined: set[int] = set()
    for line in lines[i + 1 :]:
        head, body = line.split(" = ")
        gid = int(head)
        kind, rest = body.split("(", 1)
        assert kind in ("and", "or") and rest.endswith(")")
        ins = [int(t) for t in rest[:-1].split(", ")] if rest != ")" else []
        assert ins, "no empty gates"
        assert len({abs(x) for x in ins}) == len(ins), "no id twice in a gate"
        assert all(abs(x) in declared or abs(x) in defined for x in ins), "defined before use"
        assert gid == len(declared) + len(defined) + 1
        defined.add(gid)
    assert out == max(defined), "the output is the last gate"
    assert top == len(declared) + len(defined)


def test_depqbf_is_called_the_right_way():
    """Guards the known trap: DepQBF(formula) solves an empty (true) problem."""
    pytest.importorskip("pyqbf")
    false_q = Qdimacs(2, (("exists", (1,)), ("forall", (2,))), ((-1, 2), (1, -2)))  # ∃x∀y: x↔y
    true_q = Qdimacs(2, (("forall", (2,)), ("exists", (1,))), ((-1, 2), (1, -2)))  # ∀y∃x: x↔y
    assert depqbf_solve(false_q) is False
    assert depqbf_solve(true_q) is True
    c = Circuit()
    x, y = c.var("x"), c.var("y")
    c.exists([x])
    c.forall([y])
    c.set_output(c.iff(x, y))
    assert qbf_value(c) is False
    assert depqbf_solve(to_qdimacs(c)) is False
    assert depqbf_solve(to_qdimacs(c, polarity=True)) is False


@settings(max_examples=scaled(200), deadline=None)
@given(prenex_circuits())
def test_depqbf_agrees(c):
    pytest.importorskip("pyqbf")
    value = qbf_value(c)
    assert depqbf_solve(to_qdimacs(c)) == value
    assert depqbf_solve(to_qdimacs(c, polarity=True)) == value


QUTE = qute_program()
needs_qute = pytest.mark.skipif(QUTE is None, reason="pyqbf_qute not installed")


@needs_qute
def test_qute_reads_our_edge_cases():
    """Comments after the header, constant outputs, wrapped variable outputs."""
    from circuits import FALSE, TRUE

    c = Circuit()
    x, y = c.var("x"), c.var("y")
    c.exists([x])
    c.forall([y])
    cases = {TRUE: True, FALSE: False, x: True, -x: True, y: False, -y: False}
    cases.update({c.iff(x, y): False, c.or_([x, y]): True})
    for out, value in cases.items():
        c.set_output(out)
        assert qbf_value(c) is value
        assert run_qute(QUTE, to_qcir(c, ["comment line 1", "comment (with parentheses)"])) is value
    empty = Circuit()
    for out in (TRUE, FALSE):
        empty.set_output(out)
        assert run_qute(QUTE, to_qcir(empty)) is (out == TRUE)


@needs_qute
@settings(max_examples=scaled(60), deadline=None)
@given(prenex_circuits())
def test_qute_agrees(c):
    assert run_qute(QUTE, to_qcir(c, ["generated by test_qute_agrees"])) == qbf_value(c)
