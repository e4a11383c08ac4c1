"""The explicit engines: the ways to answer "does Black win within d?" by
searching the game tree itself, with no encoding and no solver.

* `minimax`: the one minimax (`Minimax`, over two `SideMoves`, with hooks
  for a game's knowledge, key and one-ply verdicts), and on top of it the
  exhaustive search of a BDDL game, the oracle every encoding is tested
  against;
* `pns`: depth-first proof-number search (df-pn) over the same `SideMoves`
  (a BDDL game, the race verifier's restricted game, a positional game
  through `positional_pns`), a `Minimax` whose leaves are the minimax's;
* `pn_tree` and `pn_job`: the parallel proof-number search's (PPN²) server
  tree and its bounded df-pn jobs, without the messaging
  (`compiler.solving.search.ppn2` runs them on Dask);
* `race`: Breakthrough's race patterns, knowledge for df-pn (a package by
  job: recognising the game, the restricted game, the patterns, the knowledge);
* `positional_rules`: the rules of positional games and what the searches
  know about them (cuts, claims, verdicts, lost causes, symmetries), with
  `relevance`, the Maker-Breaker pruning;
* `positional` and `positional_pns`: the positional solver, the minimax and
  df-pn reading those rules.

The game rules they search stay in `bddl.game` and `bddl.pg.game`.
"""
