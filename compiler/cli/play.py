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

from .common import EXIT_FALSE, EXIT_OK, add_model_arguments, add_solver_arguments, load, paragraph, pg_path

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
    add_model_arguments(p, "override the problem's depth (the number of plies)", positional=True)
    add_solver_arguments(p, "time limit in seconds for each of Black's solves")
    return p


def run(args) -> int:
    from bddl.game import BLACK, WHITE, Game

    from bddl.notation import describe_move
    from ..solving.strategy import SolverStrategy, StrategyUnknown

    game_file = pg_path(args, build_parser())
    if game_file is not None:
        from .pg_play import run_pg

        return run_pg(args, game_file)
    model = load(args)
    problem = model.problem
    game = Game(model.domain, problem)
    echo = not sys.stdin.isatty()
    depth = problem.depth
    strategy = SolverStrategy(model.domain, problem, solver=args.solver, timeout=args.timeout)
    state, plies, side = game.initial, depth, BLACK if problem.black_first else WHITE
    wins, unknown = black_wins_at_start(model, game, strategy, args)
    if unknown is not None:
        say(f"unknown: {unknown}; bddlc cannot play Black here.")
        return EXIT_OK
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
                move = black_move(strategy, state, plies)
            except StrategyUnknown as exc:
                say(f"Black cannot decide on a move ({exc}); game abandoned.")
                return EXIT_OK
            say()
            say(f"Black plays {describe_move(game, state, move)}.")
        else:
            white = read_white_move(game, state, plies, echo)
            if white is None:
                return EXIT_OK
            move = white
            say(f"White plays {describe_move(game, state, move)}.")
        plies -= 1
        state = move.state
        say(game.render(state))
        ending = game_over(game, state, side, plies)
        if ending:
            for line in ending:
                say(line)
            return EXIT_OK
        side = WHITE if side == BLACK else BLACK


def say(text: str = "") -> None:
    print(text, file=sys.stdout, flush=True)


def black_wins_at_start(model, game, strategy, args) -> tuple[bool, str | None]:
    """Whether Black wins from the initial position, or (False, why not known).

    When Black moves first this is the strategy's opening solve, which it
    remembers for its first move."""
    from ..solving.pipeline import solve
    from ..solving.strategy import StrategyUnknown

    if model.problem.black_first:
        try:
            return strategy(game.initial, model.problem.depth) is not None, None
        except StrategyUnknown as exc:
            return False, str(exc)
    verdict = solve(model.domain, model.problem, solver=args.solver, timeout=args.timeout)
    if verdict.black_wins is None:
        return False, verdict.reason
    return verdict.black_wins, None


def black_move(strategy, state, plies: int):
    """Black's winning move; a strategy that has none after saying Black wins is a bug."""
    move = strategy(state, plies)
    if move is None:
        raise RuntimeError(
            f"the solver says Black has no winning move with {plies} plies left, after saying Black wins: "
            "a solver or encoding bug"
        )
    return move


def read_white_move(game, state, plies: int, echo: bool):
    """Show White's legal moves and read one from standard input; None when the game ends here
    (White has no move, the input ended, or the player quit), with the reason said."""
    from bddl.game import WHITE

    from bddl.notation import MoveInputError, legal_moves, parse_move

    options = legal_moves(game, state, WHITE)
    if not options:
        say("White has no legal move: Black wins.")
        return None
    say()
    say(f"White to move ({plies} {'move' if plies == 1 else 'moves'} left). Legal moves:")
    for number, named in enumerate(options, 1):
        say(f"  {number:>2}. {named.text}")
    while True:
        print("White> ", end="", file=sys.stdout, flush=True)
        line = sys.stdin.readline()
        if not line:
            say()
            say("Input ended; game abandoned.")
            return None
        if echo:
            say(line.rstrip("\n"))
        if line.strip().lower() in QUIT:
            say("Game abandoned.")
            return None
        try:
            return parse_move(game, state, WHITE, line)
        except MoveInputError as exc:
            say(f"not a move: {exc}")


def game_over(game, state, mover: str, plies: int) -> list[str]:
    """The closing lines after `mover`'s move, or [] while the game goes on."""
    from bddl.game import BLACK

    if game.won(state, mover):
        if mover == BLACK:
            return ["Black reaches its goal: Black wins."]
        return ["White reaches its goal: White wins.", "(This contradicts the solver's answer that Black wins: please report it.)"]
    if plies == 0:
        return ["No moves are left and Black has not won: White survives."]
    return []


def _example_move(game, state) -> str:
    """A White move to show in the instructions: a real one of this game
    (the first legal one now, or one position later), not a made-up name."""
    from bddl.game import BLACK, WHITE

    from bddl.notation import move_name

    moves = game.moves(state, WHITE)
    if not moves:
        later = game.moves(state, BLACK)
        moves = game.moves(later[0].state, WHITE) if later else []
    if moves:
        return move_name(moves[0])
    action = game.domain.white_actions[0].name if game.domain.white_actions else "ACTION"
    return f"{action} 1 1"
