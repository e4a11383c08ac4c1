"""Bit-vector arithmetic against Python integers: exhaustive for widths 1..5, random beyond."""

from __future__ import annotations

import pytest
from circuit_strategies import assign_int, bits_value
from conftest import scaled
from hypothesis import given, settings
from hypothesis import strategies as st

from circuits import (
    FALSE,
    TRUE,
    Circuit,
    add,
    add_const,
    const_bits,
    equals,
    equals_const,
    evaluate,
    less_than,
    less_than_const,
    sub_const,
)

WIDTHS = range(1, 6)
CONSTS = range(-3, 41)


def vector(c: Circuit, name: str, width: int) -> list[int]:
    return [c.var(f"{name}{i}") for i in range(width)]


def truth(c: Circuit, lit: int, env: dict[int, bool]) -> bool:
    return evaluate(c, env, lit)


def test_const_bits():
    assert const_bits(5, 4) == [TRUE, FALSE, TRUE, FALSE]
    assert const_bits(0, 0) == []
    with pytest.raises(ValueError):
        const_bits(16, 4)
    with pytest.raises(ValueError):
        const_bits(-1, 4)


@pytest.mark.parametrize("width", WIDTHS)
def test_add_const_exhaustive(width):
    for k in range(0, 41):
        c = Circuit()
        xs = vector(c, "x", width)
        exact = add_const(c, xs, k)
        assert len(exact) == ((1 << width) - 1 + k).bit_length()
        wrapped = {w: add_const(c, xs, k, width=w) for w in range(0, width + 2)}
        for v in range(1 << width):
            env = assign_int(xs, v)
            assert bits_value(c, exact, env) == v + k
            for w, bits in wrapped.items():
                assert len(bits) == w
                assert bits_value(c, bits, env) == (v + k) % (1 << w)


@pytest.mark.parametrize("width", WIDTHS)
def test_add_const_negative_with_width(width):
    for k in range(-3, 0):
        c = Circuit()
        xs = vector(c, "x", width)
        bits = add_const(c, xs, k, width=width)
        for v in range(1 << width):
            assert bits_value(c, bits, assign_int(xs, v)) == (v + k) % (1 << width)
    with pytest.raises(ValueError):
        add_const(Circuit(), [], -1)


@pytest.mark.parametrize("width", WIDTHS)
def test_sub_const_exhaustive(width):
    for k in CONSTS:
        c = Circuit()
        xs = vector(c, "x", width)
        bits, negative = sub_const(c, xs, k)
        assert len(bits) == width
        for v in range(1 << width):
            env = assign_int(xs, v)
            assert bits_value(c, bits, env) == (v - k) % (1 << width), (width, k, v)
            assert truth(c, negative, env) == (v < k), (width, k, v)


@pytest.mark.parametrize("width", WIDTHS)
def test_less_than_const_exhaustive(width):
    for k in CONSTS:
        c = Circuit()
        xs = vector(c, "x", width)
        lt = less_than_const(c, xs, k)
        for v in range(1 << width):
            assert truth(c, lt, assign_int(xs, v)) == (v < k), (width, k, v)
        # a chain: at most one gate per bit, and constants fold away entirely
        assert c.num_gates <= width - 1
        if k <= 0:
            assert lt == FALSE
        if k >= 1 << width:
            assert lt == TRUE


@pytest.mark.parametrize("width", WIDTHS)
def test_equals_const_exhaustive(width):
    for k in CONSTS:
        c = Circuit()
        xs = vector(c, "x", width)
        eq = equals_const(c, xs, k)
        assert c.num_gates <= 1
        for v in range(1 << width):
            assert truth(c, eq, assign_int(xs, v)) == (v == k)


@pytest.mark.parametrize("wx, wy", [(wx, wy) for wx in range(0, 4) for wy in range(0, 4)])
def test_vector_ops_exhaustive(wx, wy):
    c = Circuit()
    xs, ys = vector(c, "x", wx), vector(c, "y", wy)
    eq, lt, total = equals(c, xs, ys), less_than(c, xs, ys), add(c, xs, ys)
    for vx in range(1 << wx):
        for vy in range(1 << wy):
            env = {**assign_int(xs, vx), **assign_int(ys, vy)}
            assert truth(c, eq, env) == (vx == vy)
            assert truth(c, lt, env) == (vx < vy)
            assert bits_value(c, total, env) == vx + vy


def test_constant_vectors_fold_completely():
    c = Circuit()
    assert add_const(c, const_bits(5, 3), 4) == const_bits(9, 4)
    assert less_than_const(c, const_bits(5, 3), 6) == TRUE
    assert equals(c, const_bits(5, 3), const_bits(5, 4)) == TRUE
    assert less_than(c, const_bits(5, 3), const_bits(2, 2)) == FALSE
    assert c.num_gates == 0


def test_add_const_low_zero_bits_are_free():
    c = Circuit()
    xs = vector(c, "x", 4)
    bits = add_const(c, xs, 4, width=4)
    assert bits[:2] == xs[:2]


@settings(max_examples=scaled(100), deadline=None)
@given(st.data())
def test_wide_random(data):
    width = data.draw(st.integers(6, 16), label="width")
    k = data.draw(st.integers(-5, (1 << width) + 5), label="k")
    c = Circuit()
    xs, ys = vector(c, "x", width), vector(c, "y", width)
    exact = add_const(c, xs, max(k, 0))
    bits, negative = sub_const(c, xs, k)
    lt, eqk = less_than_const(c, xs, k), equals_const(c, xs, k)
    lt2, eq2, total = less_than(c, xs, ys), equals(c, xs, ys), add(c, xs, ys)
    for _ in range(4):
        v = data.draw(st.integers(0, (1 << width) - 1), label="v")
        w = data.draw(st.sampled_from([v, data.draw(st.integers(0, (1 << width) - 1))]), label="w")
        env = {**assign_int(xs, v), **assign_int(ys, w)}
        assert bits_value(c, exact, env) == v + max(k, 0)
        assert bits_value(c, bits, env) == (v - k) % (1 << width)
        assert truth(c, negative, env) == (v < k)
        assert truth(c, lt, env) == (v < k)
        assert truth(c, eqk, env) == (v == k)
        assert truth(c, lt2, env) == (v < w)
        assert truth(c, eq2, env) == (v == w)
        assert bits_value(c, total, env) == v + w
