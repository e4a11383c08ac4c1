"""Issue 42's trial, again: a new user in a folder of their own makes mistakes.

The user has three games of their own, written in a fresh folder and named by
relative paths: the issue's pawn race (a BDDL domain and problem), a `.pg`
Maker-Maker wheel (a hub and six rim cells, three along a diameter or the
rim win) and a hand-written Hex puzzle `.pg` (#neighbours, #startboarder,
#endboarder), a manifest for `regress`, a certificate of the wheel, and the
Python API.  Each case below is one deliberate mistake: a misspelt option or
value, files in the wrong order or missing, a folder for a file, an
unwritable output, a syntax error in each kind of file, a depth out of range,
an encoding or option that does not fit, a move in the wrong notation, a
certificate of another game.

Each case records the exit status it must get and a fragment of the message
that names the fix (what to type or change, so that the user can act on it
without the docs).  No case may end in a traceback, and no case may leave a
partial output file.  Every case runs in this process (`compiler.cli.main`,
with the folder as the working directory), so the whole trial takes seconds.

A case marked `short` falls short (its message does not name the fix yet):
it carries the fix proposed and is a strict xfail, which fails once the fix
lands so that the mark is removed.  None is marked today.

Run it as a report, one row per mistake (the status, the verdict, the
message's first lines):

    python tests/test_trial_mistakes.py
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from helpers.pawn_race import DOMAIN as PAWNS
from helpers.pawn_race import PROBLEM as RACE



_WHEEL_SETS = "p1 hub p4\np2 hub p5\np3 hub p6\np1 p2 p3\np2 p3 p4\np3 p4 p5\np4 p5 p6\np5 p6 p1\np6 p1 p2\n"
WHEEL = f"""\
% Maker-Maker on a wheel: a hub and six rim cells; three along a diameter or the rim win
#times
t1 t2 t3 t4 t5 t6 t7
#blackturns
t1 t3 t5 t7
#positions
hub p1 p2 p3 p4 p5 p6
#blackwins
{_WHEEL_SETS}#whitewins
{_WHEEL_SETS}"""

PUZZLE = """\
% a Hex puzzle by hand: Black joins row 1 to row 3, White has c2
#times
t1 t2 t3 t4 t5 t6 t7
#blackturns
t1 t3 t5 t7
#positions
a1 a2 a3 b1 b2 b3 c1 c2 c3
#whiteinitials
c2
#neighbours
a1 a2 b1
a2 a1 a3 b1 b2
a3 a2 b2 b3
b1 a1 a2 b2 c1
b2 a2 a3 b1 b3 c1 c2
b3 a3 b2 c2 c3
c1 b1 b2 c2
c2 b2 b3 c1 c3
c3 b3 c2
#startboarder
a1 b1 c1
#endboarder
a3 b3 c3
"""

MANIFEST = """\
[[problem]]
file = "race.bddl"
domain = "pawns.bddl"
black_wins = true
critical_depth = 1

[[problem]]
file = "wheel.pg"
black_wins = true

[[problem]]
file = "puzzle.pg"
black_wins = true
"""

GAMES = {"pawns.bddl": PAWNS, "race.bddl": RACE, "wheel.pg": WHEEL, "puzzle.pg": PUZZLE, "manifest.toml": MANIFEST}
BDDL = ["pawns.bddl", "race.bddl"]


@dataclass(frozen=True)
class Mistake:
    """One mistake: the command (argv after `bddlc`, or Python for the API), what it must get.

    `files`: files written first, each from a game of GAMES with one text replaced
    (name -> (source, old, new)) or given whole (name -> text).  `status`: the exit
    status (the API: 1 for a BddlError, 2 for a ValueError or TypeError, 0 for no
    exception).  `fix`: a fragment of the message that names the fix.  `absent`: a
    file that must not be left behind.  `short`: the message falls short today and the
    fix lies in a file this change could not edit; the fix proposed (the test is a strict
    xfail, so that it says when the fix lands)."""

    name: str
    argv: tuple[str, ...] = ()
    status: int = 1
    fix: str = ""
    files: dict[str, object] = field(default_factory=dict)
    stdin: str | None = None
    python: str | None = None
    absent: str | None = None
    short: str | None = None  # falls short today, in a file outside this trial's reach: the fix proposed


def _m(name: str, argv: str | list[str] = "", status: int = 1, fix: str = "", **kw) -> Mistake:
    words = tuple(argv.split()) if isinstance(argv, str) else tuple(argv)
    return Mistake(name, words, status, fix, **kw)


MISTAKES: list[Mistake] = [
    # -- compile ----------------------------------------------------------------------------------
    _m("compile: problem before domain", "race.bddl pawns.bddl -o race.qcir", 2,
       "the domain comes first, bddlc pawns.bddl race.bddl", absent="race.qcir"),
    _m("compile: the problem left out", "pawns.bddl -o race.qcir", 2, "give a DOMAIN and a PROBLEM file, a problem after it", absent="race.qcir"),
    _m("compile: a misspelt problem file", "pawns.bddl rcae.bddl -o race.qcir", 1, "did you mean race.bddl?", absent="race.qcir"),
    _m("compile: a misspelt .pg file", "wheel.pgg -o w.qdimacs", 1, "did you mean wheel.pg?", absent="w.qdimacs"),
    _m("compile: a misspelt option", "pawns.bddl race.bddl --encodng explicit", 2, "did you mean --encoding?"),
    _m("compile: a misspelt encoding", "pawns.bddl race.bddl --encoding explict", 2, "did you mean 'explicit'?"),
    _m("compile: corrective on a pawn race", "pawns.bddl race.bddl --encoding corrective -o r.qcir", 2,
       "the encodings that do: lifted, paper, explicit", absent="r.qcir"),
    _m("compile: ET on a Maker-Maker .pg", "wheel.pg --encoding et -o w.qdimacs", 2, "the encodings that do: cor+, corrective", absent="w.qdimacs"),
    _m("compile: a BDDL encoding on a .pg", "wheel.pg --encoding lifted", 2, "it compiles BDDL models; the encodings that do: cor+"),
    _m("compile: output into a missing folder", "pawns.bddl race.bddl -o out/race.qcir", 1, "create the folder first"),
    _m("compile: output is a folder", "pawns.bddl race.bddl -o .", 1, "it is a folder\nnote: name a file, e.g. game.qcir"),
    _m("compile: --format against the suffix", "pawns.bddl race.bddl -o race.qdimacs --format qcir", 2,
       "--format qcir does not agree with race.qdimacs", absent="race.qdimacs"),
    _m("compile: QCIR of a clause encoding", "wheel.pg --format qcir", 2, "use --format qdimacs"),
    _m("compile: --polarity on COR+", "wheel.pg --polarity -o w.qdimacs", 2, "drop --polarity", absent="w.qdimacs"),
    _m("compile: depth 0", "pawns.bddl race.bddl --depth 0", 2, "--depth: expected a number >= 1, got 0"),
    _m("compile: depth in words", "pawns.bddl race.bddl --depth nine", 2, "--depth: expected a whole number, got 'nine'"),
    _m("compile: a folder for the game", ". -o x.qcir", 1, "give the game's files, not a folder; in this one: pawns.bddl race.bddl",
       absent="x.qcir"),
    _m("compile: a .pg after a domain", "pawns.bddl wheel.pg", 2, "stands alone: give it without pawns.bddl"),
    _m("compile: --max-board-side on a .pg", "wheel.pg --max-board-side 10", 2, "a .pg game has cells, not sides: drop --max-board-side"),
    _m("compile: a misspelt command", "slove pawns.bddl race.bddl", 2, "did you mean 'solve'?"),
    _m("compile: --json without -o", "wheel.pg --json", 2, "give -o OUT"),
    # -- BDDL syntax ------------------------------------------------------------------------------
    _m("bddl: a misspelt section", "check pawns2.bddl race.bddl", 1, "did you mean '#whiteactions'?",
       files={"pawns2.bddl": ("pawns.bddl", "#whiteactions", "#whiteaction")}),
    _m("bddl: a misspelt predicate", "check pawns2.bddl race.bddl", 1, "pawns2.bddl:4:29: error: unknown predicate 'opne' (did you mean 'open'?)",
       files={"pawns2.bddl": ("pawns.bddl", "(black(?x,?y) open(?x,?y+1))", "(black(?x,?y) opne(?x,?y+1))")}),
    _m("bddl: an atom of one coordinate", "check pawns2.bddl race.bddl", 1, "e.g. (open(?x,?y) NOT(black(?x,?y+1)))",
       files={"pawns2.bddl": ("pawns.bddl", ":effect (open(?x,?y) black(?x,?y+1))", ":effect (open(?x,?y) black(?y+1))")}),
    _m("bddl: an unknown variable", "check pawns2.bddl race.bddl", 1, "unknown variable '?z' (the x position takes ?x)",
       files={"pawns2.bddl": ("pawns.bddl", "black(?x-1,?y+1))\n:action takeright", "black(?z-1,?y+1))\n:action takeright")}),
    _m("bddl: #boardsize of one number", "check pawns.bddl race2.bddl", 1, "#boardsize W H: two whole numbers",
       files={"race2.bddl": ("race.bddl", "#boardsize 4 4", "#boardsize 4")}),
    _m("bddl: a stone off the board", "check pawns.bddl race2.bddl", 1, "expected: an x index from 1 to 4",
       files={"race2.bddl": ("race.bddl", "black(4,1)", "black(5,1)")}),
    _m("bddl: #depth in words", "solve pawns.bddl race2.bddl", 1, "#depth D: one whole number",
       files={"race2.bddl": ("race.bddl", "#depth 9", "#depth nine")}),
    _m("bddl: an unclosed goal", "search pawns.bddl race2.bddl", 1, "expected: a ')' to close it",
       files={"race2.bddl": ("race.bddl", "(black(?x,ymax))", "(black(?x,ymax)")}),
    _m("bddl: a misspelt goal section", "search pawns.bddl race2.bddl", 1, "did you mean '#blackgoals'?",
       files={"race2.bddl": ("race.bddl", "#blackgoals", "#blakgoals")}),
    _m("bddl: #blackturn in another word", "solve pawns.bddl race2.bddl", 1, "#blackturn",
       files={"race2.bddl": ("race.bddl", "#depth 9", "#depth 9\n#blackturn last")}),
    # -- .pg syntax -------------------------------------------------------------------------------
    _m("pg: a winning set with an unknown cell", "check wheel2.pg", 1, "wheel2.pg:17:7: error: cell 'p7' is not declared in #positions",
       files={"wheel2.pg": ("wheel.pg", "p6 p1 p2\n#whitewins", "p6 p1 p7\n#whitewins")}),
    _m("pg: a misspelt section", "search wheel2.pg", 1, "did you mean '#blackturns'?",
       files={"wheel2.pg": ("wheel.pg", "#blackturns", "#blackturn")}),
    _m("pg: a turn at an undeclared time", "solve wheel2.pg", 1, "time point 't8' is not declared in #times",
       files={"wheel2.pg": ("wheel.pg", "t1 t3 t5 t7", "t1 t3 t5 t8")}),
    _m("pg: a cell declared twice", "check wheel2.pg", 1, "expected: each cell once in '#positions'",
       files={"wheel2.pg": ("wheel.pg", "hub p1 p2 p3 p4 p5 p6", "hub p1 p2 p3 p4 p5 p6 p1")}),
    _m("pg: commas between names", "check wheel2.pg", 1, "separated by white space",
       files={"wheel2.pg": ("wheel.pg", "t1 t2 t3 t4 t5 t6 t7", "t1, t2, t3, t4, t5, t6, t7")}),
    _m("pg: version 2.0", "check wheel2.pg", 1, "expected: version 1.0",
       files={"wheel2.pg": ("wheel.pg", "#times", "#version\n2.0\n#times")}),
    _m("pg: a cell owned by both", "solve wheel2.pg", 1, "hub",
       files={"wheel2.pg": ("wheel.pg", "#blackwins", "#blackinitials\nhub\n#whiteinitials\nhub\n#blackwins")}),
    _m("pg: a neighbour off the board", "check puzzle2.pg", 1, "cell 'd3' is not declared in #positions",
       files={"puzzle2.pg": ("puzzle.pg", "c3 b3 c2\n", "c3 b3 c2 d3\n")}),
    _m("pg: neighbours one way only", "check puzzle2.pg", 1, "add 'a1' to the line of 'b2'",
       files={"puzzle2.pg": ("puzzle.pg", "a1 a2 b1\n", "a1 a2 b1 b2\n")}),
    _m("pg: Hex without #endboarder", "check puzzle2.pg", 1, "a Hex game needs '#endboarder' too",
       files={"puzzle2.pg": ("puzzle.pg", "#endboarder\na3 b3 c3\n", "")}),
    _m("pg: Hex with winning sets too", "check puzzle2.pg", 1, "expected: an empty '#blackwins'",
       files={"puzzle2.pg": ("puzzle.pg", "#whiteinitials", "#blackwins\na1 a2 a3\n#whiteinitials")}),
    _m("pg: a misspelt Hex section", "check puzzle2.pg", 1, "did you mean '#neighbours'?",
       files={"puzzle2.pg": ("puzzle.pg", "#neighbours", "#neighbors")}),
    _m("pg: an empty file", "solve empty.pg", 1, "expected: '#times' followed by the time points in order", files={"empty.pg": "% nothing yet\n"}),
    _m("pg: a folder named .pg", "search games.pg", 1, "is a folder, not a game file", files={"games.pg/wheel.pg": WHEEL}),
    # -- check ------------------------------------------------------------------------------------
    _m("check: --reachable on a .pg", "check wheel.pg --reachable", 2, "in a positional game they hold by construction (a claim adds only the mover's cell): drop --reachable"),
    _m("check: a misspelt option", "check pawns.bddl race.bddl --reachble", 2, "did you mean --reachable?"),
    _m("check: --max-positions without --reachable", "check pawns.bddl race.bddl --max-positions 1000", 2,
       "add --reachable, or drop --max-positions"),
    # -- solve ------------------------------------------------------------------------------------
    _m("solve: a misspelt solver", "solve pawns.bddl race.bddl --solver depqb", 2, "did you mean 'depqbf'?"),
    _m("solve: a misspelt engine", "solve wheel.pg --engine qfb", 2, "did you mean 'qbf'?"),
    _m("solve: an option of search", "solve wheel.pg --algorithm pns", 2, "use bddlc search GAME... --algorithm ALGORITHM"),
    _m("solve: a negative timeout", "solve pawns.bddl race.bddl --timeout -1", 2, "expected a positive number of seconds, got -1"),
    _m("solve: a certificate into a missing folder", "solve wheel.pg --engine search --certificate certs/w.json", 1,
       "create the folder first"),
    _m("solve: a certificate not named .json", "solve wheel.pg --engine search --certificate w.txt", 2, "name it FILE.json, not w.txt",
       absent="w.txt"),
    _m("solve: --reply-to when Black moves first", ["solve", "wheel.pg", "--reply-to", "hub"], 2, "drop --reply-to"),
    _m("solve: --reply-to in another notation", ["solve", "pawns.bddl", "race2.bddl", "--engine", "search", "--reply-to", "d4-d3"], 2,
       "White to move here, whose moves are: advance 3 4, advance 4 4",
       files={"race2.bddl": ("race.bddl", "#depth 9", "#depth 9\n#blackturn second")}),
    _m("solve: --reply-to a cell of another game", ["solve", "wheel2.pg", "--engine", "search", "--reply-to", "a1"], 2,
       "there is no cell named 'a1'; White to move here, whose moves are: hub, p1",
       files={"wheel2.pg": ("wheel.pg", "t1 t3 t5 t7", "t2 t4 t6")}),
    # -- search -----------------------------------------------------------------------------------
    _m("search: a misspelt algorithm", "search wheel.pg --algorithm mimimax", 2, "did you mean 'minimax'?"),
    _m("search: positions in words", "search pawns.bddl race.bddl --max-positions ten", 2, "expected a whole number, got 'ten'"),
    _m("search: a depth above the guard", "search pawns.bddl race.bddl --depth 20000", 2,
       "give a smaller --depth, or raise the limit with --max-depth 20000"),
    _m("search: --race-patterns on a .pg", "search wheel.pg --race-patterns", 2, "drop --race-patterns"),
    # -- depth ------------------------------------------------------------------------------------
    _m("depth: --depth for --max", "depth pawns.bddl race.bddl --depth 5", 2, "to try depths up to 5, use --max 5"),
    _m("depth: --min above --max", "depth wheel.pg --min 5 --max 3", 2, "give --min 3 or less, or --max 5 or more"),
    _m("depth: --max 0", "depth puzzle.pg --max 0", 2, "--max: expected a number >= 1, got 0"),
    # -- validate ---------------------------------------------------------------------------------
    _m("validate: a negative --max-lines", "validate wheel.pg --max-lines -1", 2, "--max-lines: expected a number >= 1, got -1"),
    _m("validate: a time budget in words", "validate puzzle.pg --time-budget abc", 2, "expected a number of seconds, got 'abc'"),
    _m("validate: a zero timeout", "validate wheel.pg --timeout 0", 2, "expected a positive number of seconds, got 0"),
    # -- play -------------------------------------------------------------------------------------
    _m("play: a cell name in a BDDL game", "play pawns.bddl race2.bddl --engine search", 0, "a move is ACTION X Y, e.g. 'advance",
       stdin="d3\nquit\n", files={"race2.bddl": ("race.bddl", "black(1,1) black(2,3) black(4,1)", "black(1,1) black(4,1)")}),
    _m("play: a cell of another board", "play wheel.pg --engine search", 0, "there is no cell named 'p9'", stdin="p9\nquit\n"),
    _m("play: a cell already taken", "play wheel.pg --engine search", 0, "White cannot claim p1: it is not open", stdin="p1\nquit\n"),
    _m("play: a number past the list", "play wheel.pg --engine search", 0, "the list goes from 1 to 6", stdin="9\nquit\n"),
    _m("play: an option of show", "play wheel.pg --moves p1,p2", 2, "play reads White's moves at its prompt, one a line"),
    _m("play: a picture as PNG", "play wheel.pg --engine search --svg end.png", 2, "name the output FILE.svg, not end.png",
       stdin="quit\n", absent="end.png"),
    # -- show -------------------------------------------------------------------------------------
    _m("show: moves separated by spaces", ["show", "wheel.pg", "--moves", "p1 hub", "-o", "p.svg"], 1, "--moves 'p1, hub'", absent="p.svg"),
    _m("show: a cell played twice", ["show", "wheel.pg", "--moves", "p1, p1", "-o", "p.svg"], 1,
       "White to move here, whose moves are: hub, p2", absent="p.svg"),
    _m("show: White's move first", ["show", *BDDL, "--moves", "advance 3 4", "-o", "p.svg"], 1,
       "Black to move here, whose moves are: advance 1 1", absent="p.svg"),
    _m("show: a move past the end", ["show", "wheel.pg", "--moves", "p1,hub,p2,p3,p4,p5,p6,p1", "-o", "p.svg"], 1,
       "the game is over after 7 plies", absent="p.svg"),
    _m("show: a picture as PNG", "show wheel.pg -o wheel.png", 2, "name the output FILE.svg, not wheel.png", absent="wheel.png"),
    _m("show: an explorer as SVG", "show wheel.pg --certificate wheel.json -o w.svg", 2, "name the output FILE.html, not w.svg", absent="w.svg"),
    _m("show: another game's certificate", "show puzzle.pg --certificate wheel.json -o p.html", 1,
       "bddlc show wheel.pg --certificate wheel.json", absent="p.html"),
    _m("show: a misspelt certificate", "show wheel.pg --certificate wheel.jsn -o w.html", 1, "did you mean wheel.json?", absent="w.html"),
    _m("show: --max-positions without a certificate", "show wheel.pg --max-positions 10", 2, "it needs --certificate"),
    # -- certify ----------------------------------------------------------------------------------
    _m("certify: the certificate first", "certify wheel.json wheel.pg", 2, "here bddlc certify wheel.pg wheel.json"),
    _m("certify: the problem before the domain", "certify race.bddl pawns.bddl wheel.json", 2,
       "the domain comes first, bddlc certify pawns.bddl race.bddl wheel.json"),
    _m("certify: another game's certificate", "certify puzzle.pg wheel.json", 4, "check it against them: bddlc certify wheel.pg wheel.json"),
    _m("certify: a game file for the certificate", "certify wheel.pg puzzle.pg", 1,
       "a certificate is the JSON file `bddlc search|solve --certificate FILE` writes"),
    _m("certify: a misspelt certificate", "certify wheel.pg wheel.jsn", 1, "did you mean wheel.json?"),
    _m("certify: a truncated certificate", "certify wheel.pg cut.json", 1, "cut.json:1:46: error: not JSON",
       files={"cut.json": "{\"format\": \"bddlc-certificate\", \"version\": 3,"}),
    _m("certify: --depth of another depth", "certify wheel.pg wheel.json --depth 5", 4, "drop --depth 5"),
    # -- export -----------------------------------------------------------------------------------
    _m("export: a .pg game", "export wheel.pg -o w.pg", 2, "wheel.pg is a positional game already", absent="w.pg"),
    _m("export: a pawn race", "export pawns.bddl race.bddl -o race.pg", 1, "games whose claims wait for other cells", absent="race.pg"),
    _m("export: into a folder", "export tic_domain.bddl tic.bddl -o games", 1, "it is a folder\nnote: name a file, e.g. games/game.pg",
       files={"tic_domain.bddl": "#blackactions\n:action occupy\n:parameters (?x,?y)\n:precondition (open(?x,?y))\n:effect (black(?x,?y))\n"
                                 "#whiteactions\n:action occupy\n:parameters (?x,?y)\n:precondition (open(?x,?y))\n:effect (white(?x,?y))\n",
              "tic.bddl": "#boardsize 3 3\n#init\n()\n#depth 5\n#blackgoals\n(black(?x,?y) black(?x+1,?y) black(?x+2,?y))\n"
                          "#whitegoals\n(white(?x,?y) white(?x+1,?y) white(?x+2,?y))\n",
              "games/keep": ""}),
    # -- regress ----------------------------------------------------------------------------------
    _m("regress: a misspelt key", "regress m.toml", 1, "unknown key `critcal_depth` (did you mean 'critical_depth'?)",
       files={"m.toml": ("manifest.toml", "critical_depth = 1", "critcal_depth = 1")}),
    _m("regress: a missing problem file", "regress m.toml", 1, "note: did you mean file = \"wheel.pg\"?",
       files={"m.toml": ("manifest.toml", "file = \"wheel.pg\"", "file = \"weel.pg\"")}),
    _m("regress: an unclosed string", "regress m.toml", 1, "m.toml:8:8: error: this string is never closed",
       files={"m.toml": ("manifest.toml", "file = \"wheel.pg\"", "file = \"wheel.pg")}),
    _m("regress: a string for a boolean", "regress m.toml", 1, "`black_wins` is true or false, not \"yes\"",
       files={"m.toml": ("manifest.toml", "black_wins = true\n\n[[problem]]\nfile = \"puzzle.pg\"",
                         "black_wins = \"yes\"\n\n[[problem]]\nfile = \"puzzle.pg\"")}),
    _m("regress: a BDDL entry without its domain", "regress m.toml", 1, "a BDDL entry needs its `domain` file",
       files={"m.toml": ("manifest.toml", "domain = \"pawns.bddl\"\n", "")}),
    _m("regress: depth 0", "regress m.toml", 1, "expected: depth = 5",
       files={"m.toml": ("manifest.toml", "file = \"wheel.pg\"\n", "file = \"wheel.pg\"\ndepth = 0\n")}),
    _m("regress: a misspelt method", "regress manifest.toml --method serach", 2, "did you mean 'search'?"),
    _m("regress: the JUnit file in a missing folder", "regress manifest.toml --junit reports/j.xml", 1, "create the folder first"),
    _m("regress: a folder for the manifest", "regress .", 1, "give the manifest file; in this folder: "),
    _m("regress: a misspelt manifest", "regress manifst.toml", 1, "did you mean manifest.toml?"),
    _m("regress: the games for the manifest", "regress pawns.bddl race.bddl", 2, "run bddlc solve pawns.bddl race.bddl"),
    # -- the Python API ---------------------------------------------------------------------------
    _m("api: problem before domain", python="bddlc.open_model('race.bddl', 'pawns.bddl')", status=1,
       fix="give the domain first, then the problem: pawns.bddl race.bddl"),
    _m("api: a misspelt problem file", python="bddlc.open_model('pawns.bddl', 'rcae.bddl')", status=1, fix="did you mean race.bddl?"),
    _m("api: a misspelt .pg file", python="bddlc.open_model('wheel.pgg')", status=1, fix="did you mean wheel.pg?"),
    _m("api: depth 0", python="bddlc.open_model('wheel.pg', depth=0)", status=1, fix="at least 1"),
    _m("api: a misspelt encoding", python="bddlc.compile(bddlc.open_model('pawns.bddl', 'race.bddl'), encoding='explict')", status=2,
       fix="the encodings that do: lifted, paper, explicit"),
    _m("api: a misspelt engine", python="bddlc.solve(bddlc.open_model('wheel.pg'), engine='qfb')", status=2, fix="choose from auto, qbf, search"),
    _m("api: a misspelt algorithm", python="bddlc.search(bddlc.open_model('wheel.pg'), algorithm='mimimax')", status=2,
       fix="did you mean 'minimax'?"),
    _m("api: a bad text game", python="bddlc.open_text(game=open('wheel.pg').read().replace('#blackwins', '#blackwin'))", status=1,
       fix="<game.pg>:8:1: error: unknown section '#blackwin'; did you mean '#blackwins'?"),
    _m("api: a certificate of a text game", python="bddlc.write_certificate(bddlc.open_text(game=open('wheel.pg').read()), True, 'w.json')",
       status=2, fix="open_model", absent="w.json"),
    _m("api: certify a game file", python="bddlc.certify(bddlc.open_model('wheel.pg'), 'puzzle.pg')", status=2,
       fix="a certificate is the JSON file"),
    _m("api: the paths as one list", python="bddlc.open_model(['pawns.bddl', 'race.bddl'])", status=2, fix="open_model('pawns.bddl', 'race.bddl')"),
]


# -- running a mistake ----------------------------------------------------------------------------


@dataclass
class Outcome:
    status: int
    out: str
    err: str
    traceback: str | None

    @property
    def message(self) -> str:
        return self.err + self.out


def _write_games(folder: Path) -> None:
    for name, text in GAMES.items():
        (folder / name).write_text(text, encoding="utf-8")


def _certificate(folder: Path) -> None:
    import bddlc

    # written from the folder, as the user's was (by `bddlc search wheel.pg --certificate wheel.json`)
    with _inside(folder):
        bddlc.write_certificate(bddlc.open_model("wheel.pg"), True, "wheel.json")


@contextlib.contextmanager
def _inside(folder: Path):
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def prepare(folder: Path) -> None:
    """The user's folder: the three games, the manifest and the wheel's certificate."""
    _write_games(folder)
    _certificate(folder)


def _files(folder: Path, mistake: Mistake) -> None:
    for name, spec in mistake.files.items():
        if isinstance(spec, str):
            text = spec
        else:
            source, old, new = spec  # type: ignore[misc]
            text = (folder / source).read_text(encoding="utf-8")
            assert old in text, (mistake.name, old)
            text = text.replace(old, new, 1)
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


def run(folder: Path, mistake: Mistake) -> Outcome:
    """Make the mistake in `folder`: the exit status, what was printed, and any traceback."""
    from compiler.cli import main

    _files(folder, mistake)
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    status: int
    trace = None
    with _inside(folder), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        sys.stdin = io.StringIO(mistake.stdin or "")
        try:
            if mistake.python is not None:
                status = _api(mistake.python, err)
            else:
                status = main(list(mistake.argv))
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
        except BaseException:  # noqa: BLE001 - anything escaping is the bug this trial looks for
            trace = traceback.format_exc()
            status = -1
        finally:
            sys.stdin = stdin
    return Outcome(status, out.getvalue(), err.getvalue(), trace)


def _api(code: str, err: io.StringIO) -> int:
    """The API's answer to a mistake: 1 a BddlError (its render()), 2 a ValueError or
    TypeError (its words), 0 none."""
    import bddlc

    try:
        exec(code, {"bddlc": bddlc})  # noqa: S102 - the trial's own snippets
    except bddlc.BddlError as exc:
        print(exc.render(), file=err)
        return 1
    except (ValueError, TypeError) as exc:
        print(f"{type(exc).__name__}: {exc}", file=err)
        return 2
    return 0


# -- the test -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    where = tmp_path_factory.mktemp("user")
    prepare(where)
    return where


def test_the_trial_has_56_mistakes_over_every_command_and_both_languages():
    assert len(MISTAKES) >= 56 and len({m.name for m in MISTAKES}) == len(MISTAKES)
    commands = {m.name.split(":")[0] for m in MISTAKES}
    assert {"compile", "check", "solve", "search", "depth", "validate", "play", "show", "certify", "export", "regress",
            "bddl", "pg", "api"} <= commands


@pytest.mark.parametrize("mistake", [
    pytest.param(m, marks=pytest.mark.xfail(strict=True, reason=f"proposed: {m.short}")) if m.short else m for m in MISTAKES
], ids=[m.name for m in MISTAKES])
def test_a_mistake_gets_a_message_naming_its_fix(folder, mistake):
    got = run(folder, mistake)
    assert got.traceback is None, got.traceback
    assert "Traceback" not in got.message, got.message
    assert got.status == mistake.status, got.message
    assert mistake.fix in got.message, got.message
    if mistake.absent:
        assert not (folder / mistake.absent).exists(), f"{mistake.absent} left behind"


def report(folder: Path) -> int:
    """Print one row per mistake; return how many fall short."""
    short = tracebacks = 0
    for number, mistake in enumerate(MISTAKES, 1):
        got = run(folder, mistake)
        tracebacks += got.traceback is not None or "Traceback" in got.message
        ok = got.traceback is None and got.status == mistake.status and mistake.fix in got.message and (
            not mistake.absent or not (folder / mistake.absent).exists())
        short += not ok
        shown = got.traceback or got.message
        print(f"## {number}. {mistake.name}  [{'ok' if ok else 'SHORT'}] status {got.status} (expected {mistake.status})")
        print("   $ " + ("python: " + mistake.python if mistake.python else "bddlc " + " ".join(mistake.argv)))
        for line in shown.strip().splitlines()[:12]:
            print("   | " + line)
        if mistake.short and not ok:
            print("   proposed: " + mistake.short)
    print(f"{len(MISTAKES) - short} of {len(MISTAKES)} name the fix; {tracebacks} tracebacks")
    return short


if __name__ == "__main__":
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    with tempfile.TemporaryDirectory() as where:
        prepare(Path(where))
        sys.exit(1 if report(Path(where)) else 0)
