"""COR+ is the paper's encoding: on the four milestones its formula has the
quantifier blocks and universal variables of the polished-encoding paper's
Table 3 exactly, and existential variables and clauses within 10%."""

from __future__ import annotations

import pytest

from bddl.pg.reader import load_pg
from compiler.encodings.cor_plus import encode
from conftest import CORPUS

MILESTONES = CORPUS / "pg" / "milestones"

# file: (quantifier blocks, universals, existentials, clauses), Table 3
TABLE_3 = {
    "qubic_1_1_4x4x4.pg": (63, 186, 4_500, 25_000),
    "gttt_1_1_9x9_snaky.pg": (81, 280, 7_500, 45_700),
    "gomoku_1_1_15x15_connect5.pg": (225, 896, 52_900, 360_000),
    "mickey_mouse_1_2_19x19_connect6.pg": (179, 1602, 130_000, 1_020_000),
}


def sizes(path) -> tuple[int, int, int, int]:
    q = encode(load_pg(path)).qdimacs()
    universals = sum(len(block) for quantifier, block in q.prefix if quantifier == "forall")
    existentials = sum(len(block) for quantifier, block in q.prefix if quantifier == "exists")
    return len(q.prefix), universals, existentials, q.num_clauses


@pytest.mark.skipif(not MILESTONES.is_dir(), reason="the corpus is not here")
@pytest.mark.parametrize("name", TABLE_3)
def test_milestone_sizes_match_table_3(name):
    blocks, universals, existentials, clauses = sizes(MILESTONES / name)
    paper_blocks, paper_universals, paper_existentials, paper_clauses = TABLE_3[name]
    assert (blocks, universals) == (paper_blocks, paper_universals)
    assert abs(existentials - paper_existentials) <= 0.1 * paper_existentials, existentials
    assert abs(clauses - paper_clauses) <= 0.1 * paper_clauses, clauses
