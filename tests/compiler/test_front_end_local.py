"""The front end without per-cell work, against the per-cell reference, and the memory guards.

* `bddl.situations.first_holding` (initial-state wins found from the stones)
  equals a scan of every position with `condition_holds_at`;
* `representative_positions` sees every grouping of a condition's atoms
  that some position of its bounds gives;
* `compiler.analysis.lint.frozen_cells` (boxes) equals the union of
  `lint.changeable_cells` over the actions (position by position);
* the guards refuse board-sized work past `--max-memory` with exit status 3
  and no output file, while `check` and a lifted compile of a 1000x1000
  board run.
"""

from __future__ import annotations

import pytest
from conftest import ROOT, scaled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bddl import Absolute, Atom, Condition, Problem
from bddl import budget
from bddl.bounds import action_bounds, condition_bounds
from bddl.game import Game, Geometry, State, condition_holds_at, ground_atoms, state_from_atoms
from bddl.engines.minimax import search
from bddl.situations import first_holding, representative_positions
from bddl.validate import initial_stones
from compiler.analysis.lint import changeable_cells, frozen_cells
from compiler.cli import main
from helpers.strategies import domain as random_domain
from helpers.strategies import goal_list, separable_game

PREDS = ("open", "black", "white")


@st.composite
def board_with_goals(draw):
    """A random domain, a board up to 6x5 with random stones, and goals that may hold initially."""
    dom = draw(random_domain())
    width, height = draw(st.integers(1, 6)), draw(st.integers(1, 5))
    cells = [(x, y) for y in range(1, height + 1) for x in range(1, width + 1)]
    values = draw(st.lists(st.sampled_from(PREDS + ("open", "open")), min_size=len(cells), max_size=len(cells)))
    init = tuple(Atom(v, Absolute(x), Absolute(y)) for (x, y), v in zip(cells, values) if v != "open")
    goals = draw(goal_list(width, height, draw(st.booleans())))
    return dom, Problem(width, height, init, 1, tuple(goals), ())


def _scan(goal, geometry: Geometry, state: State):
    box = condition_bounds(goal, geometry.width, geometry.height)
    return next((pos for pos in box.positions() if condition_holds_at(geometry, state, goal, pos)), None)


@settings(max_examples=scaled(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board_with_goals())
def test_initial_wins_found_from_the_stones_equal_a_scan(case):
    _, problem = case
    g = Geometry(problem.width, problem.height)
    state = state_from_atoms(g, problem.init)
    for goal in problem.black_goals:
        assert first_holding(goal, initial_stones(problem), g.width, g.height) == _scan(goal, g, state)


def test_initial_wins_both_found_and_not_found():
    """The comparison above meets goals that hold and goals that do not."""
    seen = set()

    @settings(max_examples=60, deadline=None, database=None)
    @given(board_with_goals())
    def collect(case):
        _, problem = case
        g = Geometry(problem.width, problem.height)
        for goal in problem.black_goals:
            seen.add(_scan(goal, g, state_from_atoms(g, problem.init)) is not None)

    collect()
    assert seen == {True, False}


def _grouping(geometry, atoms, pos):
    """How the atoms group into cells at `pos`, independent of where the cells are."""
    return sorted(sorted(atoms.index(a) for a in group) for group in ground_atoms(geometry, atoms, pos).values())


@settings(max_examples=scaled(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board_with_goals())
def test_representatives_show_every_grouping(case):
    dom, problem = case
    g = Geometry(problem.width, problem.height)
    conditions = [list(a.precondition.atoms + a.effect.atoms) for a in dom.black_actions + dom.white_actions]
    conditions += [list(goal.atoms) for goal in problem.black_goals]
    for atoms in conditions:
        box = condition_bounds(Condition(tuple(atoms)), g.width, g.height)
        every = {str(_grouping(g, atoms, pos)) for pos in box.positions()}
        shown = {str(_grouping(g, atoms, pos)) for pos in representative_positions(atoms, box, g.width, g.height)}
        assert shown == every


@settings(max_examples=scaled(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(board_with_goals(), separable_game()))
def test_frozen_cells_from_boxes_equal_the_per_position_union(case):
    dom, problem = case
    g = Geometry(problem.width, problem.height)
    actions = dom.black_actions + dom.white_actions
    changeable = set().union(*(changeable_cells(g, a) for a in actions))
    frozen = [(x, y) for y in range(1, g.height + 1) for x in range(1, g.width + 1) if (x, y) not in changeable]
    first, count = frozen_cells(actions, g, shown=12)
    assert (first, count) == (frozen[:12], len(frozen))


# -- the guards --------------------------------------------------------------------------------


def _five_in_a_row(side: int) -> str:
    from bench.instances import five_in_a_row_problem

    return five_in_a_row_problem(side, 101)


@pytest.fixture(scope="module")
def big_board(tmp_path_factory):
    path = tmp_path_factory.mktemp("big") / "gomoku_1000.bddl"
    path.write_text(_five_in_a_row(1000))
    return str(path)


POSITIONAL = "domains/positional.bddl"


@pytest.mark.parametrize(
    "command",
    [["check", "--exhaustive"], ["check", "--reachable"], ["search"], ["--encoding", "explicit"], ["--encoding", "corrective"], ["solve"]],
    ids=" ".join,
)
def test_board_sized_work_is_refused_past_the_limit(command, big_board, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "f.qcir"
    extra = ["-o", str(out)] if command[0].startswith("--") else []
    assert main(command + [POSITIONAL, big_board] + extra) == 3
    err = capsys.readouterr().err
    assert "--max-memory" in err and "GB" in err
    assert not out.exists()
    budget.set_memory_limit(budget.DEFAULT_MAX_MEMORY_MB)


def test_check_and_a_lifted_compile_of_a_1000x1000_board_run(big_board, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["check", POSITIONAL, big_board]) == 0
    assert "all 3 sanity conditions hold" in capsys.readouterr().out
    out = tmp_path / "f.qcir"
    assert main([POSITIONAL, big_board, "-o", str(out)]) == 0
    assert out.stat().st_size > 0


@pytest.mark.parametrize("command", [["check"], []], ids=["check", "compile"])
def test_opening_and_compiling_a_1000x1000_board_never_walks_its_cells(command, big_board, tmp_path, capsys, monkeypatch):
    """Opening builds the rules' cell list only when something draws the board: walking a
    million cells per open made check and compile of this board cost 2 s and 290 MB."""
    walked = []
    original = Geometry.all_cells

    def counting(self):
        walked.append(self.cells)
        return original(self)

    monkeypatch.setattr(Geometry, "all_cells", counting)
    monkeypatch.chdir(ROOT)
    extra = [] if command else ["-o", str(tmp_path / "f.qcir")]
    assert main(command + [POSITIONAL, big_board] + extra) == 0
    assert [cells for cells in walked if cells >= 10_000] == []


def test_compiling_costs_grow_linearly_with_the_depth(monkeypatch):
    """The stop chain (`frozen_until_end`) asks each frame gate once per time point, not once per
    pair of them: at depth 2001 the old loop made 2,005,002 calls."""
    from bddl import load_model
    from compiler.encodings import lifted

    calls = []
    original = lifted.LiftedEncoder.unchanged

    def counting(self, t):
        calls.append(t)
        return original(self, t)

    monkeypatch.setattr(lifted.LiftedEncoder, "unchanged", counting)
    counts = {}
    for depth in (51, 201):
        problem = ROOT / "problems" / "connect" / "connect3_4x4_d9.bddl"
        model = load_model(ROOT / "domains" / "connect.bddl", problem, depth=depth)
        calls.clear()
        lifted.encode_compact(model.domain, model.problem)  # the default lifted encoding: the stop chain on
        counts[depth] = len(calls)
    assert counts[201] <= 5 * counts[51], counts


def test_raising_the_limit_lets_the_work_run(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    args = ["domains/connect.bddl", "problems/connect/connect4_5x4_d19.bddl", "--encoding", "explicit", "-o", str(tmp_path / "c.qcir")]
    assert main(args + ["--max-memory", "1"]) == 3
    assert main(args + ["--max-memory", "3"]) == 0
    budget.set_memory_limit(budget.DEFAULT_MAX_MEMORY_MB)


def test_the_search_stops_when_its_table_reaches_the_limit(monkeypatch):
    """A search that fits in the estimate at the start but keeps positions past the limit."""
    from bddl import load_model

    m = load_model("domains/positional.bddl", "problems/httt/tic_3x3_d9.bddl")
    game = Game(m.domain, m.problem)
    cells, placements = 9, sum(len(action_bounds(a, 3, 3)) for a in m.domain.black_actions + m.domain.white_actions)
    limit = budget.engine_bytes(cells, placements) + 50 * budget.stored_position_bytes(cells)
    monkeypatch.setattr(budget, "_limit_bytes", limit)
    with pytest.raises(budget.MemoryBudgetExceeded, match="--max-memory"):
        search(game, 9)
    monkeypatch.setattr(budget, "_limit_bytes", budget.DEFAULT_MAX_MEMORY_MB * budget.MB)
    assert search(game, 9).positions > 50


def test_progress_is_quiet_at_first_then_reports(capsys):
    import io

    stream = io.StringIO()
    quiet = budget.Progress("work", after=3600, stream=stream)
    quiet("step 1")
    assert stream.getvalue() == ""
    loud = budget.Progress("work", after=0, every=0, stream=stream)
    loud("step 1")
    loud("step 2")
    assert stream.getvalue().count("bddlc: work: step") == 2
