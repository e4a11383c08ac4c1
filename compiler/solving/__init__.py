"""Deciding a compiled game with real QBF solvers, and what is built on that.

* `pipeline`: the solve pipeline (compile, run, read the verdict and Black's
  first move, check that move against the game engine);
* `solver_programs`: the solver programs and their child processes, with an
  honest time limit, one at a time or as a racing portfolio;
* `preprocessing`: Bloqqer, and the checks that keep its output sound;
* `strategy`, `critical_depth`, `strategy_validation`: Black's strategy move
  by move, the fewest plies Black needs, and a strategy checked against every
  White reply by the game engine.

The modules import each other only downwards (pipeline on solver_programs and
preprocessing; the rest on pipeline), and none is loaded before a command needs it.
"""
