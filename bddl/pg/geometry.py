"""Where a game's cells sit, and the board symmetries that follow from it.

A `.pg` file has no coordinates, only names; but the published files name
their cells like a board (`a1` ... `d4`, Qubic's `a1x` ... `d4w`, Hex's `a1`
...), and our generators do the same.  `coordinates_from_names` reads such
names back into grid coordinates, so a drawing and the board's symmetries are
available for any game named that way, read or generated alike (and the
reader and the generators agree on them, which keeps the round trip exact).

Coordinates are only ever a *hint*: every candidate symmetry is checked
against the winning sets (and Hex's graph), so a misleading name costs
symmetries, never a wrong answer.
"""

from __future__ import annotations

import functools
import itertools
import re
from typing import Sequence

from .game import PositionalGame

_RUN = re.compile(r"[A-Za-z]+|[0-9]+")

Permutation = tuple[int, ...]  # cell i goes to cell perm[i]


def coordinates_from_names(cells: Sequence[str]) -> tuple[tuple[int, ...], ...] | None:
    """Grid coordinates read from cell names made of letter and digit runs, or None.

    Every name must split into runs of the same kinds in the same order; each
    run is one axis.  Digit runs count numerically, letter runs in the order
    their values first appear among the cells (so Qubic's x, y, z, w layers
    come out 0..3).  Axes that never vary are dropped; coordinates start at 0
    along each axis.  Names that do not fit (or two cells at one place) give None."""
    axes = name_axes(cells)
    return None if axes is None else tuple(zip(*(ranks for ranks, _ in axes)))


def name_axes(cells: Sequence[str]) -> list[tuple[list[int], list[str]]] | None:
    """The varying axes of the cell names: per axis, each cell's rank and the labels in rank order."""
    if len(cells) < 2:
        return None
    split = []
    for name in cells:
        runs = _RUN.findall(name)
        if "".join(runs) != name:
            return None
        split.append(runs)
    kinds = [r[0].isdigit() for r in split[0]]
    if any([r[0].isdigit() for r in runs] != kinds for runs in split):
        return None
    axes = []
    for axis, digits in enumerate(kinds):
        values = [runs[axis] for runs in split]
        if digits:
            distinct = sorted(set(values), key=int)
        else:
            distinct = list(dict.fromkeys(values))
        if len(distinct) > 1:
            rank = {v: i for i, v in enumerate(distinct)}
            axes.append(([rank[v] for v in values], distinct))
    if not axes:
        return None
    if len(set(zip(*(ranks for ranks, _ in axes)))) != len(cells):
        return None
    return axes


@functools.lru_cache(maxsize=16)  # the reader's #firstmoves check, the solver and the certificates ask of one game
def symmetries(game: PositionalGame) -> tuple[Permutation, ...]:
    """The board symmetries of the game that its coordinates suggest, checked.

    Candidates are the box's rotations and reflections (axes of equal extent
    exchanged, any axis reversed) and, when shifting by one along an axis is
    itself a symmetry (a torus), the shifts along it.  A candidate is kept when
    it maps the board onto itself and each side's winning sets (and Hex's
    neighbours and pair of borders) onto themselves.  The identity comes first."""
    coords = game.coordinates
    identity = tuple(range(len(game.cells)))
    if coords is None:
        return (identity,)
    where = {c: i for i, c in enumerate(coords)}
    dims = len(coords[0])
    extent = [max(c[a] for c in coords) + 1 for a in range(dims)]
    check = _Checker(game)

    def as_permutation(transform) -> Permutation | None:
        perm = []
        for c in coords:
            target = where.get(transform(c))
            if target is None:
                return None
            perm.append(target)
        return tuple(perm)

    shifts_per_axis = []
    for a in range(dims):
        shift = as_permutation(lambda c, a=a: c[:a] + ((c[a] + 1) % extent[a],) + c[a + 1 :])
        shifts_per_axis.append(range(extent[a]) if shift is not None and check(shift) else range(1))
    found: dict[Permutation, None] = {identity: None}
    for order in itertools.permutations(range(dims)):
        if any(extent[order[a]] != extent[a] for a in range(dims)):
            continue
        for flips in itertools.product((False, True), repeat=dims):
            for shift in itertools.product(*shifts_per_axis):

                def transform(c, order=order, flips=flips, shift=shift):
                    moved = []
                    for a in range(dims):
                        v = c[order[a]]
                        if flips[a]:
                            v = extent[a] - 1 - v
                        moved.append((v + shift[a]) % extent[a])
                    return tuple(moved)

                perm = as_permutation(transform)
                if perm is not None and perm not in found and check(perm):
                    found[perm] = None
    return tuple(found)


def first_moves_left_out(game: PositionalGame) -> tuple[tuple[int, ...], ...]:
    """The classes of openings that `#firstmoves` misses: each class a tuple of cells (file order), the
    classes by their first cell; () when the game has no cut or the cut keeps a cell of every class.

    `#firstmoves` is a symmetry cut: the answer stays the question's only if every first move the
    cut drops has a symmetric image among the kept ones.  Two openings are in one class when a
    symmetry of `symmetries` (the ones the solver itself trusts) maps one to the other and leaves the
    initial stones where they are: such a symmetry maps the game after one opening onto the game
    after the other, so they have one value.  Nothing beyond those symmetries is assumed, so a class
    reported here may still be equivalent to a kept one by a symmetry bddlc does not find (a game
    whose cell names give no grid has only the identity): the report then errs on the side of saying so."""
    if game.first_moves is None:
        return ()
    taken = game.black_initials | game.white_initials
    openings = [c for c in range(len(game.cells)) if c not in taken]
    if all(c in game.first_moves for c in openings):
        return ()  # nothing dropped: no symmetry needed (and none computed)
    stones = (game.black_initials, game.white_initials)
    keep = [p for p in symmetries(game)[1:] if all(frozenset(p[c] for c in s) == s for s in stones)]
    missing: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for cell in openings:
        if cell in seen:
            continue
        orbit, todo = {cell}, [cell]
        while todo:  # the closure under the kept symmetries: their group's orbit, whatever order they came in
            c = todo.pop()
            for p in keep:
                if p[c] not in orbit:
                    orbit.add(p[c])
                    todo.append(p[c])
        seen |= orbit
        if not orbit & game.first_moves:
            missing.append(tuple(sorted(orbit)))
    return tuple(missing)


class _Checker:
    """Is a permutation of the cells an automorphism of the game's goals?"""

    def __init__(self, game: PositionalGame):
        # each side's sets as bit masks, and as cell tuples to map: a set's image is the sum of its
        # cells' image bits (distinct cells), one C-level loop instead of a frozenset built and hashed
        self.sides = [(tuple(tuple(s) for s in sets), frozenset(sum(1 << c for c in s) for s in sets))
                      for sets in (frozenset(game.black_wins), frozenset(game.white_wins))]
        self.graph = game.graph
        if game.graph is not None:
            self.edges = frozenset((i, j) for i, ns in enumerate(game.graph.neighbours) for j in ns)
            self.borders = {game.graph.start_border, game.graph.end_border}

    def __call__(self, perm: Permutation) -> bool:
        bits = [1 << p for p in perm]
        image = bits.__getitem__
        for sets, masks in self.sides:
            for s in sets:
                if sum(map(image, s)) not in masks:
                    return False
        if self.graph is not None:
            if any((perm[i], perm[j]) not in self.edges for i, j in self.edges):
                return False
            moved = {frozenset(perm[i] for i in b) for b in self.borders}
            if moved != self.borders:
                return False
        return True
