"""What bddlc says about a model rather than about a game's value.

* `sanity`: `bddlc check` as a library: the sanity conditions of the BDDL
  paper (Def 9), with counterexamples, decided by SAT, by locality or over
  the reachable positions by the game engine;
* `sanity_local`: conditions 2 and 3 on the window a move and a goal can
  share, once per situation, so the work follows the model, not the board;
* `sanity_sat`: conditions 2 and 3 on every state of the board, by SAT;
* `lint`: warnings about dead actions, dead goals and cells no action changes.
* `mistakes`: warnings about silent modelling mistakes (Black without a goal,
  goals split over lines, goals that add nothing, goals a stone blocks), run by `lint`.
"""
