"""Hypothesis strategies for random small BDDL games.

The games are valid by construction (no rejection sampling): actions with
0-3 precondition and 1-3 effect atoms over open/black/white, negations,
offsets -2..2 and board edges; goals that may be absent, with relative,
edge and absolute coordinates; boards from 1x1 to 4x3; a random initial
position; depths 1-5; either side first.  Goals that would already hold in
the initial state are dropped, since the checker rejects such models.
"""

from __future__ import annotations

from functools import lru_cache

from hypothesis import strategies as st

from bddl import Absolute, Action, Atom, Condition, Domain, Extreme, Problem, Relative
from bddl.game import Game

PREDS = ("open", "black", "white")


# Strategies are built once and cached: building them inside every draw is
# what makes hypothesis slow (each new strategy object is validated anew).


@lru_cache(maxsize=None)
def coord(axis: str, size: int | None = None):
    """A coordinate for one axis; `size` given means absolute indices are allowed."""
    options = [
        st.integers(-2, 2).map(lambda k: Relative(axis, k)),
        st.sampled_from((f"{axis}min", f"{axis}max")).map(Extreme),
    ]
    if size is not None:
        options.append(st.integers(1, size).map(Absolute))
    return st.one_of(*options)


@lru_cache(maxsize=None)
def atom(width: int | None = None, height: int | None = None, negations: bool = True):
    return st.builds(
        Atom,
        st.sampled_from(PREDS),
        coord("x", width),
        coord("y", height),
        st.booleans() if negations else st.just(False),
    )


@lru_cache(maxsize=None)
def condition(min_atoms: int, max_atoms: int, **kw):
    return st.lists(atom(**kw), min_size=min_atoms, max_size=max_atoms).map(lambda atoms: Condition(tuple(atoms)))


@st.composite
def action(draw, name: str):
    return Action(name, ("x", "y"), draw(condition(0, 3)), draw(condition(1, 3)))


@lru_cache(maxsize=None)
def goal_list(width: int, height: int, negations: bool):
    return st.lists(condition(1, 3, width=width, height=height, negations=negations), max_size=3)


@st.composite
def domain(draw, max_actions: int = 3):
    sides = []
    for prefix in ("b", "w"):
        n = draw(st.integers(1, max_actions))
        sides.append(tuple(draw(action(f"{prefix}{i}")) for i in range(n)))
    return Domain(*sides)


@st.composite
def problem(draw, dom: Domain, max_width: int = 4, max_height: int = 3, max_depth: int = 5):
    width = draw(st.integers(1, max_width))
    height = draw(st.integers(1, max_height))
    cells = [(x, y) for y in range(1, height + 1) for x in range(1, width + 1)]
    values = draw(st.lists(st.sampled_from(PREDS), min_size=len(cells), max_size=len(cells)))
    init = tuple(Atom(v, Absolute(x), Absolute(y)) for (x, y), v in zip(cells, values) if v != "open")
    goals = []
    for _side in ("black", "white"):
        goals.append(draw(goal_list(width, height, draw(st.booleans()))))
    depth = draw(st.integers(1, max_depth))
    black_first = draw(st.booleans())
    candidate = Problem(width, height, init, depth, tuple(goals[0]), tuple(goals[1]), black_first)
    # keep only goals that do not hold initially (sanity condition 1)
    game = Game(dom, candidate)
    keep = []
    for goals_of_side in (candidate.black_goals, candidate.white_goals):
        kept = []
        for goal in goals_of_side:
            single = Game(dom, Problem(width, height, init, depth, (goal,), (), black_first))
            if not single.black.won(game.initial.black, game.initial.white):
                kept.append(goal)
        keep.append(tuple(kept))
    return Problem(width, height, init, depth, keep[0], keep[1], black_first)


@st.composite
def game(draw, **kw):
    """A (Domain, Problem) pair that passes `check_model`."""
    dom = draw(domain())
    return dom, draw(problem(dom, **kw))


POSITIONAL_DOMAIN = Domain(
    (Action("occupy", ("x", "y"), Condition((Atom("open", Relative("x", 0), Relative("y", 0)),)),
            Condition((Atom("black", Relative("x", 0), Relative("y", 0)),))),),
    (Action("occupy", ("x", "y"), Condition((Atom("open", Relative("x", 0), Relative("y", 0)),)),
            Condition((Atom("white", Relative("x", 0), Relative("y", 0)),))),),
)

_DIHEDRAL = (
    lambda dx, dy: (dx, dy), lambda dx, dy: (-dx, dy), lambda dx, dy: (dx, -dy), lambda dx, dy: (-dx, -dy),
    lambda dx, dy: (dy, dx), lambda dx, dy: (-dy, dx), lambda dx, dy: (dy, -dx), lambda dx, dy: (-dy, -dx),
)


@st.composite
def shape_goals(draw, side: str):
    """A small shape (1-3 cells, offsets from ?x,?y) in all its rotations and
    reflections, as HTTT states goals: the goal set is symmetric, so with an
    empty board the game has board symmetries for the encodings to use."""
    offsets = draw(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 1)), min_size=1, max_size=3, unique=True))
    goals = set()
    for transform in _DIHEDRAL:
        cells = sorted({transform(dx, dy) for dx, dy in offsets})
        goals.add(tuple(Atom(side, Relative("x", dx), Relative("y", dy)) for dx, dy in cells))
    return tuple(Condition(atoms) for atoms in sorted(goals, key=repr))


@st.composite
def set_goals(draw, side: str, width: int, height: int):
    """Explicit winning sets, as Hex problems state them."""
    cell = st.tuples(st.integers(1, width), st.integers(1, height))
    sets = draw(st.lists(st.lists(cell, min_size=1, max_size=3, unique=True), max_size=4))
    return tuple(Condition(tuple(Atom(side, Absolute(x), Absolute(y)) for x, y in s)) for s in sets)


@st.composite
def positional_game(draw, max_width: int = 4, max_height: int = 3, max_depth: int = 7):
    """A positional game (both sides claim open cells; goals of own-colour
    cells only) that passes `check_model`, symmetric about half of the time."""
    width = draw(st.integers(1, max_width))
    height = draw(st.integers(1, max_height))
    cells = [(x, y) for y in range(1, height + 1) for x in range(1, width + 1)]
    symmetric = draw(st.booleans())
    if symmetric:
        init = ()
        goals = [draw(shape_goals("black")), draw(shape_goals("white"))]
    else:
        values = draw(st.lists(st.sampled_from(("open", "open", "black", "white")), min_size=len(cells), max_size=len(cells)))
        init = tuple(Atom(v, Absolute(x), Absolute(y)) for (x, y), v in zip(cells, values) if v != "open")
        goals = [draw(set_goals("black", width, height)), draw(set_goals("white", width, height))]
    depth = draw(st.integers(1, max_depth))
    black_first = draw(st.booleans())
    game = Game(POSITIONAL_DOMAIN, Problem(width, height, init, depth, (), (), black_first))
    kept = []
    for side_goals in goals:
        # goals already met in the initial position are dropped (sanity condition 1)
        single = [g for g in side_goals if not Game(POSITIONAL_DOMAIN, Problem(width, height, init, depth, (g,), (), black_first)).black.won(game.initial.black, game.initial.white)]
        kept.append(tuple(single))
    return POSITIONAL_DOMAIN, Problem(width, height, init, depth, kept[0], kept[1], black_first)


def gravity_action(side: str, below: str) -> Action:
    """Connect-4's claim on top of a column: the cell below must be taken
    (`below` "taken"), or be a stone of the given colour."""
    here, under = (Relative("x", 0), Relative("y", 0)), (Relative("x", 0), Relative("y", 1))
    wait = Atom("open", *under, True) if below == "taken" else Atom(below, *under)
    return Action("onTop", ("x", "y"), Condition((Atom("open", *here), wait)), Condition((Atom(side, *here),)))


def gravity_domain(black_below: str = "taken", white_below: str = "taken") -> Domain:
    """Columns filled bottom up, as in Connect-4 (the defaults), or with a
    side that may only stack on stones of one colour and so can run out of
    moves with cells still open."""
    return Domain(
        *(
            (
                gravity_action(side, below),
                Action("bottom", ("x", "y"), Condition((Atom("open", Relative("x", 0), Extreme("ymax")),)),
                       Condition((Atom(side, Relative("x", 0), Extreme("ymax")),))),
            )
            for side, below in (("black", black_below), ("white", white_below))
        )
    )


@lru_cache(maxsize=None)
def _claimed_coord(axis: str):
    return st.sampled_from((Relative(axis, 0), Relative(axis, 0), Extreme(f"{axis}min"), Extreme(f"{axis}max")))


_REQUIREMENT = st.tuples(st.sampled_from(("taken", "black", "white")), st.integers(-1, 1), st.integers(-1, 1)).filter(lambda r: r[1:] != (0, 0))


@st.composite
def claim_action(draw, name: str, side: str):
    """An action that claims one open cell once 0-2 other cells are owned
    (by a given side, or taken by either)."""
    x, y = draw(_claimed_coord("x")), draw(_claimed_coord("y"))
    pre = [Atom("open", x, y)]
    for kind, dx, dy in draw(st.lists(_REQUIREMENT, max_size=2)):
        at = (Relative("x", dx), Relative("y", dy))
        pre.append(Atom("open", *at, True) if kind == "taken" else Atom(kind, *at))
    return Action(name, ("x", "y"), Condition(tuple(pre)), Condition((Atom(side, x, y),)))


@st.composite
def claiming_game(draw, max_width: int = 4, max_height: int = 3, max_depth: int = 7):
    """A claiming game (each move claims one open cell, perhaps once other
    cells are owned; goals of own-colour cells only) that passes
    `check_model`: Connect-style gravity about a third of the time (a side
    sometimes stacking only on stones of one colour), random claim rules
    otherwise; with both, a side can run out of moves early."""
    if draw(st.integers(0, 2)) == 0:
        below = st.sampled_from(("taken", "taken", "black", "white"))
        dom = gravity_domain(draw(below), draw(below))
    else:
        sides = []
        for prefix, side in (("b", "black"), ("w", "white")):
            n = draw(st.integers(1, 2))
            sides.append(tuple(draw(claim_action(f"{prefix}{i}", side)) for i in range(n)))
        dom = Domain(*sides)
    _, problem = draw(positional_game(max_width, max_height, max_depth))  # goals do not depend on the rules
    return dom, problem
