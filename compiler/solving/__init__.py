"""Deciding a compiled game with real QBF solvers, and what is built on that.

* `pipeline`: the one solve pipeline for both languages (`solve_model`:
  compile, run, read the verdict and Black's first move, check that move
  against the game's rules), with `results` (the one `SolveResult` and
  `MoveCheckError`);
* `solver_programs`: the solver programs and their child processes, with an
  honest time limit, one at a time or as a racing portfolio;
* `preprocessing`: Bloqqer, and the checks that keep its output sound;
* `strategy`, `critical_depth`, `strategy_validation`: Black's strategy move
  by move, the fewest plies Black needs, and a strategy checked against every
  White reply by the game's rules (`bddl.rules`), for either language;
* `game_search`: the explicit engines that fit the game (`bddlc search`);
* `processes`: every child process bddlc starts dies with it (signals, the
  parent-death signal, a watchdog);
* `cluster`: many solves at once, on local threads or a Dask cluster;
  `parallel_depth` (`depth --jobs`) and `regress` (a manifest of expected
  answers checked) are built on it;
* `positional`: what solving a `.pg` game adds (deepening, the first move
  confirmed by the explicit positional solver), behind `solve_model`;
  `positional_search`: a positional BDDL model decided by the positional
  solver's rules instead (`search --positional-rules`), no QBF involved;
* `ppn2`: one game searched by many workers of a Dask cluster, the parallel
  proof-number search (`search --algorithm ppn2`), no QBF involved.

The modules import each other only downwards (pipeline on solver_programs and
preprocessing; the rest on pipeline), and none is loaded before a command needs it.
"""
