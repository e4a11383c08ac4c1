"""A certificate as a file: deterministic JSON, one node a line.

The keys are sorted and nothing depends on the machine or the time, so the
same game and claim give the same bytes.  The file is written beside its
final name and renamed into place, so a failure leaves no partial file.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Iterator, Sequence

from .produce import FORMAT, Certificate, Edge, position_text


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _edge(edge: Edge) -> dict:
    if edge.swap is not None:
        return {"move": edge.move, "swap": edge.swap}
    entry: dict = {"move": edge.move, "to": edge.to}
    if edge.symmetry is not None:
        entry["symmetry"] = edge.symmetry
    return entry


def certificate_lines(certificate: Certificate) -> Iterator[str]:
    """The file's text, line by line (each ending in a newline), keys in sorted order."""
    c = certificate
    n = len(c.cells)
    game = {"depth": c.depth, "files": list(c.files), "language": c.language, "sha256": list(c.sha256)}
    yield "{" + f'"cells": {_dumps(list(c.cells))},\n'
    yield f'"claim": {_dumps(c.claim)},\n'
    yield f'"format": {_dumps(FORMAT)},\n'
    yield f'"game": {_dumps(game)},\n'
    yield '"nodes": [\n'
    last = c.size - 1
    for i in range(c.size):
        node = {"id": i, "moves": [_edge(e) for e in c.moves[i]], "ply": c.plies[i], "position": position_text(c.positions[i], n)}
        if i in c.black_cannot_win:
            node["black_cannot_win"] = True
        if i in c.answered_at_once:
            node["others_lose_at_once"] = True
        pairs = c.pairings.get(i)
        if pairs is not None:
            node["pairing"] = [[c.cells[a], c.cells[b]] for a, b in pairs]
        yield _dumps(node) + (",\n" if i < last else "\n")
    yield "],\n"
    if c.produced_by is not None:
        yield f'"produced_by": {_dumps(c.produced_by)},\n'
    yield '"root": 0,\n'
    yield _symmetries(c.symmetries)
    yield f'"version": {c.version}' + "}\n"


def _symmetries(perms: Sequence[Sequence[int]]) -> str:
    if not perms:
        return '"symmetries": [],\n'
    return '"symmetries": [\n' + ",\n".join(_dumps(list(p)) for p in perms) + "\n],\n"


def write(certificate: Certificate, path: str | Path) -> int:
    """Write the certificate to `path` (atomically); its size in bytes."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or Path("."))
    size = 0
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            for line in certificate_lines(certificate):
                out.write(line)
                size += len(line.encode("utf-8"))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
    return size
