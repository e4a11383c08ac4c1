"""`bddlc solve`: who wins, and Black's first move, from a real QBF solver (both languages)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .common import (
    EXIT_DISAGREE,
    add_certificate_argument,
    counted,
    certificate_path,
    write_certificate_for,
    EXIT_FALSE,
    white_first,
    EXIT_TRUE,
    EXIT_UNKNOWN,
    add_encoding_argument,
    add_model_arguments,
    add_solver_arguments,
    checked_encoding,
    game_json,
    move_json,
    moves_here,
    open_game,
    paragraph,
    plies,
)

from .show import add_svg_argument, svg_path, write_position_svg

if TYPE_CHECKING:
    from ..solving.results import SolveResult
    from ..solving.routes import Answer


def build_parser() -> argparse.ArgumentParser:
    from ..solving.qbf.preprocessing import PREPROCESSORS

    p = argparse.ArgumentParser(
        prog="bddlc solve",
        description=paragraph("Decide whether Black has a winning strategy of at most DEPTH moves, and show Black's "
        "first winning move (checked against the game's rules) and the board after it.  The game is a BDDL domain "
        "and problem, or a positional game GAME.pg.  By default (--engine auto) two routes race, one process each: "
        "the QBF route (the game's encoding and a QBF solver: --encoding, --solver and --preprocess configure it) "
        "and the explicit engine that suits the game; the first verdict wins and the last line says which route "
        "gave it.  --engine qbf or --engine search keeps one route."),
        epilog="exit status: 10 Black wins, 20 no winning strategy, 0 unknown (time limit), "
        "1 bad input, 2 usage error, 5 the routes disagree (--cross-check).\n\n"
        "examples:\n"
        "  bddlc solve domains/positional.bddl problems/httt/tic_4x4_d5.bddl\n"
        "  bddlc solve domains/breakthrough.bddl problems/breakthrough/second_2x4_d8.bddl --reply-to 'right-diagonal 1 2'\n"
        "  bddlc solve problems/pg/tictactoe_3x3_d5.pg --engine qbf --encoding corrective",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_model_arguments(p, "override the problem's depth (the number of plies)")
    add_solver_arguments(p)
    add_encoding_argument(p, "the encoding (default: auto for a BDDL model; for a .pg game et on a Hex board, else cor+)")
    p.add_argument("--preprocess", choices=PREPROCESSORS, default="none", help="preprocess with Bloqqer (checked and repaired; default none)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    add_engine_arguments(p)
    add_certificate_argument(p)
    p.add_argument(
        "--reply-to",
        metavar="MOVE",
        help="when White moves first: Black's winning reply to this White move, e.g. 'occupy 3 2' (a cell's name in a .pg game)",
    )
    add_svg_argument(p, "the position shown: after Black's first move (or reply) when Black wins, else the one decided")
    return p


def add_engine_arguments(p: argparse.ArgumentParser) -> None:
    from .common import add_engine_argument, add_progress_argument
    from .core_options import add_core_argument

    add_engine_argument(
        p,
        "",
        "auto (the default): the QBF route and the explicit engine that suits the game side by side, one "
        "process each; the first verdict wins, the other is stopped, and the last line (JSON: answered_by) says "
        "which answered.  qbf: a QBF solver on the game's encoding alone; search: the explicit engine alone "
        "(one route, for research and reproducible output)",
    )
    p.add_argument(
        "--cross-check",
        action="store_true",
        help="with --engine auto: run both routes to their end and exit with status 5, naming both, if they disagree",
    )
    add_progress_argument(p)
    add_core_argument(p, "the search route's engine (--engine auto or search); ")


def engine_options(args, parser, model) -> dict:
    """`routes.answer`'s options from --engine, --cross-check, --progress, --core; usage errors where they cannot apply."""
    from .common import engine_of, race_progress
    from .core_options import solve_core_of

    engine = engine_of(args, parser)
    if args.cross_check and engine != "auto":
        parser.error(f"--cross-check races the routes: it needs --engine auto, not --engine {engine}")
    return dict(engine=engine, cross_check=args.cross_check, on_wait=race_progress("solve", engine, args.progress),
                core=solve_core_of(args, model, parser, engine))


def verdict_line(result) -> str:
    if result.black_wins is None:
        return f"unknown: {result.reason}"
    if result.black_wins:
        return f"Black wins within {plies(result.depth)}."
    return f"Black has no winning strategy within {plies(result.depth)}."


def summary_line(result) -> str:
    if result.solver == "search":
        positions = "" if result.positions is None else f" ({counted(result.positions, 'position')})"
        return f"answered by {result.answered_by}{positions}, time: {result.seconds:.2f} s"
    if result.solver == "portfolio":
        return f"no route answered, time: {result.seconds:.2f} s"
    size = result.size
    program = (result.answered_by or "").rsplit(" / ", 1)[-1] or None
    solver = result.solver if program in (None, result.solver) else f"{result.solver} ({program} answered)"
    gates = "" if size.gates is None else f"{size.gates} gates, "
    text = f"solver: {solver}, encoding: {result.encoding} ({size.vars} variables, {gates}{size.clauses} clauses)"
    if result.depth_solved is not None and result.depth_solved < result.depth:
        text += f", decided at depth {result.depth_solved}"
    if result.preprocess != "none":
        text += f", preprocessing: {result.preprocess_note or result.preprocess}"
    return text + f", time: {result.seconds:.2f} s"


@dataclass(frozen=True)
class Reply:
    """Black's answer to the White move of --reply-to: the solve of the
    position after it, or (`after` None) why no solve was needed."""

    after: SolveResult | None
    why: str | None = None


def run(args) -> int:
    parser = build_parser()
    certificate_path(args, parser)
    model = open_game(args, parser, print_warnings=True)
    encoding = checked_encoding(model, args.encoding, parser)
    white_move = _white_move(args, model, parser)
    svg = svg_path(args, parser, model.rules)
    options = dict(encoding=encoding, solver=args.solver, preprocess=args.preprocess, timeout=args.timeout,
                   **engine_options(args, parser, model))
    answer, reply = decide(model, white_move, options)
    result = answer.result
    status = {True: EXIT_TRUE, False: EXIT_FALSE, None: EXIT_UNKNOWN}[result.black_wins]
    if answer.disagreement is not None:
        first, second = answer.disagreement
        print(f"bddlc solve: the routes disagree: {first}; {second} (a bug in bddlc or in a solver)", file=sys.stderr)
        status = EXIT_DISAGREE
    elif args.cross_check and not args.json:
        from ..solving.routes import verdict_words

        for route, verdict, why in answer.others:  # each route ran to its end: say what it found
            said = verdict_words(verdict) if verdict is not None else why or verdict_words(None)
            agrees = " (agrees)" if verdict is not None and verdict == result.black_wins else ""
            print(f"bddlc solve: cross-check: {route}: {said}{agrees}", file=sys.stderr)
    # the certificate comes from the explicit engine asked with the verdict known, whichever route answered:
    # its moves depend on the game's values alone, so the file does too (docs/certificates.md)
    certificate = write_certificate_for(args, model, result.black_wins)
    write_position_svg(svg, model.rules, *shown_position(model, result, white_move, reply))
    if args.json:
        print(json.dumps(result_json(model, result, white_move, reply, answer) | {"certificate": certificate}))
        return status
    return print_result(model, result, white_move, reply, status)


def _white_move(args, model, parser):
    """The White first move --reply-to names (a `Play`), or None; a usage error where it makes no sense."""
    from bddl.notation import MoveInputError

    if args.reply_to is None:
        return None
    if model.black_first:
        parser.error("--reply-to is for games where White moves first (#blackturn second, or a .pg game whose first time point is White's); Black moves first here, and bddlc solve without it names Black's first move: drop --reply-to")
    try:
        return model.rules.parse_play(model.rules.initial, args.reply_to)
    except MoveInputError as exc:
        parser.error(f"--reply-to: {exc}{moves_here(model.rules, model.rules.initial)}")


def decide(model, white_move, options: dict) -> tuple[Answer, Reply | None]:
    """Solve the game and, when Black wins and a White first move is given, the position after it."""
    from bddl.rules import WHITE

    from ..solving.routes import answer

    found = answer(model, **options)
    if white_move is None or not found.result.black_wins:
        return found, None
    if model.rules.won(white_move.after, WHITE):
        return found, Reply(None, "White reaches its goal with that move")
    if model.depth < 2:
        return found, Reply(None, "no plies are left for Black after that move")
    options = {**options, "cross_check": False}
    return found, Reply(answer(model.at_position(white_move.after), **options).result)


def shown_position(model, result: SolveResult, white_move, reply: Reply | None) -> tuple:
    """The position --svg draws, the move that led there and the one before it: after Black's first move
    (or its reply to --reply-to's move) when Black wins and it is known, else the position decided."""
    initial = model.rules.initial
    if white_move is not None:
        answer = reply.after.first_move if reply is not None and reply.after is not None else None
        if answer is None:
            return white_move.after, white_move, initial
        answer = model.rules.parse_play(white_move.after, answer.text)  # the reply's solve counts plies from its own start
        return answer.after, answer, white_move.after
    if result.black_wins and model.black_first and result.first_move is not None:
        return result.first_move.after, result.first_move, initial
    return initial, None, None


def result_json(model, result: SolveResult, white_move, reply: Reply | None, found: Answer | None = None) -> dict:
    from ..schema import SCHEMA_VERSION

    after = reply.after if reply else None
    return {
        "schema": SCHEMA_VERSION,
        "command": "solve",
        **game_json(model),
        "black_wins": result.black_wins,
        "depth": result.depth,
        "depth_solved": result.depth_solved,
        "solver": result.solver,
        "answered_by": result.answered_by,
        "first_move": move_json(result.first_move),
        "move_source": result.move_source,
        "seconds": round(result.seconds, 6),
        "encoding": {"name": result.encoding, "vars": result.size.vars, "gates": result.size.gates, "clauses": result.size.clauses},
        "black_first": result.black_first,
        "preprocess": result.preprocess,
        "preprocess_note": result.preprocess_note,
        "reason": result.reason,
        "reply_to": move_json(white_move),
        "reply": None if after is None else move_json(after.first_move),
        "budget_spent": None,
        "positions": result.positions,
        "disagreement": None if found is None or found.disagreement is None else list(found.disagreement),
        "other_routes": [] if found is None else [{"route": route, "black_wins": verdict, "reason": why} for route, verdict, why in found.others],
    }


def print_result(model, result: SolveResult, white_move, reply: Reply | None, status: int) -> int:
    """The text report; the exit status, unknown when the reply contradicts the verdict."""
    rules = model.rules
    print(verdict_line(result))
    if result.black_wins and model.black_first:
        move = result.first_move
        if move is not None:
            note = {"checked": " (checked by the explicit solver)", "unchecked": f" ({result.reason})"}.get(result.move_source or "", "")
            print(f"first move: {move.text}{note}")
            print(rules.render(move.after, move))
        else:
            print(f"first move: not available ({result.reason})")
    elif result.black_wins and white_move is None:
        print(f"{white_first(model)}: Black has no first move; see Black's reply to a White move with --reply-to "
              f"{model.words.move_placeholder}.")
    if white_move is not None:
        shown = white_move.text
        if reply is None:
            print(f"White {shown}: no reply to show, since Black has no known winning strategy.")
        elif reply.after is None:
            print(f"White {shown}: {reply.why}.")
        else:
            after = reply.after
            if after.first_move is not None:
                print(f"White {shown}; Black's reply: {after.first_move.text}")
                print(rules.render(after.first_move.after, after.first_move))
            elif after.black_wins is False:
                # the game tree says Black wins whatever White plays; a solver that disagrees is wrong
                print(f"White {shown}: the solver finds no winning reply, contradicting its first answer "
                      f"(a solver or encoding bug)")
                status = EXIT_UNKNOWN
            else:
                print(f"White {shown}: Black's reply is unknown ({after.reason}).")
    print(summary_line(result))
    return status
