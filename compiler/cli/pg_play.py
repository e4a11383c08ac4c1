"""`bddlc play GAME.pg`: you play White in a positional game, bddlc plays Black.

As `bddlc play` on a BDDL model: Black answers each position by solving the
game that is left (`compiler.solving.positional_strategy`); White's claim is
read line by line from standard input, as a cell name or its number in the
list of open cells; 'quit' ends the game."""

from __future__ import annotations

import sys

from .common import EXIT_FALSE, EXIT_OK

QUIT = ("quit", "q", "exit", "resign")


def run_pg(args, path: str) -> int:
    from bddl.pg.draw import draw
    from bddl.pg.reader import load_pg

    from ..solving.positional import solve_pg
    from ..solving.positional_strategy import PgStrategy, StrategyUnknown, black_has_won, owns_a_set

    game = load_pg(path)
    if args.depth is not None:
        game = game.with_depth(args.depth)
    echo = not sys.stdin.isatty()

    def say(text: str = "") -> None:
        print(text, flush=True)

    def show(black: int, white: int, last: int | None = None) -> None:
        board = draw(game, black, white, last)
        say(board if board is not None else f"Black: {names(black) or '-'}; White: {names(white) or '-'}")

    def names(stones: int) -> str:
        return " ".join(c for i, c in enumerate(game.cells) if stones >> i & 1)

    verdict = solve_pg(game, solver=args.solver, timeout=args.timeout)
    if verdict.black_wins is None:
        say(f"unknown: {verdict.reason}; bddlc cannot play Black here.")
        return EXIT_OK
    if not verdict.black_wins:
        say(f"Black has no winning strategy within {game.depth} moves, so there is no strategy to play against.")
        return EXIT_FALSE
    strategy = PgStrategy(game, solver=args.solver, timeout=args.timeout)
    white_sets = tuple(game.mask(s) for s in game.white_wins)
    black, white = game.mask(game.black_initials), game.mask(game.white_initials)
    full = (1 << len(game.cells)) - 1
    say(f"You play White; bddlc plays Black, which wins within {game.depth} moves.")
    say("Type a cell name or its number in the list; 'quit' to stop.")
    say()
    show(black, white)
    for t, side in enumerate(game.turns):
        allowed = full & ~(black | white)
        if t == 0 and game.first_moves is not None:
            allowed &= game.mask(game.first_moves)
        if not allowed:
            break
        if side == "black":
            try:
                cell = strategy(black, white, t)
            except StrategyUnknown as exc:
                say(f"Black cannot decide on a move ({exc}); game abandoned.")
                return EXIT_OK
            if cell is None or not allowed >> cell & 1:
                raise RuntimeError("the solver has no legal winning claim for Black after saying Black wins: a solver or encoding bug")
            black |= 1 << cell
            say()
            say(f"Black claims {game.cells[cell]}.")
            show(black, white, cell)
            if black_has_won(game, black):
                say("Black's chain joins its borders: Black wins." if game.graph is not None and not game.black_wins
                    else "Black owns a winning set: Black wins.")
                return EXIT_OK
            continue
        options = [c for c in range(len(game.cells)) if allowed >> c & 1]
        say()
        say(f"White to move ({game.depth - t} {'move' if game.depth - t == 1 else 'moves'} left). Open cells:")
        say("  " + "  ".join(f"{n}. {game.cells[c]}" for n, c in enumerate(options, 1)))
        while True:
            print("White> ", end="", flush=True)
            line = sys.stdin.readline()
            if not line:
                say()
                say("Input ended; game abandoned.")
                return EXIT_OK
            if echo:
                say(line.rstrip("\n"))
            word = line.strip()
            if word.lower() in QUIT:
                say("Game abandoned.")
                return EXIT_OK
            if word.isdigit() and 1 <= int(word) <= len(options):
                cell = options[int(word) - 1]
                break
            if word in game.cells and game.cells.index(word) in options:
                cell = game.cells.index(word)
                break
            say(f"not a move: {word!r} is not an open cell you may claim")
        white |= 1 << cell
        say(f"White claims {game.cells[cell]}.")
        show(black, white, cell)
        if owns_a_set(white, white_sets):
            say("White owns a winning set: White wins.")
            say("(This contradicts the solver's answer that Black wins: please report it.)")
            return EXIT_OK
    say("No moves are left and Black has not won: White survives.")
    return EXIT_OK
