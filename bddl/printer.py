"""AST -> BDDL text, in the paper's syntax.

The printer is the inverse of the parser up to layout: `parse(print(ast)) ==
ast` for every tree the parser produces.  That round trip is what the tests
use to show the parser keeps everything a model says, and it lets tools that
transform models (for example a model reduced to a counterexample) write
them back out.
"""

from __future__ import annotations

from .ast import Absolute, Action, Atom, Condition, Coord, Domain, Extreme, Named, Problem, Relative


def format_coord(coord: Coord) -> str:
    if isinstance(coord, Relative):
        if coord.offset > 0:
            return f"?{coord.var}+{coord.offset}"
        if coord.offset < 0:
            return f"?{coord.var}-{-coord.offset}"
        return f"?{coord.var}"
    if isinstance(coord, Absolute):
        return str(coord.value)
    if isinstance(coord, (Extreme, Named)):
        return coord.name
    raise TypeError(f"not a coordinate: {coord!r}")


def format_atom(atom: Atom) -> str:
    text = f"{atom.pred}({format_coord(atom.x)},{format_coord(atom.y)})"
    return f"NOT({text})" if atom.negated else text


def format_condition(condition: Condition) -> str:
    return "(" + " ".join(format_atom(a) for a in condition.atoms) + ")"


def _format_action(action: Action) -> list[str]:
    params = ",".join(f"?{p}" for p in action.parameters)
    return [
        f":action {action.name}",
        f":parameters ({params})",
        f":precondition {format_condition(action.precondition)}",
        f":effect {format_condition(action.effect)}",
    ]


def format_domain(domain: Domain) -> str:
    lines = ["#blackactions"]
    for action in domain.black_actions:
        lines.extend(_format_action(action))
    lines.append("#whiteactions")
    for action in domain.white_actions:
        lines.extend(_format_action(action))
    return "\n".join(lines) + "\n"


def format_problem(problem: Problem) -> str:
    lines = ["#boardsize", f"{problem.width} {problem.height}", "#init"]
    if problem.init:
        lines.append(" ".join(format_atom(a) for a in problem.init))
    lines += ["#depth", str(problem.depth)]
    if not problem.black_first:
        lines += ["#blackturn", "second"]
    lines.append("#blackgoals")
    lines.extend(format_condition(c) for c in problem.black_goals)
    lines.append("#whitegoals")
    lines.extend(format_condition(c) for c in problem.white_goals)
    return "\n".join(lines) + "\n"
