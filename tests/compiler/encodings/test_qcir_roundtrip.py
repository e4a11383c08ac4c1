"""Our QCIR files mean what the circuit means, to our reader and to an outside one.

* Round trip: QCIR text -> `circuits.read_qcir` -> Tseitin gives exactly the
  QDIMACS of the direct route (file numbering is a fixpoint of the trip), so
  the two have the same answer; where the circuit folded to a constant, the
  constants are compared instead.  Every file is also checked to be in the QCIR
  subset the writer promises (tests/helpers/qcir_check.py).  On random games the read-back formula is
  also solved and compared with the engine.
* Outside reader: Qute (`pyqbf_qute`, the only QCIR solver installed here)
  reads the files `bddlc` writes for suite problems; its verdict (exit
  10/20) must equal the engine's.  (Random games get the same check in
  tests/compiler/encodings/test_encoding_random.py.)  Qute mis-answers gates that
  repeat a variable, so this also checks that our writer never emits one.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from bddl import Game, check_model, search
from circuits import TRUE, read_qcir, to_qcir, to_qdimacs
from compiler import applicable_encodings, encode
from compiler.cli import main
from compiler.solving.qbf.solver_programs import run_solver
from conftest import scaled
from helpers.speed import marks as speed_marks
from helpers.differential import SOLVER_LIMIT, case_id, encodings_for, engine_answer, instances, load
from helpers.qbf import depqbf
from helpers.qcir_check import assert_safe_qcir
from helpers.strategies import game as random_game


def _at_file_depth(source: str | None = None):
    params = []
    for instance in instances():
        if source and instance.source != source:
            continue
        for encoding in encodings_for(instance):
            key = case_id(instance, instance.file_depth, encoding)
            marks = speed_marks("differential", key)
            params.append(pytest.param(instance, encoding, id=key, marks=marks))
    return params


def assert_same_qdimacs_after_round_trip(circuit) -> None:
    text = to_qcir(circuit)
    assert_safe_qcir(text)
    back = read_qcir(text)
    if abs(circuit.output) == TRUE:
        # A constant output is written as "v or/and not v" over a quantified
        # variable; it reads back as the same constant (whose QDIMACS form is
        # pinned in tests/circuits/test_circuits_tseitin.py).
        assert back.output == circuit.output
        return
    for polarity in (False, True):
        assert to_qdimacs(back, polarity=polarity) == to_qdimacs(circuit, polarity=polarity)


@pytest.mark.parametrize("instance, encoding", _at_file_depth())
def test_read_back_qcir_gives_the_same_qdimacs(instance, encoding):
    model = load(instance, instance.file_depth)
    assert_same_qdimacs_after_round_trip(encode(model.domain, model.problem, encoding=encoding).circuit)


@pytest.mark.parametrize("instance, encoding", _at_file_depth("suite"))
def test_qute_reads_our_files_and_agrees_with_the_engine(tmp_path, instance, encoding):
    expected = engine_answer(instance, instance.file_depth)
    if expected is None:
        pytest.skip("too slow for the engine (search budget exhausted)")
    out = tmp_path / "game.qcir"
    assert main([str(instance.domain), str(instance.problem), "--encoding", encoding, "-o", str(out)]) == 0
    run = run_solver("qute", out, SOLVER_LIMIT, model=False)
    if run.status == "timeout":
        pytest.skip(f"too slow for Qute (no verdict in {SOLVER_LIMIT:g} s)")
    assert run.status == "solved", f"Qute failed:\n{run.output[-2000:]}"
    assert run.verdict == expected


@settings(max_examples=scaled(40))
@given(random_game())
def test_random_games_round_trip(case):
    domain, problem = case
    check_model(domain, problem)
    expected = search(Game(domain, problem)).black_wins
    for name in applicable_encodings(domain, problem):
        circuit = encode(domain, problem, encoding=name).circuit
        assert_same_qdimacs_after_round_trip(circuit)
        assert depqbf(read_qcir(to_qcir(circuit))) == expected, name
