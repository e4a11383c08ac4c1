"""The refusals the docs promise are the ones the commands make.

A doc that says "refused (exit status 2)" is a promise, as much as a console
example is, and goes stale the same way.  `helpers.docs_examples.refusal_claims`
finds every sentence (or table cell) of the docs that promises a refusal with
an exit status; each must be covered by an entry of REFUSALS, which quotes
the words of the promise and runs a command that should be refused: the
command must exit with the status promised, print the message's words,
never a traceback, and leave no output file behind.  A new promise in the
docs without a command here fails `test_every_promised_refusal_is_run`.

The commands run as the doc examples do (`helpers.docs_examples.Workspace`):
in bash, from a scratch folder that sees the repository's `domains/`,
`problems/` and `docs/`, with `bddlc` meaning this checkout.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from helpers.docs_examples import ROOT, Block, Step, Workspace, refusal_claims

GENERATED = {"benchmarks.md", "benchmarks-default.md"}  # written by `python -m bench --report`: measurements
DOCS = [ROOT / "README.md"] + sorted(p for p in (ROOT / "docs").glob("*.md") if p.name not in GENERATED)

TIC = "problems/pg/tictactoe_3x3.pg"
TIC5 = "problems/pg/tictactoe_3x3_d5.pg"
HEX = "domains/positional.bddl problems/hex/hex2_d3.bddl"
HEX_CERT = "docs/certificates/hex2_d3.json"
CONNECT3 = "domains/connect.bddl problems/connect/connect3_4x4_d9.bddl"


@dataclass(frozen=True)
class Refusal:
    doc: str  # the doc's file name
    says: tuple[str, ...]  # words of the promises this entry keeps, as the doc writes them (whitespace joined)
    command: str  # bash, in the workspace
    status: int
    message: str  # words the command must print
    leaves_no: str | None = None  # a file the command must not write


REFUSALS = [
    Refusal("cli.md", ("without `--certificate` a usage error (exit status 2)",),
            f"bddlc search {TIC5} --every-reply; bddlc solve {CONNECT3} --every-reply", 2, "add --certificate FILE.json"),
    Refusal("cli.md", ("With `--engine qbf`, which runs no search, it is refused (exit status 2)",),
            f"bddlc solve {TIC5} --engine qbf --core python", 2, "--engine qbf runs no search"),
    Refusal("certificates.md", ("a checker refuses a version it does not know (exit 1)",),
            "python -c \"import json; d = json.load(open('" + HEX_CERT + "')); d['version'] = 99; json.dump(d, open('v.json', 'w'))\"; "
            f"bddlc certify {HEX} v.json", 1, "this bddlc reads versions"),
    Refusal("cli.md", ("(`--race-patterns` on a `.pg` game, an encoding that does not fit it) is refused with exit status 2",
                       "refused (exit status 2) on a `.pg` game"),
            "bddlc search problems/pg/row3_4x4.pg --algorithm pns --race-patterns", 2, "a .pg game is searched with the positional rules"),
    Refusal("cli.md", ("(`--race-patterns` on a `.pg` game, an encoding that does not fit it) is refused with exit status 2",
                       "An encoding that does not fit the game is refused (exit status 2) with the reason and the encodings that do fit"),
            "bddlc domains/domineering.bddl problems/domineering/3x3_d4.bddl --encoding corrective -o d.qcir", 2,
            "the encodings that do: lifted, paper, explicit", "d.qcir"),
    Refusal("cli.md", ("refuses with exit status 3 and the value that would let it run",),
            "bddlc domains/connect.bddl problems/connect/connect4_5x4_d19.bddl --encoding explicit --max-memory 1 -o c4.qcir", 3,
            "raise it with --max-memory 3 (megabytes)", "c4.qcir"),
    Refusal("cli.md", ("One that does not fit the game is refused with exit status 2, naming those that do",),
            f"bddlc solve {TIC} --encoding lifted", 2, "the encodings that do: cor+, corrective"),
    Refusal("cli.md", ("refused (exit status 2) for a `.pg` game, which has cells, not sides",),
            f"bddlc search {TIC} --max-board-side 9", 2, "a .pg game has cells, not sides"),
    Refusal("cli.md", ("are refused for it (exit status 2)",),
            f"bddlc check {TIC} --exhaustive", 2, "in a positional game they hold by construction"),
    Refusal("cli.md", ("with `search` they are refused (exit status 2)",),
            f"bddlc solve {TIC} --engine search --solver depqbf", 2, "drop --solver"),
    Refusal("cli.md", ("another suffix is a usage error (exit status 2)",),
            f"bddlc solve {TIC5} --svg position.png", 2, "name the output FILE.svg, not position.png", "position.png"),
    Refusal("cli.md", ("checked before the game starts: another suffix is a usage error (exit status 2)",),
            f"bddlc play {TIC5} --svg end.png < /dev/null", 2, "name the output FILE.svg, not end.png", "end.png"),
    Refusal("cli.md", ("given one, it is a usage error (exit status 2) that names `--max`",),
            f"bddlc depth {CONNECT3} --depth 5", 2, "to try depths up to 5, use --max 5"),
    Refusal("cli.md", ("`--method both` always solves by the QBF route, and refuses `auto` or `search`",),
            "bddlc regress docs/regress-example.toml --method both --engine search", 2, "use --method solve --engine search"),
    Refusal("cli.md", ("`--method search` refuses `--engine` (exit status 2",),
            "bddlc regress docs/regress-example.toml --method search --engine qbf", 2, "--method search runs the game engine alone"),
    Refusal("cli.md", ("1 bad input (a game file or the certificate unreadable, not JSON, not a certificate of this format version)",),
            f"bddlc certify {HEX} {TIC}", 1, "not JSON"),
    Refusal("cli.md", ("a certificate given before the game is one (exit status 2), with the command in the right order",),
            f"bddlc certify {HEX_CERT} {HEX}", 2, f"here bddlc certify {HEX} {HEX_CERT}"),
    Refusal("cli.md", ("A model that is not positional (Connect-4's gravity, say) is refused with exit status 1",),
            f"bddlc export {CONNECT3} -o c3.pg", 1, "Connect-4's gravity", "c3.pg"),
    Refusal("cli.md", ("A `.pg` game is one already: export refuses it (exit status 2).",),
            f"bddlc export {TIC}", 2, "is a positional game already"),
    Refusal("cli.md", ("Bad moves and certificates that are not the game's are bad input (exit status 1)",),
            f"bddlc show {TIC} --certificate {HEX_CERT} -o tic.html", 1, "another game's certificate", "tic.html"),
    Refusal("cli.md", ("Bad moves and certificates that are not the game's are bad input (exit status 1)",),
            f"bddlc show {TIC} --moves 'b2, b2' -o p.svg", 1, "White cannot claim b2: it is not open", "p.svg"),
    Refusal("cli.md", ("an output whose suffix does not match what is drawn is a usage error (exit status 2)",),
            f"bddlc show {TIC} -o sheet.html", 2, "a model sheet is written as .svg", "sheet.html"),
    Refusal("cli.md", ("refuse (exit status 3, no file) a certificate of more than N positions", "without `--certificate`, a usage error"),
            f"bddlc show {TIC} --max-positions 5 -o sheet.svg", 2, "it needs --certificate", "sheet.svg"),
    Refusal("cli.md", ("refuse (exit status 3, no file) a certificate of more than N positions",),
            f"bddlc show {HEX} --certificate {HEX_CERT} --max-positions 1 -o hex.html", 3, "raise it with --max-positions 2", "hex.html"),
    Refusal("certificates.md", ("`--core compiled` where the core cannot answer is refused with the reason (exit status 2), as for the search",),
            f"bddlc search {TIC} --core compiled --algorithm depth-first --certificate tic.json", 2, "not --algorithm depth-first", "tic.json"),
    Refusal("cli.md", ("`--core compiled` where it cannot answer (not built, `--algorithm depth-first`, ppn2 with `--leaf-jobs qbf` or `mixed`) is refused",),
            f"bddlc search {TIC} --core compiled --algorithm ppn2 --leaf-jobs qbf --certificate tic.json", 2,
            "it needs --leaf-jobs search", "tic.json"),
    Refusal("engines-core.md", ("`--core compiled` where it cannot answer",),
            f"bddlc search {TIC} --core compiled --algorithm depth-first", 2,
            "the compiled core has only the minimax and df-pn and PPN²'s search leaf jobs so far, not --algorithm depth-first"),
    Refusal("pictures.md", ("any other is a usage error (exit status 2)",),
            f"bddlc show {HEX} --certificate {HEX_CERT} -o hex.svg", 2, "explorer is written as .html: name the output FILE.html", "hex.svg"),
    Refusal("pictures.md", ("the first that is not legal, or comes after the game is over (a goal reached, no plies left), stops the command with exit status 1",),
            f"bddlc show {TIC} --moves 'b2, a1, a3, c3, c1, c2' -o p.svg", 1, "the game is over: Black won with move 5 (c1)", "p.svg"),
    Refusal("pictures.md", ("a move the rules refuse, or a position that does not follow from its parent's move, stops the command with exit status 1",),
            f"sed 's/\"occupy 2 1\"/\"occupy 9 9\"/' {HEX_CERT} > bad.json; bddlc show {HEX} --certificate bad.json -o hex.html", 1,
            "the move 'occupy 9 9' is not legal here", "hex.html"),
    Refusal("pictures.md", ("a certificate of more than 100,000 positions is refused with exit status 3, no file written",),
            f"bddlc show {HEX} --certificate {HEX_CERT} --max-positions 1 -o hex.html", 3, "more than the explorer's limit of 1", "hex.html"),
    Refusal("pictures.md", ("a suffix other than `.svg` is a usage error (exit status 2)",),
            f"bddlc solve {TIC5} --svg position.pdf", 2, "name the output FILE.svg, not position.pdf", "position.pdf"),
    Refusal("pictures.md", ("a folder that does not exist or a board too large to draw is bad input (exit status 1)",),
            f"bddlc solve {TIC5} --svg nowhere/position.svg", 1, "no such folder 'nowhere'"),
    Refusal("positional.md", ("A `.pg` game stands alone: given after a domain it is a usage error (exit status 2).",),
            f"bddlc search domains/positional.bddl {TIC}", 2, "stands alone: give it without domains/positional.bddl"),
    Refusal("positional.md", ("What does not apply is refused with a sentence (exit status 2)",),
            f"bddlc check {TIC} --reachable", 2, "in a positional game they hold by construction"),
    Refusal("positional.md", ("What does not apply is refused with a sentence (exit status 2)",),
            f"bddlc export {TIC}", 2, "is a positional game already"),
    Refusal("regress.md", ("A manifest with a mistake is refused before anything runs",),
            "sed 's/^critical_depth/critcal_depth/' docs/regress-example.toml > typo.toml; bddlc regress typo.toml", 1,
            "error: unknown key `critcal_depth` (did you mean 'critical_depth'?)"),
    Refusal("regress.md", ("so is a `--junit` file that cannot be written (a missing folder)",),
            "bddlc regress docs/regress-example.toml --junit nowhere/regress.xml", 1, "no such folder 'nowhere'"),
    Refusal("solving.md", ("with `--engine search` they are refused, exit status 2",),
            f"bddlc solve {CONNECT3} --engine search --encoding explicit", 2, "drop --encoding"),
]


def _covered(doc: str, claim: str) -> bool:
    return any(r.doc == doc and any(" ".join(said.split()) in claim for said in r.says) for r in REFUSALS)


def test_every_promised_refusal_is_run():
    """A promise in the docs with no command here is a promise nobody checks."""
    unchecked = [f"{path.name}: {claim}" for path in DOCS for claim in refusal_claims(path) if not _covered(path.name, claim)]
    assert not unchecked, "refusals the docs promise that tests/test_docs_refusals.py does not run:\n" + "\n".join(unchecked)


def test_every_entry_quotes_the_docs():
    """An entry whose words are gone from the doc checks a promise nobody makes any more."""
    for refusal in REFUSALS:
        claims = refusal_claims(ROOT / ("README.md" if refusal.doc == "README.md" else f"docs/{refusal.doc}"))
        for said in refusal.says:
            assert any(" ".join(said.split()) in claim for claim in claims), f"{refusal.doc} no longer says: {said}"


@pytest.mark.parametrize("refusal", [pytest.param(r, id=f"{r.doc}: {r.command[-60:]}") for r in REFUSALS])
def test_the_command_is_refused_as_the_doc_says(refusal: Refusal, tmp_path):
    workspace = Workspace.create(tmp_path)
    [(_, lines, status)] = workspace.run(Block(tmp_path / refusal.doc, 0, (Step(refusal.command, ()),)))
    output = "\n".join(lines)
    assert status == refusal.status, f"exit status {status}, not {refusal.status}:\n{output}"
    assert refusal.message in output, output
    assert "Traceback" not in output, output
    if refusal.leaves_no:
        assert not (tmp_path / refusal.leaves_no).exists(), f"{refusal.leaves_no} was written"
