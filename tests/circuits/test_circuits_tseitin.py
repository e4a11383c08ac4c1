"""The QDIMACS encoding: exact clauses, numbering shared with QCIR, constants, text."""

from __future__ import annotations

import pytest

from circuits import (
    FALSE,
    TRUE,
    Circuit,
    Qdimacs,
    numbering,
    qbf_value,
    qdimacs_value,
    to_qcir,
    to_qdimacs,
    to_qdimacs_text,
)


def small() -> tuple[Circuit, int, int, int]:
    """∃a ∀b: (a ∧ b) ∨ ¬a."""
    c = Circuit()
    a, b = c.var("a"), c.var("b")
    g = c.and_([a, b])
    h = c.or_([g, -a])
    c.exists([a])
    c.forall([b])
    c.set_output(h)
    return c, a, b, g


def test_full_tseitin_clauses_exact():
    c, *_ = small()
    assert to_qdimacs(c).clauses == (
        (-3, 1),
        (-3, 2),
        (3, -1, -2),
        (-4, -1, 3),
        (4, 1),
        (4, -3),
        (4,),
    )
    assert qdimacs_value(to_qdimacs(c)) is qbf_value(c) is True  # a = 0


def test_plaisted_greenbaum_keeps_needed_directions_only():
    c, a, b, g = small()
    q = to_qdimacs(c, polarity=True)
    # output positive: or-gate needs "4 -> (-1 or 3)", the and-gate (positive under it) "3 -> 1, 3 -> 2"
    assert q.clauses == ((-3, 1), (-3, 2), (-4, -1, 3), (4,))
    c.set_output(-c.output)  # now both gates are only needed negatively
    q = to_qdimacs(c, polarity=True)
    assert q.clauses == ((3, -1, -2), (4, 1), (4, -3), (-4,))
    # a gate under both polarities gets both directions
    c.set_output(c.xor(g, b))
    q = to_qdimacs(c, polarity=True)
    full = to_qdimacs(c)
    assert set(q.clauses) <= set(full.clauses)
    assert (3, -1, -2) in q.clauses and (-3, 1) in q.clauses


def test_gate_block_appended_after_forall_or_merged_into_exists():
    c, *_ = small()
    assert to_qdimacs(c).prefix[-1] == ("exists", (3, 4))
    d = Circuit()
    a, b = d.var("a"), d.var("b")
    d.forall([a])
    d.exists([b])
    d.set_output(d.or_([a, b]))
    assert to_qdimacs(d).prefix == (("forall", (1,)), ("exists", (2, 3)))


@pytest.mark.parametrize("polarity", [False, True])
def test_a_conjunction_of_clauses_is_written_as_those_clauses(polarity):
    """An output that is a conjunction asserts its conjuncts directly: a
    disjunction of inputs used nowhere else becomes its clause, with no gate
    variable; anything else becomes a unit on its gate's variable."""
    c = Circuit()
    a, b, x = c.var("a"), c.var("b"), c.var("x")
    c.forall([a, b])
    c.exists([x])
    inner = c.and_([a, x])  # used twice: keeps its definition
    c.set_output(c.and_([c.or_([-a, x]), c.or_([b, -x, inner]), c.or_([inner, b]), -b]))
    q = to_qdimacs(c, polarity=polarity)
    assert (-1, 3) in q.clauses and (-2,) in q.clauses
    gates = {v for _, block in q.prefix for v in block} - {1, 2, 3}
    assert len(gates) == 3  # inner and the two disjunctions that contain it; no variable for (-a or x) or the output
    assert qdimacs_value(q) is qbf_value(c)


def test_same_numbering_as_qcir():
    c, *_ = small()
    c.set_output(-c.output)
    q = to_qdimacs(c)
    num = numbering(c)
    text = to_qcir(c)
    # QCIR adds only its wrapper gate on top of the shared numbering
    assert text.startswith(f"#QCIR-G14 {num.max_id + 1}\n")
    assert q.num_vars == num.max_id
    assert q.clauses[-1] == (num.lit(c.output),)


def test_variable_outputs():
    c = Circuit()
    a, b = c.var("a"), c.var("b")
    c.forall([a])
    c.exists([b])
    c.set_output(-b)
    q = to_qdimacs(c)
    assert q == Qdimacs(2, (("forall", (1,)), ("exists", (2,))), ((-2,),))
    assert qdimacs_value(q) is True
    c.set_output(a)
    assert qdimacs_value(to_qdimacs(c)) is False


def test_constant_outputs():
    """A fresh innermost existential d: [d] for true, [d] [-d] for false; never zero clauses."""
    c = Circuit()
    a, b = c.var("a"), c.var("b")
    c.forall([a])
    c.exists([b])
    c.set_output(TRUE)
    assert to_qdimacs(c) == Qdimacs(3, (("forall", (1,)), ("exists", (2, 3))), ((3,),))
    c.set_output(FALSE)
    assert to_qdimacs(c) == Qdimacs(3, (("forall", (1,)), ("exists", (2, 3))), ((3,), (-3,)))
    universal_only = Circuit()
    u = universal_only.var("u")
    universal_only.forall([u])
    universal_only.set_output(FALSE)
    q = to_qdimacs(universal_only)
    assert q == Qdimacs(2, (("forall", (1,)), ("exists", (2,))), ((2,), (-2,)))
    assert qdimacs_value(q) is False
    empty = Circuit()
    empty.set_output(FALSE)
    assert to_qdimacs(empty) == Qdimacs(1, (("exists", (1,)),), ((1,), (-1,)))
    empty.set_output(TRUE)
    assert to_qdimacs(empty) == Qdimacs(1, (("exists", (1,)),), ((1,),))
    for circuit in (c, universal_only, empty):
        for out in (TRUE, FALSE):
            circuit.set_output(out)
            assert qdimacs_value(to_qdimacs(circuit)) is (out == TRUE)
            assert qdimacs_value(to_qdimacs(circuit, polarity=True)) is (out == TRUE)


def test_free_variables_rejected():
    c = Circuit()
    a, b = c.var("a"), c.var("b")
    c.exists([a])
    c.set_output(c.or_([a, b]))
    with pytest.raises(ValueError, match="free"):
        to_qdimacs(c)
    with pytest.raises(ValueError, match="free"):
        qbf_value(c)


def test_text_format():
    c, *_ = small()
    text = to_qdimacs_text(c, ["first", "second\nthird"])
    assert text == (
        "c first\nc second\nc third\n"
        "p cnf 4 7\n"
        "e 1 0\na 2 0\ne 3 4 0\n"
        "-3 1 0\n-3 2 0\n3 -1 -2 0\n-4 -1 3 0\n4 1 0\n4 -3 0\n4 0\n"
    )
    assert to_qdimacs_text(to_qdimacs(c), ["first", "second\nthird"]) == text
    assert to_qdimacs_text(to_qdimacs(c, polarity=True)) == to_qdimacs_text(c, polarity=True)


def test_qdimacs_value_rejects_free_variables():
    with pytest.raises(ValueError, match="not in the prefix"):
        qdimacs_value(Qdimacs(2, (("exists", (1,)),), ((1, 2),)))
    with pytest.raises(ValueError, match="repeated"):
        qdimacs_value(Qdimacs(2, (("exists", (1,)), ("forall", (1,))), ((1,),)))


def test_qdimacs_value_semantics():
    # ∀x ∃y: x ↔ y is true; ∃y ∀x: x ↔ y is false
    clauses = ((-1, 2), (1, -2))
    assert qdimacs_value(Qdimacs(2, (("forall", (1,)), ("exists", (2,))), clauses)) is True
    assert qdimacs_value(Qdimacs(2, (("exists", (2,)), ("forall", (1,))), clauses)) is False
