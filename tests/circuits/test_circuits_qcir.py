"""The QCIR writer's exact text, numbering, edge cases; the reader's tolerance and errors."""

from __future__ import annotations

import io
from textwrap import dedent

import pytest

from circuits import FALSE, TRUE, Circuit, numbering, qbf_value, read_qcir, to_qcir, write_qcir


def tiny() -> Circuit:
    """∃x ∀y ∃z: ¬((x ∧ ¬y) ∨ (y ⊕ z)), with z created before y to exercise renumbering."""
    c = Circuit()
    x, z, y = c.var("x"), c.var("z"), c.var("y")
    unused = c.and_([x, z])  # never reachable: must not be written
    g = c.or_([c.and_([x, -y]), c.xor(y, z)])
    c.set_output(-g)
    c.exists([x])
    c.forall([y])
    c.exists([z])
    assert unused
    return c


# Inputs inside a gate come in internal creation order (z before y here), so
# after renumbering "5 = and(3, 2)" is expected: the writer does not re-sort.
GOLDEN = """\
#QCIR-G14 9
# made by a test
# two lines
exists(1)
forall(2)
exists(3)
output(9)
4 = and(1, -2)
5 = and(3, 2)
6 = and(-3, -2)
7 = or(5, 6)
8 = or(4, -7)
9 = and(-8)
"""


def test_golden_text():
    assert to_qcir(tiny(), ["made by a test", "two lines"]) == GOLDEN


def test_write_matches_to_qcir_and_is_deterministic():
    buf = io.StringIO()
    write_qcir(tiny(), buf)
    assert buf.getvalue() == to_qcir(tiny()) == to_qcir(tiny())
    assert "\r" not in buf.getvalue() and "\n\n" not in buf.getvalue()


def test_numbering_matches_file():
    c = tiny()
    num = numbering(c)
    assert num.names == {"x": 1, "y": 2, "z": 3}
    assert num.num_inputs == 3 and num.max_id == 8
    assert num.lit(c.variable("z")) == 3 and num.lit(-c.variable("y")) == -2
    assert num.lit(-c.output) == 8
    assert num.prefix == (("exists", (1,)), ("forall", (2,)), ("exists", (3,)))
    with pytest.raises(ValueError):
        num.lit(TRUE)


def test_positive_gate_output_is_not_wrapped():
    c = Circuit()
    a, b = c.var("a"), c.var("b")
    c.exists([a, b])
    c.set_output(c.or_([a, -b]))
    assert to_qcir(c) == "#QCIR-G14 3\nexists(1, 2)\noutput(3)\n3 = or(1, -2)\n"


@pytest.mark.parametrize("sign", [1, -1])
def test_variable_output_is_wrapped(sign):
    c = Circuit()
    a, b = c.var("a"), c.var("b")
    c.forall([a])
    c.exists([b])
    c.set_output(sign * b)
    assert to_qcir(c) == f"#QCIR-G14 3\nforall(1)\nexists(2)\noutput(3)\n3 = and({sign * 2})\n"


def test_constant_outputs():
    c = Circuit()
    a = c.var("a")
    c.forall([a])
    c.set_output(TRUE)
    assert to_qcir(c) == "#QCIR-G14 3\nforall(1)\noutput(3)\n2 = and(1)\n3 = or(1, -2)\n"
    c.set_output(FALSE)
    assert to_qcir(c) == "#QCIR-G14 3\nforall(1)\noutput(3)\n2 = and(1)\n3 = and(1, -2)\n"
    empty = Circuit()
    empty.set_output(FALSE)
    assert to_qcir(empty) == "#QCIR-G14 3\nexists(1)\noutput(3)\n2 = and(1)\n3 = and(1, -2)\n"
    for out in (TRUE, FALSE):
        c.set_output(out)
        assert qbf_value(read_qcir(to_qcir(c))) is (out == TRUE)


def test_free_variables_rejected():
    c = Circuit()
    a, b = c.var("a"), c.var("b")
    c.exists([a])
    c.set_output(c.and_([a, b]))
    with pytest.raises(ValueError, match="free.*'b'"):
        to_qcir(c)
    c.set_output(a)  # b is now outside the cone: fine
    assert "output(2)" in to_qcir(c)


def test_missing_output_rejected():
    with pytest.raises(ValueError, match="no output"):
        to_qcir(Circuit())


def test_quantified_unused_variables_keep_their_place():
    c = Circuit()
    a, b, d = c.var("a"), c.var("b"), c.var("d")
    c.exists([a, b])
    c.forall([d])
    c.set_output(-b)
    assert to_qcir(c).splitlines()[1:4] == ["exists(1, 2)", "forall(3)", "output(4)"]


def test_round_trip_keeps_names_and_value():
    c = tiny()
    back = read_qcir(to_qcir(c))
    assert [back.name_of(v) for _, vs in back.prefix for v in vs] == ["1", "2", "3"]
    assert qbf_value(back) == qbf_value(c)
    # After one trip the internal order equals the file order: a fixpoint.
    text = to_qcir(back)
    assert to_qcir(read_qcir(text)) == text


def test_reader_tolerates_other_dialects():
    text = dedent(
        """
        #QCIR-14
        # a comment before the prefix

        free(p)
        exists(a, b)
        FORALL( c )
        output(-g2)
        # a comment among gates
        g1 = xor(a, c)
        g2 = ite(g1, -b, p)
        g3 = and()
        g4 = or()
        """
    )
    c = read_qcir(text)
    a, b, cc, p = (c.variable(n) for n in "abcp")
    assert c.prefix == (("exists", (p, a, b)), ("forall", (cc,)))
    g1 = c.xor(a, cc)
    assert c.output == -c.ite(g1, -b, p)
    # ∃p,a,b ∀c: ¬ite(a⊕c, ¬b, p); true with p=0,a=0,b=1 (c=0: ¬p; c=1: b)
    assert qbf_value(c) is True


def test_reader_accepts_g14_header_with_count_and_tabs():
    c = read_qcir("#QCIR-G14 4\nexists(1,\t2)\noutput(3)\n3 = and(1,2)\n")
    assert qbf_value(c) is True


@pytest.mark.parametrize(
    "text, message",
    [
        ("#QCIR-G14\nexists(a)\noutput(g)\ng = and(a, b)\n", r"line 4: undeclared .*'b'"),
        ("#QCIR-G14\nexists(a)\noutput(g)\ng = and(a)\ng = or(a)\n", r"line 5: gate 'g' is defined twice"),
        ("#QCIR-G14\nexists(a)\nforall(a)\noutput(a)\n", r"line 3: variable 'a' is quantified twice"),
        ("#QCIR-G14\nexists(a)\noutput(g)\ng = nand(a)\n", r"line 4: unknown gate type 'nand'"),
        ("#QCIR-G14\nexists(a)\noutput(g)\ng = xor(a)\n", r"line 4: xor takes 2"),
        ("#QCIR-G14\nexists(a)\noutput(g)\ng = exists(a; a)\n", r"line 4: quantifier gates"),
        ("#QCIR-G14\nexists(a)\ng = and(a)\n", r"no output"),
        ("#QCIR-G14\nexists(a)\noutput(g)\noutput(g)\n", r"line 4: a second output"),
        ("#QCIR-G14\nexists(a)\noutput(g)\ng = and(a)\nforall(b)\n", r"line 5: forall.*after"),
        ("#QCIR-G14\nexists(a)\nfree(b)\noutput(a)\n", r"line 3: free.*before"),
        ("#QCIR-G14\nexists(a b)\noutput(a)\n", r"line 2: bad variable name"),
        ("#QCIR-G14\nexists(a)\noutput(a)\nthis is not qcir\n", r"line 4: cannot parse"),
        ("#QCIR-G14 x\nexists(a)\noutput(a)\n", r"line 1: bad header"),
        ("#QCIR-G14\nexists(a)\noutput(a)\na = and(a)\n", r"line 4: gate 'a' has the name of a variable"),
        ("#QCIR-G14\nexists(a)\noutput(h)\ng = and(a)\n", r"line 3: undeclared .*'h'"),
    ],
)
def test_reader_errors(text, message):
    with pytest.raises(ValueError, match=message):
        read_qcir(text)
