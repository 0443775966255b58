"""The Toy Skirmish rules engine: each drag on the map is one unit's move, judged against the
table before it (MV-01 path within the movement factor, MV-02 no lake) and after it (ST-01
stacking). The checks register with the inventory items they report, and the inventory names the kind
of action each item judges (its occasions); `check` calls the functions whose items judge an
action's kind, so this file declares nothing twice. Everything a check says about a rule (its reference, whether it is implemented, why not)
comes from data/inventory.json.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Iterable, Sequence

from vlog.engine.judge import Ruling
from vlog.engine.movement import MovementRules, check_move
from vlog.findings import Basis, Finding, Severity
from vlog.gamedata import GameData, load_game_data
from vlog.games.base import Action, CheckSpec, Context, Game
from vlog.kit.inventory import load_inventory
from vlog.kit.registry import Registry
from vlog.vassal.commands import MovePiece

if TYPE_CHECKING:  # pragma: no cover
    from vlog.table import Table, TablePiece
    from vlog.vassal.savefile import Step

GAME = "toy-skirmish"
INVENTORY = load_inventory(GAME)
REGISTRY = Registry(GAME, INVENTORY)
STACKING_LIMIT = 2
"""T2.1: units of one side in a hex."""


@dataclass(frozen=True, slots=True)
class Unit:
    """A piece on the map as the rules see it."""

    piece: str
    name: str
    side: str
    movement: int
    hex: str | None


def finding(short: str, ruling: Ruling, step: int, message: str, subjects: Sequence[str],
            evidence: dict[str, object]) -> Finding:
    proven = ruling is Ruling.PROVEN
    return Finding(INVENTORY.check_id(short), INVENTORY.item(short).rule or "",
                   Severity.ERROR if proven else Severity.WARNING,
                   Basis.PROVEN if proven else Basis.POSSIBLE, step, None, message, tuple(subjects), evidence)


class ToySkirmish(Game):
    id: ClassVar[str] = GAME
    checks: ClassVar[tuple[CheckSpec, ...]] = INVENTORY.specs()

    def __init__(self, data: GameData | None = None):
        self.data = data if data is not None else load_game_data(GAME)

    # -- reading the table ---------------------------------------------------------------

    def unit(self, table: "Table", piece: "TablePiece") -> Unit | None:
        """The unit a piece shows (its name is a counter's printed name), or None."""
        counters = self.data.counters_named(piece.name)
        if len(counters) != 1:
            return None
        record = self.data.counter(counters[0])
        return Unit(piece.id, piece.name, record["side"].value,
                    record["levels"]["full"]["movement"].value, table.location_name(piece))

    def units(self, table: "Table") -> list[Unit]:
        return [u for p in table.game_pieces() if (u := self.unit(table, p)) is not None]

    def neighbours(self, hex_: str) -> list[str]:
        """The hexes of the field next to `hex_`."""
        layout = self.data.layout()
        names = [layout.name(h) for h in layout.neighbours(layout.parse(hex_)) if min(h.col, h.row) > 0]
        return [n for n in names if self.data.hex(n) is not None]

    def cost(self, hex_: str) -> int | None:
        """What entering a hex costs, None where the TEC prohibits it."""
        if self.data.hex(hex_) is None:
            return None
        cell = self.data.lookup("tec", self.data.terrain(hex_).value, "movement").value
        return None if cell == "P" else cell

    # -- the game interface --------------------------------------------------------------

    def interpret(self, step: "Step", table: "Table", ctx: Context | None = None) -> Sequence[Action]:
        after = table.copy()
        after.apply_all(step.commands)
        out = []
        for command in step.commands:
            if isinstance(command, MovePiece):
                before, now = table.get(command.id), after.get(command.id)
                unit = self.unit(table, before) if before is not None else None
                if unit is not None and now is not None:
                    out.append(Action("move", step.index, (unit.name,),
                                      {"unit": unit, "to": after.location_name(now), "after": after}))
        return out

    def check(self, action: Action, table: "Table", ctx: Context) -> Iterable[Finding]:
        for judge in REGISTRY.judging(action.kind):
            yield from judge(self, action, table)


@REGISTRY.check("MV-01")
def judge_allowance(game: ToySkirmish, action: Action, table: "Table") -> list[Finding]:
    """T1.1: some path over the TEC costs, within the movement factor, reaches the new hex."""
    unit, to = action.data["unit"], action.data["to"]
    if unit.hex is None or to is None or game.cost(to) is None:
        return []                                          # off the map, or MV-02's
    rules = MovementRules(neighbours=game.neighbours, enter_cost=game.cost)
    result = check_move(rules, unit.hex, to, unit.movement)
    if result.ruling is Ruling.LEGAL:
        return []
    return [finding("MV-01", result.ruling, action.step,
                    f"{unit.name} moved {unit.hex} -> {to}: no path costs {unit.movement} or less",
                    (unit.name,), {"from": unit.hex, "to": to, "movement_factor": unit.movement})]


@REGISTRY.check("MV-02")
def judge_lake(game: ToySkirmish, action: Action, table: "Table") -> list[Finding]:
    """T1.2: no unit enters a lake hex."""
    unit, to = action.data["unit"], action.data["to"]
    if to is None or game.data.hex(to) is None or game.cost(to) is not None:
        return []
    return [finding("MV-02", Ruling.PROVEN, action.step, f"{unit.name} entered the lake hex {to}",
                    (unit.name,), {"hex": to, "terrain": game.data.terrain(to).value})]


@REGISTRY.check("ST-01")
def judge_stacking(game: ToySkirmish, action: Action, table: "Table") -> list[Finding]:
    """T2.1: at most two units of one side in the hex a move ends in."""
    unit, to = action.data["unit"], action.data["to"]
    there = Counter(u.side for u in game.units(action.data["after"]) if u.hex == to and to is not None)
    if there[unit.side] <= STACKING_LIMIT:
        return []
    return [finding("ST-01", Ruling.PROVEN, action.step,
                    f"{there[unit.side]} {unit.side} units in {to} after {unit.name} moved there "
                    f"(at most {STACKING_LIMIT})", (unit.name,),
                    {"hex": to, "units": there[unit.side], "limit": STACKING_LIMIT})]
