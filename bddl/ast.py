"""The BDDL abstract syntax tree: frozen values that remember where they came from.

Every node carries a `Span` so that any later pass can point into the source,
but spans are excluded from equality and hashing: two models are equal when
they say the same thing, wherever they were written.  That is what lets a
parse -> print -> parse round trip, and hand-built expected trees, compare
equal to parsed ones.  Constructors do not validate; checks are passes
(`bddl.validate`), so that an invalid model can still be represented and
reported precisely.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

PREDICATES = ("open", "black", "white")
"""The only predicates BDDL has; the order is the one the printer and the
explicit engine use for cell values."""

EXTREMES = ("xmin", "xmax", "ymin", "ymax")


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file, 1-based lines and columns (end exclusive)."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int


NO_SPAN = Span("<built>", 0, 0, 0, 0)


def _span() -> Span:
    return field(default=NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Relative:
    """`?x+k`, `?x-k` or `?x` (offset 0): a coordinate relative to the action
    or goal position.  `var` is the variable's name without `?` ("x" or "y"
    in a valid model; anything else is kept so it can be reported)."""

    var: str
    offset: int = 0
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Absolute:
    """An absolute board index (1-based), allowed in problem files only."""

    value: int
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Extreme:
    """`xmin`, `xmax`, `ymin` or `ymax`: a board edge, known once the board size is."""

    name: str
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Named:
    """A bare word where a coordinate was expected that is not a board edge.

    Kept in the tree (rather than rejected by the parser) so the validator can
    report it with the list of valid forms."""

    name: str
    span: Span = _span()


Coord = Union[Relative, Absolute, Extreme, Named]


@dataclass(frozen=True, slots=True)
class Atom:
    """`pred(x, y)` or, with `negated`, `NOT(pred(x, y))`."""

    pred: str
    x: Coord
    y: Coord
    negated: bool = False
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Condition:
    """A conjunction of atoms (paper Def 1); parentheses in the source only group."""

    atoms: tuple[Atom, ...]
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Action:
    """One action of one side (paper Def 2); `parameters` is `("x", "y")` in a valid model."""

    name: str
    parameters: tuple[str, ...]
    precondition: Condition
    effect: Condition
    span: Span = _span()
    name_span: Span = _span()


@dataclass(frozen=True, slots=True)
class Domain:
    """A game domain: Black's and White's actions, in source order.

    `black_span` and `white_span` locate the section headers, so a side
    without actions can still be pointed at."""

    black_actions: tuple[Action, ...]
    white_actions: tuple[Action, ...]
    span: Span = _span()
    black_span: Span = _span()
    white_span: Span = _span()


@dataclass(frozen=True, slots=True)
class Problem:
    """A game instance (paper Def 3), generalised: any depth >= 1 and either side first.

    `width` is m (columns, the x range 1..m), `height` is n (rows, y in 1..n).
    `init` lists the occupied cells; every other cell is open.
    """

    width: int
    height: int
    init: tuple[Atom, ...]
    depth: int
    black_goals: tuple[Condition, ...]
    white_goals: tuple[Condition, ...]
    black_first: bool = True
    span: Span = _span()
    size_span: Span = _span()
    depth_span: Span = _span()
    goal_section_spans: tuple[Span, Span] = field(default=(NO_SPAN, NO_SPAN), compare=False, repr=False)
    """Where `#blackgoals` and `#whitegoals` stand, for warnings about a side's goals as a whole."""
    goals_written_false: tuple[bool, bool] = field(default=(False, False), compare=False, repr=False)
    """Whether Black's, White's goal section says `False`: no goal, on purpose."""
