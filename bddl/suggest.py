"""The word a user probably meant: the fix a diagnostic names.

A misspelt keyword is the commonest mistake in a hand-written model, and the
message that helps is the one that says which word exists ("did you mean
'#boardsize'?").  Case is ignored when comparing (`not` is `NOT`, `Open` is
`open`), so a word that differs only by case is always found.
"""

from __future__ import annotations

import difflib
from typing import Iterable

PREDICATE_WORDS = ("open", "black", "white")
PROBLEM_SECTIONS = ("#boardsize", "#init", "#depth", "#blackgoals", "#whitegoals", "#blackturn")
DOMAIN_SECTIONS = ("#blackactions", "#whiteactions")
ACTION_KEYWORDS = (":action", ":parameters", ":precondition", ":effect")
ATOM_WORDS = PREDICATE_WORDS + ("NOT",)


def candidates(word: str, choices: Iterable[str], cutoff: float = 0.6) -> list[str]:
    """The choices closest to `word` (several when they tie), best first; [] when none is close."""
    choices = tuple(choices)
    by_folded = {c.lower(): c for c in choices}
    folded = word.lower()
    if folded in by_folded:
        return [by_folded[folded]]
    scores = {c: difflib.SequenceMatcher(None, folded, c).ratio() for c in by_folded}
    best = max(scores.values(), default=0.0)
    found = [c for c in by_folded if scores[c] == best] if best >= cutoff else []
    if not found and folded[:1] in "#:" and len(folded) > 2:
        # '#goals' is far from '#blackgoals' as a whole, but the sections whose names end the same are what was meant
        found = [c for c in by_folded if c[1:].endswith(folded[1:])]
    return [by_folded[c] for c in found]


def nearest(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The choice closest to `word`, or None when none is close enough."""
    found = candidates(word, choices, cutoff)
    return found[0] if found else None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """" (did you mean 'X'?)" to append to a message, or "" when nothing is close."""
    found = [c for c in candidates(word, choices) if c != word]
    if not found:
        return ""
    return " (did you mean " + " or ".join(f"'{c}'" for c in found) + "?)"


def listing(words: Iterable[str]) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def missing_file_hint(path) -> str:
    """The note for a file that does not exist: the file of its folder it most probably meant
    (`rcae.bddl` -> `race.bddl`), or where the folder itself is missing; "" when nothing is close."""
    from pathlib import Path

    path = Path(path)
    folder = path.parent
    if not folder.is_dir():
        return f"note: there is no folder '{folder}' either"
    try:
        names = [entry.name for entry in folder.iterdir() if entry.is_file()]
    except OSError:
        return ""
    close = [name for name in candidates(path.name, names, cutoff=0.75) if name != path.name]
    return f"note: did you mean {' or '.join(str(folder / name) for name in close)}?" if close else ""


def folder_hint(path) -> str:
    """The note for a folder given where a game file goes: the game files in it (a domain and a
    problem, in that order, or one `.pg` game), so that the user can pick."""
    from pathlib import Path

    folder = Path(path)
    try:
        entries = sorted(entry for entry in folder.iterdir() if entry.is_file() and entry.suffix.lower() in (".bddl", ".pg"))
    except OSError:
        entries = []
    kinds: dict[str, list[str]] = {"domain": [], "problem": [], "pg": []}
    for entry in entries:
        try:
            text = entry.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        sections = {line.split()[0].lower() for line in text.splitlines() if line.strip().startswith("#")}
        kind = ("pg" if sections & {"#times", "#positions"} else "domain" if sections & {"#blackactions", "#whiteactions"}
                else "problem" if sections & {"#boardsize", "#init", "#blackgoals"} else None)
        if kind:
            kinds[kind].append(str(entry))
    games = [f"{domain} {problem}" for domain in kinds["domain"][:1] for problem in kinds["problem"][:2]] + kinds["pg"][:3]
    if not games:
        return "note: give the game's files, not a folder: a domain and a problem, or one GAME.pg"
    return "note: give the game's files, not a folder; in this one: " + ", or ".join(games)
