"""`bddlc play`: you play White, bddlc plays Black's winning strategy (paper §5.1).

Black answers every position by re-solving from it with the plies that are
left (`compiler.solving.strategy.SolverStrategy`), by the route `--engine`
names (the QBF route and the explicit search raced by default, as `solve`
does), so its moves are always backed by a fresh verdict and checked by the
game engine.  Moves are read line by line
from standard input, so a session can be scripted (`bddlc play ... < moves`);
when the input is not a terminal, each move read is echoed so the transcript
reads like a game.
"""

from __future__ import annotations

import argparse
import sys

from .common import (
    EXIT_FALSE,
    EXIT_OK,
    add_encoding_argument,
    add_engine_argument,
    add_model_arguments,
    add_solver_arguments,
    checked_encoding,
    engine_of,
    open_game,
    paragraph,
)
from .show import add_svg_argument, svg_path, write_position_svg

QUIT = ("quit", "q", "exit", "resign")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bddlc play",
        description=paragraph("Play White against bddlc's Black.  Each turn shows the board, "
        "lists White's legal moves and reads one, typed as ACTION X Y (e.g. 'occupy 3 2') in a BDDL game or "
        "a cell's name in a positional game (GAME.pg), or as its number in the list; 'quit' ends the game.  "
        "Black answers by solving the current position with the moves that are left."),
        epilog="example:\n  bddlc play domains/positional.bddl problems/httt/tic_4x4_d5.bddl\n"
        "  printf 'occupy 1 1\\noccupy 1 2\\n' | bddlc play domains/positional.bddl problems/httt/tic_4x4_d5.bddl",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_model_arguments(p, "override the problem's depth (the number of plies)")
    add_solver_arguments(p, "time limit in seconds for each of Black's solves")
    add_encoding_argument(p, "the encoding of Black's solves (default: as bddlc solve)")
    add_engine_argument(p, "for each position Black must move in")
    p.add_argument("--json", action="store_true", help="at the end, print the game record as one JSON object instead of the transcript")
    add_svg_argument(p, "the position the game ends in (the last move marked)")
    return p


def run(args) -> int:
    from bddl.rules import BLACK

    from ..solving.strategy import SolverStrategy, StrategyUnknown

    parser = build_parser()
    model = open_game(args, parser, print_warnings=True)
    encoding = checked_encoding(model, args.encoding, parser)
    engine = engine_of(args, parser)
    rules = model.rules
    record = Record(model, args.json, svg_path(args, parser, rules))
    say = record.say
    echo = not sys.stdin.isatty()
    strategy = SolverStrategy(model, encoding=encoding, solver=args.solver, timeout=args.timeout, engine=engine)
    position = rules.initial
    wins, unknown = black_wins_at_start(model, strategy, encoding, args, engine)
    if unknown is not None:
        say(f"unknown: {unknown}; bddlc cannot play Black here.")
        return record.end(EXIT_OK, "unknown")
    if not wins:
        say(f"Black has no winning strategy within {model.depth} moves, so there is no strategy to play against.")
        return record.end(EXIT_FALSE, "no winning strategy")
    say(f"You play White; bddlc plays Black, which wins within {model.depth} moves.")
    say(f"Type a move as {_move_form(model)} or its number in the list; 'quit' to stop.")
    say()
    say(rules.render(position))

    while True:
        side = rules.to_move(position.ply)
        plies = model.depth - position.ply
        if side == BLACK:
            if not rules.plays(position):
                say("Black has no legal move: Black has not won.")
                return record.end(EXIT_OK, "Black stuck")
            try:
                move = black_move(strategy, position, plies)
            except StrategyUnknown as exc:
                say(f"Black cannot decide on a move ({exc}); game abandoned.")
                return record.end(EXIT_OK, "abandoned")
            say()
            say(f"Black plays {move.text}.")
        else:
            white = read_white_move(model, position, plies, echo, say, record.prompt)
            if white is None or isinstance(white, str):
                return record.end(EXIT_OK, white or "abandoned")
            move = white
            say(f"White plays {move.text}.")
        record.moves.append(move)
        position = move.after
        say(rules.render(position, move))
        ending = game_over(model, position, side)
        if ending:
            for line in ending[1:]:
                say(line)
            return record.end(EXIT_OK, ending[0])


class Record:
    """The transcript as it is said (or held back under --json), and the game record at the end."""

    def __init__(self, model, quiet: bool, svg: str | None = None):
        self.model, self.quiet, self.svg = model, quiet, svg
        self.moves: list = []

    def say(self, text: str = "") -> None:
        if not self.quiet:
            print(text, file=sys.stdout, flush=True)

    def prompt(self) -> None:
        if not self.quiet:
            print("White> ", end="", file=sys.stdout, flush=True)

    def end(self, status: int, outcome: str) -> int:
        if self.svg:  # the position the game ended in, its last move marked: the board the transcript shows last
            positions = [self.model.rules.initial] + [move.after for move in self.moves]
            last = self.moves[-1] if self.moves else None
            write_position_svg(self.svg, self.model.rules, positions[-1], last, positions[-2] if last else None)
        if self.quiet:
            import json

            from ..schema import SCHEMA_VERSION
            from .common import game_json, move_json

            print(json.dumps({"schema": SCHEMA_VERSION, "command": "play", **game_json(self.model), "depth": self.model.depth,
                              "moves": [move_json(m) for m in self.moves], "outcome": outcome, "budget_spent": None}))
        return status


def say(text: str = "") -> None:
    print(text, file=sys.stdout, flush=True)


def black_wins_at_start(model, strategy, encoding, args, engine: str) -> tuple[bool, str | None]:
    """Whether Black wins from the initial position, or (False, why not known).

    When Black moves first this is the strategy's opening solve, which it
    remembers for its first move."""
    from ..solving.routes import answer
    from ..solving.strategy import StrategyUnknown

    if model.black_first and model.rules.winner_before_play() is None:
        try:
            return strategy(model.rules.initial, model.depth) is not None, None
        except StrategyUnknown as exc:
            return False, str(exc)
    verdict = answer(model, engine=engine, encoding=encoding, solver=args.solver, timeout=args.timeout).result
    if verdict.black_wins is None:
        return False, verdict.reason
    return verdict.black_wins, None


def black_move(strategy, position, plies: int):
    """Black's winning move; a strategy that has none after saying Black wins is a bug."""
    move = strategy(position, plies)
    if move is None:
        raise RuntimeError(
            f"the solver says Black has no winning move with {plies} plies left, after saying Black wins: "
            "a solver or encoding bug"
        )
    return move


def read_white_move(model, position, plies: int, echo: bool, say=say, prompt=None):
    """Show White's legal moves and read one from standard input; a string
    (the outcome) when the game ends here (White has no move, the input
    ended, or the player quit), with the reason said."""
    from bddl.notation import MoveInputError
    from bddl.rules import BLACK

    rules = model.rules
    options = rules.plays(position)
    if not options:
        if rules.stuck_winner("white") == BLACK:
            say("White has no legal move: Black wins.")
            return "Black wins"
        say("White has no legal move and Black has not won: White survives.")
        return "White survives"
    say()
    say(f"White to move ({plies} {'move' if plies == 1 else 'moves'} left). Legal moves:")
    for number, play in enumerate(options, 1):
        say(f"  {number:>2}. {play.text}")
    while True:
        if prompt is None:
            print("White> ", end="", file=sys.stdout, flush=True)
        else:
            prompt()
        line = sys.stdin.readline()
        if not line:
            say()
            say("Input ended; game abandoned.")
            return "abandoned"
        if echo:
            say(line.rstrip("\n"))
        word = line.strip()
        if word.lower() in QUIT:
            say("Game abandoned.")
            return "abandoned"
        if word.isdigit() and 1 <= int(word) <= len(options):
            return options[int(word) - 1]
        try:
            return rules.parse_play(position, line)
        except MoveInputError as exc:
            from .show import _several_moves

            split = _several_moves(rules, position, word, first_only=True)
            if split is not None:  # 'hub p2 p6': a line of play typed at once, as show --moves takes it
                say(f"not a move: that is {len(split)} moves; type one at a time, White's now ({split[0]}), and bddlc answers for Black")
            else:
                say(f"not a move: {exc}")


def game_over(model, position, mover: str) -> list[str]:
    """The outcome and the closing lines after `mover`'s move, or [] while the game goes on."""
    from bddl.rules import BLACK

    rules = model.rules
    if rules.won(position, mover):
        if mover == BLACK:
            return ["Black wins", "Black reaches its goal: Black wins."]
        return ["White wins", "White reaches its goal: White wins.", "(This contradicts the solver's answer that Black wins: please report it.)"]
    if position.ply >= model.depth:
        return ["White survives", "No moves are left and Black has not won: White survives."]
    return []


def _move_form(model) -> str:
    """How to type a move, with a real White move of this game as the example."""
    return f"{model.words.move_form} (e.g. '{model.example_move()}')"
