"""What Ascari players type in chat to say what VASSAL cannot show (the README's table):

| line | meaning |
| --- | --- |
| `flag italian` | step 1 of the sequence (2.0): the Game Turn flag shows this side as the active player |
| `fire 1 II at 2706` | the active player's Fire Combat Phase: unit `1 II` fires at the unit in hex 2706 |
| `opfire 5 Rifle RA at 1805` | Opportunity Fire by the inactive player at the moving unit in 1805 |

Units are named as the module names the piece; a line that names no piece on the table is still
read (the checks say they could not find the firer). Case does not matter. A log without these
lines is still judged: the active side is then inferred from who moves, and a die roll without a
declaration is not taken to be a fire attack.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from vlog.kit.chat import ChatGrammars

__all__ = ["Flag", "Fire", "GRAMMARS", "parse_flag", "parse_fire"]

_FLAG = re.compile(r"^\s*flag\s*:?\s+([a-z][a-z -]*?)\s*$", re.IGNORECASE)
_FIRE = re.compile(r"^\s*(op(?:portunity)?[ -]?fire|fire)\s+(.+?)\s+at\s+(\d{4})\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Flag:
    """The flag turned to a side: that side's player-turn begins (2.0 step 1)."""

    side: str


@dataclass(frozen=True, slots=True)
class Fire:
    """A fire attack declared: by `firer` (a piece name) at the hex `target`; `opportunity` for
    Opportunity Fire during the enemy's movement."""

    firer: str
    target: str
    opportunity: bool


@lru_cache(maxsize=1024)           # players repeat their lines: each read once
def parse_flag(text: str) -> Flag | None:
    match = _FLAG.match(text)
    return Flag(match.group(1).strip().lower().replace(" ", "-")) if match else None


@lru_cache(maxsize=1024)
def parse_fire(text: str) -> Fire | None:
    match = _FIRE.match(text)
    if not match:
        return None
    return Fire(match.group(2).strip(), match.group(3), match.group(1).lower() != "fire")


GRAMMARS = ChatGrammars()
GRAMMARS.add("flag", lambda line: parse_flag(line.message))
GRAMMARS.add("fire", lambda line: parse_fire(line.message))
