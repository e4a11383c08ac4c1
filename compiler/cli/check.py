"""`bddlc check DOMAIN PROBLEM [--json] [--reachable]`: the sanity conditions, and likely mistakes.

Exit status 0 when the three sanity conditions hold (warnings or not), 1
when one fails (or the model is not valid), 3 when `--reachable` finds more
positions than `--max-positions` allows.
"""

from __future__ import annotations

import argparse
import json
import sys

from .common import EXIT_BUDGET, EXIT_INPUT, EXIT_OK, add_model_arguments, counted, positive_int

SIDE = {"black": "Black", "white": "White"}
SYMBOLS = {"open": ".", "black": "B", "white": "W"}


def build_parser() -> argparse.ArgumentParser:
    from ..analysis.sanity import DEFAULT_MAX_POSITIONS

    p = argparse.ArgumentParser(
        prog="bddlc check",
        description="Check a game model against the sanity conditions of the BDDL paper (Def 9): "
        "the initial state is won by nobody, no Black move creates a White win, no White move "
        "creates a Black win.  The paper's encoding looks only at the mover's goals after a move, "
        "so it is right only for games that meet them.  Conditions 2 and 3 are decided by SAT over "
        "every state of the board, reachable or not, on the few cells a move and a goal can share, "
        "once per situation (interior, each edge and corner), so the work does not grow with the board; "
        "--exhaustive asks one SAT question over the whole board instead, and --reachable explores only "
        "the states reachable within the depth.  Also warns about actions and goals that can never fire, a side "
        "without actions, and cells no action can change.",
        epilog="exit status: 0 all conditions hold, 1 a condition fails (or a bad model), "
        "3 --reachable found too many positions",
    )
    add_model_arguments(p, "override the problem's depth (used by --reachable)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument(
        "--reachable",
        action="store_true",
        help="decide conditions 2 and 3 over the states reachable within the depth (game engine), "
        "not over all states (SAT); for small games",
    )
    p.add_argument(
        "--exhaustive",
        action="store_true",
        help="decide conditions 2 and 3 by one SAT question over the whole board rather than by "
        "locality (the same verdicts; for cross-checking, its size grows with the board)",
    )
    p.add_argument(
        "--max-positions",
        type=positive_int,
        default=None,  # DEFAULT_MAX_POSITIONS; None tells that it was not given, which without --reachable is a mistake
        metavar="N",
        help=f"with --reachable: give up (exit status 3) past N positions (default {DEFAULT_MAX_POSITIONS:,})",
    )
    return p


def run(args) -> int:
    from bddl.game import Game

    from ..analysis.sanity import DEFAULT_MAX_POSITIONS, ReachableTooLarge, check
    from .common import open_game

    opened = open_game(args, build_parser(), initial_state=False)
    if opened.language == "pg":  # the conditions are the language's own (docs/architecture.md: a place that asks)
        return _check_positional(args, opened)
    if args.max_positions is not None and not args.reachable:
        build_parser().error("--max-positions bounds the positions --reachable searches, and it was not given: "
                             "add --reachable, or drop --max-positions")
    model = opened.bddl
    try:
        report = check(
            model.domain,
            model.problem,
            reachable=args.reachable,
            exhaustive=args.exhaustive,
            max_positions=args.max_positions or DEFAULT_MAX_POSITIONS,
            warnings=model.warnings,
        )
    except ReachableTooLarge as exc:
        message = (
            f"too big for --reachable: {exc}; raise --max-positions, "
            "or drop --reachable to decide the conditions by SAT over all states"
        )
        if args.json:
            print(json.dumps(_head(opened) | {"ok": None, "error": message}))
        print(f"bddlc check: {message}", file=sys.stderr)
        return EXIT_BUDGET
    game = Game(model.domain, model.problem)
    if args.json:
        print(json.dumps(_head(opened) | report_json(report, game, model)))
    else:
        print(report_text(report, game, model))
    return EXIT_OK if report.ok else EXIT_INPUT


# -- positional games ------------------------------------------------------------

BY_CONSTRUCTION = "holds: a claim adds only the mover's own cell"


def _check_positional(args, opened) -> int:
    """A `.pg` game: conditions 2 and 3 hold by construction (a claim adds only the
    mover's cell), condition 1 is read off the initial stones; then the likely
    mistakes `compiler.analysis.pg_check` finds in the winning sets."""
    from bddl.pg.reader import load_pg_located

    from ..analysis.pg_check import check_pg

    if args.max_positions is not None and not args.reachable:
        build_parser().error("--max-positions bounds the positions --reachable searches, and it was not given: drop --max-positions")
    if args.reachable or args.exhaustive:
        option = "--reachable" if args.reachable else "--exhaustive"
        build_parser().error(f"{option} decides BDDL's conditions 2 and 3; in a positional game they hold by construction "
                             f"(a claim adds only the mover's cell): drop {option}")
    read = load_pg_located(opened.paths[0])
    report = check_pg(read)
    winner = report.initial_winner
    first = "holds" if winner is None else f"FAILS ({SIDE[winner]} owns a whole winning set before play; the rules give {SIDE[winner]} the game)"
    conditions = [(1, "the initial position is won by nobody", winner is None, first),
                  (2, "no Black move creates a White win", True, BY_CONSTRUCTION),
                  (3, "no White move creates a Black win", True, BY_CONSTRUCTION)]
    ok = winner is None
    if args.json:
        print(json.dumps(_head(opened) | {
            "depth": opened.depth,
            "board": {"cells": len(read.game.cells)},
            "method": "construction",
            "states": "every position: a claim adds only the mover's own cell",
            "ok": ok,
            "conditions": [{"number": n, "statement": s, "holds": h, "counterexamples": []} for n, s, h, _ in conditions],
            "warnings": [_diagnostic_json(d) for d in report.warnings],
        }))
        return EXIT_OK if ok else EXIT_INPUT
    lines = [f"sanity conditions (BDDL paper, Def 9) for {opened.paths[0]}:"]
    lines += [f"  {n}. {s}: {verdict}" for n, s, _, verdict in conditions]
    for diagnostic in report.warnings:
        lines += ["", diagnostic.render()]
    w = len(report.warnings)
    summary = "all 3 sanity conditions hold" if ok else "1 of 3 sanity conditions fails"
    summary += f"; {w} warning{'s' if w != 1 else ''}" if w else "; no warnings"
    print("\n".join(lines + ["", summary]))
    return EXIT_OK if ok else EXIT_INPUT


# -- text ------------------------------------------------------------------------


def report_text(report, game, model) -> str:
    problem = model.problem
    lines = [f"sanity conditions (BDDL paper, Def 9) for {model.domain_path} and {model.problem_path}:"]
    for result in report.conditions:
        verdict = "holds" if result.holds else "FAILS"
        if not result.holds and result.number > 1:
            n = len(result.counterexamples)
            verdict += f" ({n} action{'s' if n > 1 else ''})"
        lines.append(f"  {result.number}. {result.statement}: {verdict}")
    cells = problem.width * problem.height
    if report.method == "sat":
        lines.append(f"conditions 2 and 3 decided by SAT over all 3^{cells} states of the {problem.width}x{problem.height} board, reachable or not")
    else:
        lines.append(f"conditions 2 and 3 decided over the {counted(report.positions, 'position')} reachable within {counted(report.depth, 'ply', 'plies')}")
    for result in report.conditions:
        for example in result.counterexamples:
            lines.append("")
            lines += _counterexample_text(result.number, example, game)
    for diagnostic in report.warnings:
        lines.append("")
        lines.append(diagnostic.render())
    failed = sum(not c.holds for c in report.conditions)
    summary = "all 3 sanity conditions hold" if not failed else f"{failed} of 3 sanity conditions fail{'s' if failed == 1 else ''}"
    w = len(report.warnings)
    summary += f"; {w} warning{'s' if w != 1 else ''}" if w else "; no warnings"
    lines += ["", summary]
    return "\n".join(lines)


def _counterexample_text(number: int, example, game) -> list[str]:
    from bddl.errors import Diagnostic

    from ..analysis.sanity import InitialWin

    goal = example.goal
    owner = SIDE[goal.side]
    if isinstance(example, InitialWin):
        head = Diagnostic(
            f"{owner}'s goal already holds in the initial state, placed at ({goal.x},{goal.y}) (sanity condition 1)",
            goal.goal.span,
            severity="error",
        ).render()
        return [head, "  the initial state:"] + ["    " + row for row in game.render(example.state).splitlines()]
    note = Diagnostic(f"{owner}'s goal that holds, placed at ({goal.x},{goal.y})", goal.goal.span, severity="note").render()
    mover, action = SIDE[example.mover], example.action
    head = Diagnostic(
        f"{mover}'s action '{action.name}' can create a {owner} win (sanity condition {number})",
        action.name_span,
        severity="error",
    ).render()
    when = f" as move {example.ply} of a play from the initial state" if example.ply is not None else ""
    story = f"  {mover} plays {action.name} at ({example.x},{example.y}){when}; {owner} has not won before the move, and has after it:"
    boards = _side_by_side(game.render(example.before).splitlines(), game.render(example.after).splitlines())
    return [head, story] + boards + [note]


def _side_by_side(before: list[str], after: list[str]) -> list[str]:
    """Two boards next to each other, captioned, an arrow at mid height."""
    width = max(len(line) for line in before + ["before"])
    rows = ["    " + "before".ljust(width) + "     after"]
    middle = (len(before) + 1) // 2
    for i, (a, b) in enumerate(zip(before, after)):
        rows.append("    " + a.ljust(width) + (" --> " if i == middle else "     ") + b)
    return rows


# -- JSON -------------------------------------------------------------------------


def _head(opened) -> dict:
    from ..schema import SCHEMA_VERSION
    from .common import game_json

    keys = dict.fromkeys(("depth", "board", "method", "states", "positions", "ok", "conditions", "warnings", "error"))
    return {"schema": SCHEMA_VERSION, "command": "check", **game_json(opened)} | keys


def report_json(report, game, model) -> dict:
    return {
        "board": {"width": model.problem.width, "height": model.problem.height},
        "depth": report.depth,
        "method": report.method,
        "states": "all states of the board, reachable or not" if report.method == "sat" else "states reachable within the depth",
        "positions": report.positions,
        "ok": report.ok,
        "conditions": [
            {
                "number": c.number,
                "statement": c.statement,
                "holds": c.holds,
                "counterexamples": [_counterexample_json(e, game) for e in c.counterexamples],
            }
            for c in report.conditions
        ],
        "warnings": [_diagnostic_json(d) for d in report.warnings],
    }


def _rows(game, state) -> list[str]:
    g = game.geometry
    return ["".join(SYMBOLS[state.value(g, x, y)] for x in range(1, g.width + 1)) for y in range(1, g.height + 1)]


def _location(span) -> dict:
    return {"file": span.file, "line": span.line, "column": span.column}


def _counterexample_json(example, game) -> dict:
    from ..analysis.sanity import InitialWin

    goal = example.goal
    hit = {"side": goal.side, "index": goal.index, "x": goal.x, "y": goal.y, "at": _location(goal.goal.span)}
    if isinstance(example, InitialWin):
        return {"state": _rows(game, example.state), "goal": hit}
    return {
        "mover": example.mover,
        "action": example.action.name,
        "action_index": example.action_index,
        "action_at": _location(example.action.name_span),
        "x": example.x,
        "y": example.y,
        "before": _rows(game, example.before),
        "after": _rows(game, example.after),
        "goal": hit,
        "ply": example.ply,
    }


def _diagnostic_json(d) -> dict:
    return {"severity": d.severity, "message": d.message, "at": _location(d.span), "hint": d.hint}
