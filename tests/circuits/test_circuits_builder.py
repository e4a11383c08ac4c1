"""The builder: hash-consing, constant folding, derived gates, prefix, counts."""

from __future__ import annotations

import itertools

import pytest

from circuits import FALSE, TRUE, Circuit, evaluate, neg


@pytest.fixture
def c3():
    c = Circuit()
    return c, c.var("a"), c.var("b"), c.var("c")


def test_constants_and_negation():
    assert TRUE == 1 and FALSE == -1 and -TRUE == FALSE
    assert neg(5) == -5 and neg(neg(5)) == 5
    assert Circuit.neg(-3) == 3


def test_ids_start_at_2_in_creation_order(c3):
    c, a, b, x = c3
    assert (a, b, x) == (2, 3, 4)
    g = c.and_([a, b])
    assert g == 5
    assert c.var("d") == 6


def test_var_names(c3):
    c, a, b, _ = c3
    assert c.variable("a") == a and c.name_of(a) == "a" and c.name_of(-b) == "b"
    g = c.and_([a, b])
    assert c.name_of(g) == f"g{g}"
    with pytest.raises(ValueError, match="duplicate"):
        c.var("a")
    with pytest.raises(KeyError):
        c.variable("zz")


def test_hash_consing(c3):
    c, a, b, x = c3
    assert c.and_([a, b]) == c.and_([b, a]) == c.and_([a, b, a]) == c.and_(iter([b, a]))
    assert c.or_([a, -b, x]) == c.or_([x, a, -b])
    assert c.and_([a, b]) != c.or_([a, b])
    assert c.and_([a, b]) != c.and_([a, -b])
    n = c.num_gates
    c.and_([b, a])
    assert c.num_gates == n


def test_and_folding(c3):
    c, a, b, _ = c3
    assert c.and_([]) == TRUE
    assert c.and_([a]) == a
    assert c.and_([a, TRUE]) == a
    assert c.and_([a, a]) == a
    assert c.and_([a, FALSE, b]) == FALSE
    assert c.and_([a, -a]) == FALSE
    assert c.and_([a, b, -a]) == FALSE
    assert c.and_([TRUE, TRUE]) == TRUE
    assert c.num_gates == 0


def test_and_flat_merges_nested_conjunctions(c3):
    c, a, b, x = c3
    inner = c.and_([a, b])
    assert c.and_flat([inner, x]) == c.and_([a, b, x])
    deeper = c.and_([inner, -x])
    assert c.and_flat([deeper]) == c.and_([a, b, -x])
    # negated and-gates and or-gates are inputs, not conjunctions to merge
    either = c.or_([a, b])
    assert c.and_flat([-inner, either, x]) == c.and_([-inner, either, x])
    # a merged contradiction still folds
    assert c.and_flat([inner, -a]) == FALSE
    for values in itertools.product((False, True), repeat=3):
        env = dict(zip((a, b, x), values))
        assert evaluate(c, env, c.and_flat([deeper, either])) == (all(values[:2]) and not values[2])


def test_or_folding(c3):
    c, a, b, _ = c3
    assert c.or_([]) == FALSE
    assert c.or_([a]) == a
    assert c.or_([a, FALSE]) == a
    assert c.or_([a, TRUE, b]) == TRUE
    assert c.or_([a, -a]) == TRUE
    assert c.or_([-b, b, a]) == TRUE
    assert c.or_([FALSE]) == FALSE
    assert c.num_gates == 0


def test_double_negation(c3):
    c, a, b, _ = c3
    g = c.and_([a, b])
    # -(-x) is the double negation under test, not a decrement
    assert -(-g) == g  # noqa: B002
    assert c.and_([-(-a), b]) == g  # noqa: B002
    assert c.or_([-g, -(-g)]) == TRUE  # noqa: B002


def test_derived_gates_fold(c3):
    c, a, b, x = c3
    assert c.iff(a, a) == TRUE and c.iff(a, -a) == FALSE
    assert c.iff(a, TRUE) == a and c.iff(FALSE, a) == -a
    assert c.xor(a, a) == FALSE and c.xor(a, -a) == TRUE and c.xor(a, FALSE) == a
    assert c.implies(a, a) == TRUE and c.implies(FALSE, a) == TRUE and c.implies(TRUE, a) == a
    assert c.ite(x, a, a) == a
    assert c.ite(TRUE, a, b) == a and c.ite(FALSE, a, b) == b
    assert c.ite(x, TRUE, FALSE) == x and c.ite(x, FALSE, TRUE) == -x
    assert c.ite(x, a, -a) == c.iff(x, a)
    assert c.num_gates == 3  # the one iff: two ands and an or


def test_derived_gates_share(c3):
    c, a, b, x = c3
    assert c.iff(a, b) == c.iff(b, a) == c.iff(-a, -b) == -c.iff(a, -b) == -c.xor(a, b)
    assert c.ite(x, a, b) == c.ite(-x, b, a) == -c.ite(x, -a, -b)
    assert c.equiv(a, b) == c.iff(a, b)


def test_derived_gates_truth_tables(c3):
    c, a, b, x = c3
    lits = [TRUE, FALSE, a, -a, b, -b, x, -x]
    for p, q, r in itertools.product(lits, repeat=3):
        gates = {
            "implies": c.implies(p, q),
            "iff": c.iff(p, q),
            "xor": c.xor(p, q),
            "ite": c.ite(p, q, r),
        }
        for va, vb, vx in itertools.product((False, True), repeat=3):
            env = {a: va, b: vb, x: vx}

            def val(lit, env=env):
                return evaluate(c, env, lit) if abs(lit) != TRUE else lit == TRUE

            vp, vq, vr = val(p), val(q), val(r)
            assert val(gates["implies"]) == ((not vp) or vq)
            assert val(gates["iff"]) == (vp == vq)
            assert val(gates["xor"]) == (vp != vq)
            assert val(gates["ite"]) == (vq if vp else vr)


def test_bad_literals_rejected(c3):
    c, a, b, _ = c3
    with pytest.raises(ValueError):
        c.and_([a, 99])
    with pytest.raises(ValueError):
        c.or_([-99, b])
    with pytest.raises(ValueError):
        c.and_([a, 0, b])
    with pytest.raises(ValueError):
        c.and_([99])
    with pytest.raises(ValueError):
        c.set_output(42)


def test_prefix_merging_and_empty_blocks(c3):
    c, a, b, x = c3
    c.exists([])
    c.exists([a])
    c.exists([b])
    c.forall([])
    c.forall([x])
    assert c.prefix == (("exists", (a, b)), ("forall", (x,)))
    assert c.quantifier_of(a) == "exists" and c.quantifier_of(x) == "forall"
    d = c.var("d")
    assert c.quantifier_of(d) is None
    c.exists(v for v in [d])
    assert c.prefix[-1] == ("exists", (d,))


def test_prefix_errors(c3):
    c, a, b, _ = c3
    c.exists([a])
    with pytest.raises(ValueError, match="twice"):
        c.forall([a])
    with pytest.raises(ValueError, match="twice"):
        c.exists([b, b])
    assert c.prefix == (("exists", (a,)),)  # the failed calls changed nothing
    g = c.and_([a, b])
    with pytest.raises(ValueError):
        c.exists([g])
    with pytest.raises(ValueError):
        c.exists([-b])
    with pytest.raises(ValueError):
        c.exists([TRUE])


def test_counts_and_reachability(c3):
    c, a, b, x = c3
    g1 = c.and_([a, b])
    g2 = c.or_([g1, x])
    unused = c.and_([a, x])
    assert c.output is None
    c.set_output(-g2)
    assert c.output == -g2
    assert c.num_vars == 3 and c.num_gates == 3
    assert c.reachable_gates() == [g1, g2]
    assert c.reachable() == [a, b, x, g1, g2]
    assert c.reachable_gates(unused) == [unused]
    assert c.free_variables() == [a, b, x]
    c.exists([a, b])
    assert c.free_variables() == [x]
    c.set_output(TRUE)
    assert c.reachable_gates() == []


def test_no_shared_state_between_circuits():
    c1, c2 = Circuit(), Circuit()
    a1, b1 = c1.var("a"), c1.var("b")
    a2, b2 = c2.var("a"), c2.var("b")
    c1.and_([a1, b1])
    assert c2.num_gates == 0
    assert c2.and_([a2, b2]) == 4 and c2.num_gates == 1
