"""`bddlc solve`: who wins, and Black's first move, from a real QBF solver."""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .common import EXIT_FALSE, EXIT_TRUE, EXIT_UNKNOWN, add_model_arguments, add_solver_arguments, load, paragraph, pg_path, plies

if TYPE_CHECKING:
    from ..solving.pipeline import SolveResult


def build_parser() -> argparse.ArgumentParser:
    from ..solving.preprocessing import PREPROCESSORS

    p = argparse.ArgumentParser(
        prog="bddlc solve",
        description=paragraph("Decide with a QBF solver whether Black has a winning strategy of at most DEPTH moves, "
        "and show Black's first winning move (checked against the game engine) and the board after it.  "
        "A positional game GAME.pg may stand in place of DOMAIN PROBLEM (COR+ and DepQBF by default; the "
        "first move is checked by the explicit positional solver)."),
        epilog="exit status: 10 Black wins, 20 no winning strategy, 0 unknown (time limit), "
        "1 bad input, 2 usage error.\n\n"
        "examples:\n"
        "  bddlc solve domains/positional.bddl problems/httt/tic_4x4_d5.bddl\n"
        "  bddlc solve domains/breakthrough.bddl problems/breakthrough/second_2x4_d8.bddl --reply-to 'right-diagonal 1 2'\n"
        "  bddlc solve problems/pg/tictactoe_3x3_d5.pg --encoding corrective",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_model_arguments(p, "override the problem's depth (the number of plies)", positional=True)
    add_solver_arguments(p)
    p.add_argument(
        "--encoding",
        choices=("cor+", "corplus", "corrective", "ea", "en", "et", "la", "ln", "sa", "sn"),
        help="a .pg game's encoding (default: et for a Hex board, else cor+)",
    )
    p.add_argument("--preprocess", choices=PREPROCESSORS, default="none", help="preprocess with Bloqqer (checked and repaired; default none)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument(
        "--reply-to",
        metavar="MOVE",
        help="when White moves first: Black's winning reply to this White move, e.g. 'occupy 3 2'",
    )
    return p


def move_json(game, state, move) -> dict | None:
    from bddl.notation import describe_move

    if move is None:
        return None
    return {"action": move.action, "x": move.x, "y": move.y, "text": describe_move(game, state, move)}


def verdict_line(result) -> str:
    if result.black_wins is None:
        return f"unknown: {result.reason}"
    if result.black_wins:
        return f"Black wins within {plies(result.depth)}."
    return f"Black has no winning strategy within {plies(result.depth)}."


def summary_line(result) -> str:
    size = result.size
    solver = result.solver if result.answered_by in (None, result.solver) else f"{result.solver} ({result.answered_by} answered)"
    text = (
        f"solver: {solver}, encoding: {result.encoding} ({size.vars} variables, {size.gates} gates, "
        f"{size.clauses} clauses)"
    )
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
    from bddl.game import Game

    game_file = pg_path(args, build_parser())
    if game_file is not None:
        from .pg_solve import run_pg

        return run_pg(args, game_file, build_parser())
    if args.encoding is not None:
        build_parser().error("--encoding is for .pg games; a BDDL model is solved with encoding auto")
    model = load(args)
    game = Game(model.domain, model.problem)
    white_move = _white_move(args, game)
    options = dict(solver=args.solver, preprocess=args.preprocess, timeout=args.timeout)
    result, reply = decide(model, game, white_move, options)
    status = {True: EXIT_TRUE, False: EXIT_FALSE, None: EXIT_UNKNOWN}[result.black_wins]
    if args.json:
        print(json.dumps(result_json(game, result, white_move, reply)))
        return status
    return print_result(game, result, white_move, reply, status)


def _white_move(args, game):
    """The engine move --reply-to names, or None; a usage error where it makes no sense."""
    from bddl.game import WHITE

    from bddl.notation import MoveInputError, parse_move

    if args.reply_to is None:
        return None
    if game.problem.black_first:
        build_parser().error("--reply-to is for games where White moves first (#blackturn second)")
    try:
        return parse_move(game, game.initial, WHITE, args.reply_to)
    except MoveInputError as exc:
        build_parser().error(f"--reply-to: {exc}")


def decide(model, game, white_move, options: dict) -> tuple[SolveResult, Reply | None]:
    """Solve the game and, when Black wins and a White first move is given, the position after it."""
    from bddl.game import BLACK, WHITE

    from ..solving.pipeline import problem_at, solve

    problem = model.problem
    result = solve(model.domain, problem, **options)
    if white_move is None or not result.black_wins:
        return result, None
    if game.won(white_move.state, WHITE):
        return result, Reply(None, "White reaches its goal with that move")
    if problem.depth < 2:
        return result, Reply(None, "no plies are left for Black after that move")
    return result, Reply(solve(model.domain, problem_at(problem, white_move.state, problem.depth - 1, BLACK), **options))


def result_json(game, result: SolveResult, white_move, reply: Reply | None) -> dict:
    data = {
        "black_wins": result.black_wins,
        "depth": result.depth,
        "solver": result.solver,
        "answered_by": result.answered_by,
        "first_move": move_json(game, game.initial, result.first_move),
        "seconds": round(result.seconds, 6),
        "encoding": {"name": result.encoding, "vars": result.size.vars, "gates": result.size.gates, "clauses": result.size.clauses},
        "black_first": game.problem.black_first,
        "preprocess": result.preprocess,
        "preprocess_note": result.preprocess_note,
        "reason": result.reason,
    }
    if white_move is not None:
        data["reply_to"] = move_json(game, game.initial, white_move)
        after = reply.after if reply else None
        data["reply"] = None if after is None else move_json(game, white_move.state, after.first_move)
    return data


def print_result(game, result: SolveResult, white_move, reply: Reply | None, status: int) -> int:
    """The text report; the exit status, unknown when the reply contradicts the verdict."""
    from bddl.notation import describe_move

    print(verdict_line(result))
    if result.black_wins and game.problem.black_first:
        if result.first_move is not None:
            print(f"first move: {describe_move(game, game.initial, result.first_move)}")
            print(game.render(result.first_move.state))
        else:
            print(f"first move: not available ({result.reason})")
    elif result.black_wins and white_move is None:
        print("White moves first (#blackturn second): Black has no first move; "
              "see Black's reply to a White move with --reply-to 'ACTION X Y'.")
    if white_move is not None:
        shown = describe_move(game, game.initial, white_move)
        if reply is None:
            print(f"White {shown}: no reply to show, since Black has no known winning strategy.")
        elif reply.after is None:
            print(f"White {shown}: {reply.why}.")
        else:
            after = reply.after
            if after.first_move is not None:
                print(f"White {shown}; Black's reply: {describe_move(game, white_move.state, after.first_move)}")
                print(game.render(after.first_move.state))
            elif after.black_wins is False:
                # the game tree says Black wins whatever White plays; a solver that disagrees is wrong
                print(f"White {shown}: the solver finds no winning reply, contradicting its first answer "
                      f"(a solver or encoding bug)")
                status = EXIT_UNKNOWN
            else:
                print(f"White {shown}: Black's reply is unknown ({after.reason}).")
    print(summary_line(result))
    return status
