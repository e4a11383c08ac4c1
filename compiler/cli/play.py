"""`bddlc play`: you play White, bddlc plays Black's winning strategy (paper §5.1).

Black answers every position by re-solving from it with the plies that are
left (`compiler.solving.strategy.SolverStrategy`), so its moves are always backed by
a fresh verdict and checked by the game engine.  Moves are read line by line
from standard input, so a session can be scripted (`bddlc play ... < moves`);
when the input is not a terminal, each move read is echoed so the transcript
reads like a game.
"""

from __future__ import annotations

import argparse
import sys

from .common import EXIT_FALSE, EXIT_OK, add_model_arguments, add_solver_arguments, load, paragraph

QUIT = ("quit", "q", "exit", "resign")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bddlc play",
        description=paragraph("Play White against bddlc's Black.  Each turn shows the board (x across, y down), "
        "lists White's legal moves and reads one, typed as ACTION X Y (e.g. 'occupy 3 2') or as its "
        "number in the list; 'quit' ends the game.  Black answers by solving the current position with "
        "the moves that are left."),
        epilog="example:\n  bddlc play domains/positional.bddl problems/httt/tic_4x4_d5.bddl\n"
        "  printf 'occupy 1 1\\noccupy 1 2\\n' | bddlc play domains/positional.bddl problems/httt/tic_4x4_d5.bddl",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_model_arguments(p, "override the problem's depth (the number of plies)")
    add_solver_arguments(p, "time limit in seconds for each of Black's solves")
    return p


def run(args) -> int:
    from bddl.game import BLACK, WHITE, Game

    from ..notation import MoveInputError, describe_move, legal_moves, parse_move
    from ..solving.pipeline import solve
    from ..solving.strategy import SolverStrategy, StrategyUnknown

    model = load(args)
    problem = model.problem
    game = Game(model.domain, problem)
    out = sys.stdout
    echo = not sys.stdin.isatty()
    depth = problem.depth

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    strategy = SolverStrategy(model.domain, problem, solver=args.solver, timeout=args.timeout)
    state, plies, side = game.initial, depth, BLACK if problem.black_first else WHITE
    if side == BLACK:
        try:
            opening = strategy(state, plies)
        except StrategyUnknown as exc:
            say(f"unknown: {exc}; bddlc cannot play Black here.")
            return EXIT_OK
        wins = opening is not None
    else:
        verdict = solve(model.domain, problem, solver=args.solver, timeout=args.timeout)
        if verdict.black_wins is None:
            say(f"unknown: {verdict.reason}; bddlc cannot play Black here.")
            return EXIT_OK
        wins = verdict.black_wins
    if not wins:
        say(f"Black has no winning strategy within {depth} moves, so there is no strategy to play against.")
        return EXIT_FALSE
    say(f"You play White; bddlc plays Black, which wins within {depth} moves.")
    say(f"Type a move as ACTION X Y (e.g. '{_example_move(game, state)}') or its number in the list; 'quit' to stop.")
    say()
    say(game.render(state))

    while True:
        if side == BLACK:
            try:
                move = strategy(state, plies)
            except StrategyUnknown as exc:
                say(f"Black cannot decide on a move ({exc}); game abandoned.")
                return EXIT_OK
            if move is None:
                raise RuntimeError(
                    f"the solver says Black has no winning move with {plies} plies left, after saying Black wins: "
                    "a solver or encoding bug"
                )
            plies -= 1
            say()
            say(f"Black plays {describe_move(game, state, move)}.")
            state = move.state
            say(game.render(state))
            if game.won(state, BLACK):
                say("Black reaches its goal: Black wins.")
                return EXIT_OK
            if plies == 0:
                say("No moves are left and Black has not won: White survives.")
                return EXIT_OK
            side = WHITE
            continue

        options = legal_moves(game, state, WHITE)
        if not options:
            say("White has no legal move: Black wins.")
            return EXIT_OK
        say()
        say(f"White to move ({plies} {'move' if plies == 1 else 'moves'} left). Legal moves:")
        for number, named in enumerate(options, 1):
            say(f"  {number:>2}. {named.text}")
        while True:
            print("White> ", end="", file=out, flush=True)
            line = sys.stdin.readline()
            if not line:
                say()
                say("Input ended; game abandoned.")
                return EXIT_OK
            if echo:
                say(line.rstrip("\n"))
            if line.strip().lower() in QUIT:
                say("Game abandoned.")
                return EXIT_OK
            try:
                move = parse_move(game, state, WHITE, line)
                break
            except MoveInputError as exc:
                say(f"not a move: {exc}")
        plies -= 1
        say(f"White plays {describe_move(game, state, move)}.")
        state = move.state
        say(game.render(state))
        if game.won(state, WHITE):
            say("White reaches its goal: White wins.")
            say("(This contradicts the solver's answer that Black wins: please report it.)")
            return EXIT_OK
        if plies == 0:
            say("No moves are left and Black has not won: White survives.")
            return EXIT_OK
        side = BLACK


def _example_move(game, state) -> str:
    """A White move to show in the instructions: a real one of this game
    (the first legal one now, or one position later), not a made-up name."""
    from bddl.game import BLACK, WHITE

    from ..notation import move_name

    moves = game.moves(state, WHITE)
    if not moves:
        later = game.moves(state, BLACK)
        moves = game.moves(later[0].state, WHITE) if later else []
    if moves:
        return move_name(moves[0])
    action = game.domain.white_actions[0].name if game.domain.white_actions else "ACTION"
    return f"{action} 1 1"
