"""Bit-vector arithmetic on circuit literals (the BDDL paper's §4.3 operators).

Why it exists: BDDL moves and goals talk about board coordinates as numbers
("the cell above", "x < 3"), but the encoding's coordinates are vectors of
Boolean variables. These helpers turn the few operations the paper needs —
ADD(V, k), SUB(V, k), LT(V, k), EQ — into small gate networks.

A bit vector is a list of literals, least significant bit first. Every
helper builds through the circuit's folding constructors, so constant bits
cost nothing: ``add_const(c, xs, 4)`` leaves the two low bits of ``xs`` as
they are, and a comparison with a constant is a single chain whose length is
the vector's width, with runs of equal constant bits merged into one n-ary gate.
"""

from __future__ import annotations

from collections.abc import Sequence

from .circuit import FALSE, TRUE, Circuit

__all__ = [
    "const_bits",
    "add_const",
    "sub_const",
    "less_than_const",
    "less_than",
    "equals",
    "equals_const",
    "add",
]


def const_bits(k: int, width: int) -> list[int]:
    """``k`` as ``width`` constant literals (ValueError if it is negative or does not fit)."""
    if width < 0:
        raise ValueError(f"negative width {width}")
    if k < 0 or k >> width:
        raise ValueError(f"{k} does not fit in {width} unsigned bits")
    return [TRUE if (k >> i) & 1 else FALSE for i in range(width)]


def _maj(c: Circuit, a: int, b: int, d: int) -> int:
    """Majority of three literals: the carry of a full adder."""
    if a == b or a == d:
        return a
    if b == d:
        return b
    if a == -b:
        return d
    if a == -d:
        return b
    if b == -d:
        return a
    # A constant input turns majority into and/or of the other two (folding
    # alone would leave a redundant and-gate inside the or).
    for const, p, q in ((a, b, d), (b, a, d), (d, a, b)):
        if const == TRUE:
            return c.or_((p, q))
        if const == FALSE:
            return c.and_((p, q))
    return c.or_((c.and_((a, b)), c.and_((a, d)), c.and_((b, d))))


def add_const(c: Circuit, xs: Sequence[int], k: int, width: int | None = None) -> list[int]:
    """ADD(V, k): ``V + k``; exact (wide enough never to overflow) or, with ``width``, mod ``2**width``.

    ``k`` must be ≥ 0 for the exact sum; with a width any integer works (two's complement).
    """
    if width is None:
        if k < 0:
            raise ValueError(f"an exact sum needs k >= 0, not {k}")
        width = ((1 << len(xs)) - 1 + k).bit_length()
    elif width < 0:
        raise ValueError(f"negative width {width}")
    else:
        k %= 1 << width
    bits: list[int] = []
    carry = FALSE
    last = width - 1
    for i in range(width):
        x = xs[i] if i < len(xs) else FALSE
        if (k >> i) & 1:
            bits.append(c.iff(x, carry))  # x xor 1 xor carry
            if i < last:
                carry = c.or_((x, carry))
        else:
            bits.append(c.xor(x, carry))
            if i < last:
                carry = c.and_((x, carry))
    return bits


def add(c: Circuit, xs: Sequence[int], ys: Sequence[int]) -> list[int]:
    """``X + Y`` exactly (one bit wider than the wider input)."""
    width = max(len(xs), len(ys)) + 1
    bits: list[int] = []
    carry = FALSE
    for i in range(width):
        x = xs[i] if i < len(xs) else FALSE
        y = ys[i] if i < len(ys) else FALSE
        bits.append(c.xor(c.xor(x, y), carry))
        carry = _maj(c, x, y, carry) if i < width - 1 else carry
    return bits


def sub_const(c: Circuit, xs: Sequence[int], k: int) -> tuple[list[int], int]:
    """SUB(V, k) in two's complement: ``((V - k) mod 2**len(xs), V < k)``.

    For ``0 < k <= 2**n`` this is ``V + (2**n - k)`` over ``n + 1`` bits, whose
    top bit (the carry) is set exactly when ``V >= k``: the sign comes free.
    """
    n = len(xs)
    if k <= 0:
        return add_const(c, xs, -k, width=n), FALSE
    if k > (1 << n):
        return add_const(c, xs, -k, width=n), TRUE
    full = add_const(c, xs, (1 << n) - k, width=n + 1)
    return full[:n], -full[n]


def less_than_const(c: Circuit, xs: Sequence[int], k: int) -> int:
    """LT(V, k): true iff ``V < k``, for any integer ``k``.

    From the least significant bit up, ``lt_i`` ("bits 0..i of V are below
    those of k") is ``or(-x_i, lt_{i-1})`` where k has a 1 and
    ``and(-x_i, lt_{i-1})`` where it has a 0; consecutive equal bits of k
    share one gate.
    """
    n = len(xs)
    if k <= 0:
        return FALSE
    if k >> n:
        return TRUE
    result = FALSE
    run_is_or: bool | None = None
    run: list[int] = []
    for i, x in enumerate(xs):
        is_or = bool((k >> i) & 1)
        if is_or is not run_is_or:
            if run_is_or is not None:
                result = c.or_(run) if run_is_or else c.and_(run)
            run_is_or, run = is_or, [result]
        run.append(-x)
    return c.or_(run) if run_is_or else c.and_(run)


def less_than(c: Circuit, xs: Sequence[int], ys: Sequence[int]) -> int:
    """``X < Y`` for unsigned vectors (the shorter zero-extended): the borrow out of ``X - Y``."""
    borrow = FALSE
    for i in range(max(len(xs), len(ys))):
        x = xs[i] if i < len(xs) else FALSE
        y = ys[i] if i < len(ys) else FALSE
        borrow = _maj(c, -x, y, borrow)
    return borrow


def equals(c: Circuit, xs: Sequence[int], ys: Sequence[int]) -> int:
    """EQ(X, Y) for unsigned vectors (the shorter zero-extended)."""
    eqs = []
    for i in range(max(len(xs), len(ys))):
        x = xs[i] if i < len(xs) else FALSE
        y = ys[i] if i < len(ys) else FALSE
        eqs.append(c.iff(x, y))
    return c.and_(eqs)


def equals_const(c: Circuit, xs: Sequence[int], k: int) -> int:
    """EQ(V, k): one and-gate over the bits (FALSE if k is negative or too wide)."""
    if k < 0 or k >> len(xs):
        return FALSE
    return c.and_([x if (k >> i) & 1 else -x for i, x in enumerate(xs)])
