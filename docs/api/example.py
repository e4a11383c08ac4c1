"""docs/api.md's worked example: Harary's tic-tac-toe on 4x4, asked every way."""

import bddlc

game = bddlc.open_model("domains/positional.bddl", "problems/httt/tic_4x4_d5.bddl")
print(game.language, "game, depth", game.depth, "- encodings:", ", ".join(game.encodings()))

answer = bddlc.solve(game, engine="qbf")  # the QBF route alone: the default encoding and solver
print("QBF:", answer.black_wins, answer.first_move.text, "answered by", answer.answered_by)

found = bddlc.search(game, positional_rules=True)  # the explicit engine, a second opinion
print("search:", found.black_wins, found.first_move.text, found.positions, "positions")

scan = bddlc.critical_depth(game, 1, 5)
print("critical depth:", scan.critical_depth)

# the same question of a positional game written as text
pg = bddlc.open_text(game="#times\nt1 t2 t3\n#blackturns\nt1 t3\n#positions\na b c\n#blackwins\na b\nb c\n")
print("pg:", bddlc.search(pg).black_wins, bddlc.solve(pg).black_wins)

qcir = bddlc.compile(game)
print(qcir.splitlines()[0], "...", len(qcir.splitlines()), "lines")
