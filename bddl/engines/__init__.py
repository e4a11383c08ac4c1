"""The explicit engines: the ways to answer "does Black win within d?" by
searching the game tree itself, with no encoding and no solver.

* `minimax`: the exhaustive depth-first search over a BDDL game, the oracle
  every encoding is tested against;
* `pns`: depth-first proof-number search (df-pn) over any game given as two
  `SideMoves` (a BDDL game, or a positional game through `positional_pns`);
* `pn_tree` and `pn_job`: the parallel proof-number search's (PPN²) server
  tree and its bounded df-pn jobs, without the messaging
  (`compiler.solving.ppn2` runs them on Dask);
* `race`: Breakthrough's race patterns, knowledge for df-pn;
* `positional` and `positional_pns`: the positional solver (minimax and df-pn)
  with the positional rules' cuts, and `relevance`, its Maker-Breaker pruning.

The game rules they search stay in `bddl.game` and `bddl.pg.game`.
"""
