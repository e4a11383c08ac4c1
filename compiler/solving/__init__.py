"""How a verdict is reached, by either route, for a game of either language.

The folders say the jobs:

* `qbf/`: the QBF route (`route`: a formula, a solver program, a verdict, the assignment's
  first move; `solver_programs` and `verdicts`: the programs as killable children with an honest
  time limit, alone or as a racing portfolio; `preprocessing`: Bloqqer and the checks that keep
  its output sound);
* `search/`: the explicit route (`outcome`: `search_model` and the one `SearchOutcome`;
  `positional_rules`: a positional BDDL model decided by the positional solver's rules; `core`:
  which core searches, compiled or Python; `ppn2`, `leaf_verdicts`, `table_news`: the parallel
  proof-number search on Dask);
* `processes/`: the plumbing (`processes`: every child dies with bddlc; `portfolio`: routes raced
  in forked members; `cluster`: local threads or a Dask cluster; `budget`: an overall time budget);
* `results`: the one `SolveResult` every route answers with; `routes`: the routes alone or raced
  (`answer`), what solve, depth, validate and regress ask;
* the libraries of depth and validate: `critical_depth`, `parallel_depth`, `strategy`,
  `strategy_validation`.

What differs between the languages is asked of the model (`compiler.game_model.GameModel`,
answered by `compiler.languages`); nothing here asks which language a game is, and nothing reads
the command line (`compiler.cli` turns its options into arguments).  None of it is loaded before a
command needs it.
"""
