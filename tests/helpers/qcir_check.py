"""The QCIR subset our writer promises (circuits/qcir.py), checked on a file's text."""

from __future__ import annotations


def assert_safe_qcir(text: str) -> None:
    """`#QCIR-G14 <max id>`, comments, alternating non-empty blocks over ids
    1..n, `output(<last gate>)`, then and/or gates numbered n+1.. in order,
    each over defined ids with no id twice; LF line ends, no blank lines."""
    lines = text.split("\n")
    assert lines[-1] == "" and all(lines[:-1]), "LF-terminated, no blank lines"
    lines.pop()
    top = int(lines[0].removeprefix("#QCIR-G14 "))
    i = 1
    while lines[i].startswith("#"):
        i += 1
    quants = []
    declared: set[int] = set()
    while not lines[i].startswith("output("):
        quant, rest = lines[i].split("(", 1)
        ids = [int(t) for t in rest.rstrip(")").split(", ")]
        assert quant in ("exists", "forall") and ids
        assert not declared & set(ids)
        declared.update(ids)
        quants.append(quant)
        i += 1
    assert all(p != q for p, q in zip(quants, quants[1:])), "alternating blocks"
    assert declared == set(range(1, len(declared) + 1)), "variables are 1..n in prefix order"
    out = int(lines[i][len("output(") : -1])
    defined: set[int] = set()
    for line in lines[i + 1 :]:
        head, body = line.split(" = ")
        gid = int(head)
        kind, rest = body.split("(", 1)
        assert kind in ("and", "or") and rest.endswith(")")
        ins = [int(t) for t in rest[:-1].split(", ")] if rest != ")" else []
        assert ins, "no empty gates"
        assert len({abs(x) for x in ins}) == len(ins), "no id twice in a gate"
        assert all(abs(x) in declared or abs(x) in defined for x in ins), "defined before use"
        assert gid == len(declared) + len(defined) + 1
        defined.add(gid)
    assert out == max(defined), "the output is the last gate"
    assert top == len(declared) + len(defined)
