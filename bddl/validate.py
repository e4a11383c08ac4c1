"""Semantic checks: does a parsed model describe a game we can play and encode?

Each check is a pure function from AST to a list of diagnostics (errors and
warnings); nothing is mutated and nothing is raised until `check_model`
collects the lot, so a user sees every problem of a file at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from .ast import PREDICATES, Absolute, Action, Atom, Condition, Coord, Domain, Extreme, Named, Problem, Relative, Span
from .bounds import action_bounds, condition_bounds
from .suggest import did_you_mean
from .errors import BddlLimitError, BddlSemanticError, Diagnostic, error, warning

COORD_FORMS = "?x, ?x+k or ?x-k (x position); ?y, ?y+k or ?y-k (y position); xmin/xmax, ymin/ymax; integers in problem files"
ATOM_FORM = "open(e1,e2), black(e1,e2) or white(e1,e2), possibly inside NOT(...)"


@dataclass(frozen=True)
class Limits:
    """Sizes past which no solver has a chance; they catch typos like `#depth 1000001`.

    Both can be raised from the command line (`--max-board-side`, `--max-depth`)."""

    max_board_side: int = 1000
    max_depth: int = 10_000


def _coord_problems(coord: Coord, axis: str, absolute_ok: bool) -> list[Diagnostic]:
    other = "y" if axis == "x" else "x"
    if isinstance(coord, Relative):
        if coord.var == other:
            return [error(f"?{other} cannot stand in the {axis} position of an atom (the {axis} position takes ?{axis})", coord.span, COORD_FORMS)]
        if coord.var != axis:
            return [error(f"unknown variable '?{coord.var}' (the {axis} position takes ?{axis})", coord.span, COORD_FORMS)]
        return []
    if isinstance(coord, Extreme):
        if coord.name[0] != axis:
            return [error(f"'{coord.name}' cannot stand in the {axis} position of an atom (did you mean '{axis}{coord.name[1:]}'?)", coord.span, COORD_FORMS)]
        return []
    if isinstance(coord, Absolute):
        if not absolute_ok:
            return [
                error(
                    "absolute coordinates are not allowed in a domain file (the board size is not known there)",
                    coord.span,
                    f"a relative coordinate (?{axis}, ?{axis}+k, ?{axis}-k) or {axis}min/{axis}max",
                )
            ]
        return []
    if isinstance(coord, Named):
        edges = (f"{axis}min", f"{axis}max")
        return [error(f"'{coord.name}' is not a coordinate" + did_you_mean(coord.name, edges), coord.span, COORD_FORMS)]
    raise TypeError(coord)


def _atom_problems(atom: Atom, absolute_ok: bool) -> list[Diagnostic]:
    found = []
    if atom.pred not in PREDICATES:
        found.append(error(f"unknown predicate '{atom.pred}'" + did_you_mean(atom.pred, PREDICATES), _name_span(atom), ATOM_FORM))
    found += _coord_problems(atom.x, "x", absolute_ok)
    found += _coord_problems(atom.y, "y", absolute_ok)
    return found


def _name_span(atom: Atom) -> Span:
    s = atom.span
    column = s.column + (4 if atom.negated else 0)
    return Span(s.file, s.line, column, s.line, column + len(atom.pred))


def _condition_problems(condition: Condition, absolute_ok: bool) -> list[Diagnostic]:
    return [d for atom in condition.atoms for d in _atom_problems(atom, absolute_ok)]


def validate_domain(domain: Domain) -> list[Diagnostic]:
    """Domain-only checks.

    Postcondition: when no error is returned, every atom has a known predicate
    and well-formed coordinates with no absolute integers, every action has
    the parameters (?x, ?y), and action names are unique per side."""
    found: list[Diagnostic] = []
    for side, actions in (("Black", domain.black_actions), ("White", domain.white_actions)):
        seen: dict[str, Action] = {}
        for action in actions:
            if action.name in seen:
                first = seen[action.name].name_span
                found.append(
                    error(
                        f"{side} already has an action named '{action.name}' (line {first.line})",
                        action.name_span,
                        "a name that is unique among this side's actions",
                    )
                )
            else:
                seen[action.name] = action
            if action.parameters != ("x", "y"):
                written = ", ".join(f"?{p}" for p in action.parameters)
                found.append(
                    error(
                        f"action '{action.name}' has parameters ({written})",
                        action.name_span,
                        ":parameters (?x,?y)",
                    )
                )
            found += _condition_problems(action.precondition, absolute_ok=False)
            found += _condition_problems(action.effect, absolute_ok=False)
    return found


def local_problems(model: Domain | Problem) -> list[Diagnostic]:
    """The checks of single atoms, which need no board: for a file that has
    syntax errors too, so that its misspelt predicates are reported in the
    same run (its board may be among what could not be read)."""
    if isinstance(model, Domain):
        return validate_domain(model)
    atoms = list(model.init) + [atom for goal in model.black_goals + model.white_goals for atom in goal.atoms]
    return [d for atom in atoms for d in _atom_problems(atom, absolute_ok=True)]


def _on_board(coord: Coord, axis: str, size: int) -> bool:
    return not isinstance(coord, Absolute) or 1 <= coord.value <= size


def _off_board(atom: Atom, problem: Problem, what: str) -> list[Diagnostic]:
    found = []
    for coord, axis, size in ((atom.x, "x", problem.width), (atom.y, "y", problem.height)):
        if isinstance(coord, Absolute) and not _on_board(coord, axis, size):
            found.append(
                error(
                    f"{what} refers to {axis} = {coord.value}, off the {problem.width}x{problem.height} board",
                    coord.span,
                    f"{'an' if axis == 'x' else 'a'} {axis} index from 1 to {size}",
                )
            )
    return found


def validate_problem(problem: Problem, limits: Limits = Limits()) -> list[Diagnostic]:
    """Problem-only checks.

    Postcondition: when no error is returned, the board is at least 1x1 and
    within the limits, the depth is at least 1 and within the limits, `#init`
    lists distinct on-board cells as black or white with absolute
    coordinates, and every absolute coordinate of a goal is on the board."""
    found: list[Diagnostic] = []
    for value, label in ((problem.width, "width"), (problem.height, "height")):
        if value < 1:
            found.append(error(f"the board {label} must be at least 1, not {value}", problem.size_span, "#boardsize W H with W, H >= 1"))
        elif value > limits.max_board_side:
            found.append(
                error(
                    f"a board {label} of {value} is beyond the limit of {limits.max_board_side}",
                    problem.size_span,
                    f"a smaller board, or raise the limit with --max-board-side {value}",
                    code="limit",
                )
            )
    if problem.depth < 1:
        found.append(error(f"the depth must be at least 1, not {problem.depth}", problem.depth_span, "#depth D with D >= 1"))
    elif problem.depth > limits.max_depth:
        found.append(
            error(
                f"a depth of {problem.depth} is beyond the limit of {limits.max_depth}",
                problem.depth_span,
                f"a smaller depth, or raise the limit with --max-depth {problem.depth}",
                code="limit",
            )
        )
    if any(d.severity == "error" for d in found):
        return found  # positions cannot be checked against a broken board

    cells: dict[tuple[int, int], Atom] = {}
    for atom in problem.init:
        problems = _atom_problems(atom, absolute_ok=True)
        if atom.negated:
            problems.append(error("NOT cannot be used in '#init'", atom.span, "black(i,j) or white(i,j) with absolute i, j"))
        if atom.pred == "open":
            problems.append(
                error(
                    "'open' cannot be listed in '#init': every cell not listed is open",
                    _name_span(atom),
                    "black(i,j) or white(i,j); leave open cells out",
                )
            )
        for coord, axis in ((atom.x, "x"), (atom.y, "y")):
            if isinstance(coord, Relative):
                problems.append(
                    error(
                        f"'#init' needs absolute coordinates, not ?{coord.var}",
                        coord.span,
                        f"an integer from 1 to the board {'width' if axis == 'x' else 'height'}, or {axis}min/{axis}max",
                    )
                )
        if not problems:
            problems += _off_board(atom, problem, "this '#init' atom")
        if not problems:
            x = _absolute(atom.x, problem.width, problem.height)
            y = _absolute(atom.y, problem.width, problem.height)
            if (x, y) in cells:
                first = cells[(x, y)].span
                problems.append(
                    error(
                        f"cell ({x},{y}) is listed twice in '#init' (first at line {first.line}, column {first.column})",
                        atom.span,
                        "each cell at most once",
                    )
                )
            else:
                cells[(x, y)] = atom
        found += problems

    for goals, label in ((problem.black_goals, "Black's goal"), (problem.white_goals, "White's goal")):
        for goal in goals:
            for atom in goal.atoms:
                problems = _atom_problems(atom, absolute_ok=True)
                if not problems:
                    problems = _off_board(atom, problem, label)
                found += problems
    return found


def _absolute(coord: Coord, width: int, height: int) -> int:
    if isinstance(coord, Absolute):
        return coord.value
    assert isinstance(coord, Extreme)
    return {"xmin": 1, "ymin": 1, "xmax": width, "ymax": height}[coord.name]


def validate_game(domain: Domain, problem: Problem, initial_state: bool = True) -> list[Diagnostic]:
    """Checks that need both files; call only when both validate on their own.

    Postcondition: when no error is returned and `initial_state` is set,
    neither side's goal holds in the initial state (sanity condition 1 of
    Def 9; `bddlc check` turns it off to report that condition itself, with
    the board).  Warnings name actions that can be played nowhere on this
    board and goals that can hold nowhere.  Nothing here visits the board
    cell by cell: the initial state is searched from its stones
    (`bddl.situations`)."""
    from .situations import first_holding

    found: list[Diagnostic] = []
    w, h = problem.width, problem.height
    for side, actions in (("Black", domain.black_actions), ("White", domain.white_actions)):
        for action in actions:
            if action_bounds(action, w, h).empty:
                found.append(
                    warning(
                        f"{side}'s action '{action.name}' fits nowhere on the {w}x{h} board, so it can never be played",
                        action.name_span,
                        "note: its precondition and effect together reach further than the board is wide or high",
                    )
                )
    for side, goals in (("Black", problem.black_goals), ("White", problem.white_goals)):
        for goal in goals:
            if condition_bounds(goal, w, h).empty:
                found.append(
                    warning(
                        f"this goal of {side} fits nowhere on the {w}x{h} board, so it can never hold",
                        goal.span,
                        "note: its atoms reach further than the board is wide or high",
                    )
                )
    if not initial_state:
        return found
    stones = initial_stones(problem)
    for side, goals in (("Black", problem.black_goals), ("White", problem.white_goals)):
        holding = next((g for g in goals if first_holding(g, stones, w, h) is not None), None)
        if holding is not None:
            found.append(
                error(
                    f"{side}'s goal already holds in the initial state",
                    holding.span,
                    "note: the initial state must be won by nobody (sanity condition 1, Def 9 of the BDDL paper)",
                    code="initial-won",
                )
            )
    return found


def initial_stones(problem: Problem) -> dict[tuple[int, int], str]:
    """The cells `#init` fills, with their colour (a validated problem's)."""
    return {(_absolute(a.x, problem.width, problem.height), _absolute(a.y, problem.width, problem.height)): a.pred for a in problem.init}


def check_model(domain: Domain, problem: Problem, limits: Limits = Limits(), initial_state: bool = True) -> list[Diagnostic]:
    """Every diagnostic for a domain/problem pair; raises `BddlSemanticError`
    (or `BddlLimitError` when only limits were exceeded) if any is an error,
    and returns the warnings otherwise.  `initial_state=False` skips sanity
    condition 1 (see `validate_game`)."""
    found = validate_domain(domain) + validate_problem(problem, limits)
    if not any(d.severity == "error" for d in found):
        found += validate_game(domain, problem, initial_state)
    errors = [d for d in found if d.severity == "error"]
    if errors:
        limit_only = all(d.code == "limit" for d in errors)
        raise (BddlLimitError if limit_only else BddlSemanticError)(errors + [d for d in found if d.severity != "error"])
    return found
