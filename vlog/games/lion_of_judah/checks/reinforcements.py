"""Reinforcements and rebuilt units entering the map (7.2, PB 13.5.2, PB 14.5.2).

Judged on units placed on the map during the Mutual Administration Phase (when the turn track
tells the phase):

* RR-01 (7.2): not before the turn printed on the counter (where the data gives it);
* RR-02 (7.2): never into an entry hex occupied by the enemy;
* RR-03 (PB 13.5.2.1): (35) Italian units at Massawa 1405 or Mogadishu 2322, or next to one when
  it is full (breakdown units and columns are formed in place, 2.4, PB 13.6.8);
* RR-10, RR-11 (PB 14.5.2.1, 14.5.2.4, 14.6.6): (40) Allied units at 0505, 0508, 1001, 1122, 1327
  or 2311, or captured Massawa, Mogadishu or Kismayo, or Djibouti once French Somaliland has
  joined; next to one when it is full; trucks and dummies are deployed otherwise;
* RR-06, RR-07 (PB 13.5.2.2): (35) Ethiopian units in their faction's capital or its leader's hex,
  or next to one; none while the capital is enemy-controlled or after the leader is eliminated;
* RR-20 (PB 14.6.7): (40) in the MAP of turn 5 the KAR1 and KAR2 brigades on the map and in supply
  when it begins are withdrawn, each replaced in its hex by an EA brigade (21EA/11A, 22EA/12A),
  which enter no other way; judged when that MAP ends (`KarWithdrawal`);
* RR-21 (PB 14.6.8): (40) the SOM HQ comes in on turn 5 at Berbera 2311, while the Allies control
  it (in place of two truck reinforcements, which a log does not show); later arrivals may be
  rebuilds and are not judged;
* RR-22 (PB 14.6.4.3, 14.6.4.4): (40) the Gideon Force and the Negus arrive on turn 6;
* RR-23 (PB 14.6.5): (40) reinforcement dummies arrive on turns 2 to 6, two a turn at most
  (`DummyArrivals`), in a hex holding an Allied unit or as other Allied reinforcements do, with at
  most 8 dummies in play.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import Board, hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, GameLedger, finding
from vlog.games.lion_of_judah.step_events import PhaseTurned
from vlog.games.lion_of_judah.checks.supply import controller, trace
from vlog.games.lion_of_judah.state import GameState, Unit
from vlog.kit.schedules import Placement, arrivals

if TYPE_CHECKING:  # pragma: no cover
    from vlog.kit.steps import StepView

__all__ = ["judge_placement", "judge_event_irregulars", "ENTRY_1935_ITALIAN", "ENTRY_1940_ALLIED",
           "CAPTURED_PORTS", "REVOLT_CENTRES", "KarWithdrawal", "KAR_BRIGADES", "EA_BRIGADES",
           "WITHDRAWAL_TURN", "DummyArrivals"]

KAR_BRIGADES = ("gb-kar1", "gb-kar2")
EA_BRIGADES = ("gb-21ea-11a", "gb-22ea-12a")
WITHDRAWAL_TURN = 5
"""PB 14.6.7: the KAR brigades are withdrawn in the MAP of turn 5."""
ARRIVE_1940 = ("gb-gideon", "et-negus")
"""PB 14.6.4.3, 14.6.4.4: (40) the Gideon Force and the Negus arrive on their turn (scenarios.json)."""
SOM_HQ = "gb-som"
"""PB 14.6.8: the SOM HQ comes in on its turn, where its reinforcement entry says (scenarios.json)."""
DUMMY = "al-dummy"
"""PB 14.6.5: the reinforcement dummies, two on each of their turns (scenarios.json)."""
DUMMIES_IN_PLAY = 8
"""PB 14.6.5: at most 8 dummy counters in play."""
DUMMIES_A_TURN = 2
"""PB 14.6.5: two reinforcement dummies a turn."""

ENTRY_1935_ITALIAN = ("1405", "2322")
ENTRY_1940_ALLIED = ("0505", "0508", "1001", "1122", "1327", "2311")
CAPTURED_PORTS = ("1405", "2322", "1925")
FORMED_IN_PLACE = ("breakdown", "column")
REVOLT_CENTRES = {"A2 Rebellion": "0910", "B8 Revolt": "1418"}
"""(35) The events that place Italian colonial irregulars, and the hex they are placed around."""


def _capitals(board: Board) -> dict[str, str]:
    table = board.data.table("faction-capitals")
    return {key[0]: datum.value for key, datum in table.listed_cells().items() if datum.value}


@REGISTRY.reports("RR-01", "RR-02", "RR-03", "RR-06", "RR-07", "RR-10", "RR-21", "RR-22",
                 "RR-23")
def judge_placement(board: Board, before: GameState, after: GameState, unit: Unit, *,
                    turn: int | None, step: int | None, when: str | None,
                    gone_leaders: Iterable[str] = ()) -> list[Finding]:
    """Findings about one unit placed on the map in the Mutual Administration Phase."""
    hex_ = unit.hex
    if hex_ is None or unit.kind == "air":
        return []
    out: list[Finding] = []
    where = hex_label(hex_, board)
    entry_turn = unit.properties.get("entry_turn")
    if isinstance(entry_turn, int) and turn is not None and turn < entry_turn:
        out.append(finding("RR-01", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                           message=f"{unit.name} entered on turn {turn}; it arrives on turn {entry_turn}",
                           evidence={"turn": turn, "entry_turn": entry_turn, "hex": hex_}))
    scenario = after.scenario
    if scenario == "1940-41":
        out += _arrivals_1940(board, before, after, unit, turn=turn, step=step, when=when)
    if unit.unit_type in FORMED_IN_PLACE or unit.unit_class == "italian-colonial-irregular":
        return out
    if scenario == "1935-36" and unit.side == "italian":
        entries = ENTRY_1935_ITALIAN
        rule = "RR-03"
    elif scenario == "1940-41" and unit.side == "allied" and unit.kind not in ("truck", "dummy"):
        entries = ENTRY_1940_ALLIED + tuple(h for h in CAPTURED_PORTS
                                            if controller(board, before, h) == "allied")
        if after.flags.get("french-somaliland-joined"):
            entries += ("1910",)
        rule = "RR-10"
    elif scenario == "1935-36" and unit.side == "ethiopian" and unit.kind != "leader":
        return out + _ethiopian(board, before, unit, step, when, set(gone_leaders))
    else:
        return out
    enemy = [u for u in before.at(hex_) if u.side not in (None, unit.side) and u.kind != "air"]
    if hex_ in entries and enemy:
        out.append(finding("RR-02", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                           message=f"{unit.name} entered at {where}, an entry hex occupied by the enemy",
                           evidence={"hex": hex_, "enemy_units": [u.name for u in enemy]}))
        return out
    near = {n for e in entries for n in board.neighbours(e)}
    if hex_ not in entries and hex_ not in near:
        named = ", ".join(hex_label(e, board) for e in entries)
        out.append(finding(rule, Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                           message=f"{unit.name} entered the map at {where}, neither an entry hex "
                                   f"({named}) nor next to one",
                           evidence={"hex": hex_, "entry_hexes": list(entries)}))
    return out


def _ethiopian(board: Board, before: GameState, unit: Unit, step: int | None, when: str | None,
               gone_leaders: set[str]) -> list[Finding]:
    faction = unit.faction
    if faction is None:
        return []
    key = {"gojjam": "gojjam", "hararghe/ogaden": "hararghe-ogaden"}.get(faction, faction)
    capital = _capitals(board).get(key)
    leaders = [u for u in before.units.values() if u.kind == "leader" and u.faction == faction and u.hex]
    leader_counter = f"et-leader-{unit.counter.removeprefix('et-levy-')}" if unit.counter else None
    where = hex_label(unit.hex or "", board)
    out: list[Finding] = []
    if leader_counter in gone_leaders:
        out.append(finding("RR-06", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                           message=f"{unit.name} entered at {where}, but the {faction} leader has been "
                                   "eliminated: the faction gets no more reinforcements",
                           evidence={"faction": faction, "leader": leader_counter}))
        return out
    if capital is not None and controller(board, before, capital) == "italian":
        out.append(finding("RR-06", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                           message=f"{unit.name} entered at {where} while its capital "
                                   f"{hex_label(capital, board)} is Italian-controlled",
                           evidence={"faction": faction, "capital": capital}))
        return out
    anchors = ([capital] if capital else []) + [u.hex for u in leaders if u.hex]
    if not anchors:
        return out
    allowed = set(anchors) | {n for a in anchors for n in board.neighbours(a)}
    if unit.hex not in allowed:
        out.append(finding("RR-07", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                           message=f"{unit.name} entered at {where}, neither in nor next to its "
                                   f"faction's capital or leader",
                           evidence={"hex": unit.hex, "capital": capital,
                                     "leader_hexes": [u.hex for u in leaders]}))
    return out


@REGISTRY.reports("EV-04", "EV-09")
def judge_event_irregulars(board: Board, before: GameState, unit: Unit, *, turn: int | None,
                           step: int | None, when: str | None) -> list[Finding]:
    """(35) Italian colonial irregulars placed in the Event Phase come from event A2 Rebellion
    (within 2 hexes of 0910) or, from turn 5, B8 Revolt (within 2 of 1418); never in a town or
    capital hex nor in a hex holding an enemy unit (EV-04, EV-09)."""
    hex_ = unit.hex
    if hex_ is None:
        return []
    centres = {name: h for name, h in REVOLT_CENTRES.items()
               if name.startswith("A") or turn is None or turn >= 5}
    where = hex_label(hex_, board)
    near = [name for name, centre in centres.items() if board.distance(hex_, centre) <= 2]
    rule = "EV-09" if near == ["B8 Revolt"] else "EV-04"
    if not near:
        return [finding(rule, Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                        message=f"{unit.name} was placed at {where}, more than 2 hexes from "
                                + " and ".join(hex_label(c, board) for c in centres.values()),
                        evidence={"hex": hex_, "centres": list(centres.values())})]
    out: list[Finding] = []
    town = [board.has_feature(hex_, f) for f in ("town", "capital")]
    enemy = [u.name for u in before.at(hex_) if u.side not in (None, unit.side) and u.kind != "air"]
    if any(t is True for t in town) or enemy:
        why = "an enemy-occupied hex" if enemy else "a town or capital hex"
        out.append(finding(rule, Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                           message=f"{unit.name} was placed at {where}, {why}",
                           evidence={"hex": hex_, "enemy_units": enemy}))
    elif any(isinstance(t, Unknown) for t in town):
        data = frozenset().union(*(t.data for t in town if isinstance(t, Unknown)))
        out.append(finding(rule, Ruling.POSSIBLE, step=step, when=when, subjects=(unit.name,),
                           message=f"{unit.name} was placed at {where}, which must not be a town or "
                                   "capital hex", evidence={"hex": hex_}, depends_on=data))
    return out


@dataclass(slots=True)
class KarWithdrawal(GameLedger):
    """(40) The KAR withdrawal of PB 14.6.7: the EA brigades placed so far and those judged."""

    placed: list[tuple[Unit, int | None, int | None, str | None]] = field(default_factory=list)
    """EA brigades placed on the map in the turn-5 MAP: (unit, turn, step, when)."""
    entered: set[str] = field(default_factory=set)
    """EA counters that have entered play (a later placement is a rebuild, 7.3.4)."""

    @REGISTRY.reports("RR-20")
    def note_placed(self, board: Board, unit: Unit, *, turn: int | None, in_map: bool,
                    step: int | None, when: str | None) -> list[Finding]:
        """An EA brigade placed on the map; outside the turn-5 MAP it is PROVEN at once (first entry)."""
        if unit.counter not in EA_BRIGADES or unit.counter in self.entered:
            return []
        self.entered.add(unit.counter)
        if in_map and turn == WITHDRAWAL_TURN:
            self.placed.append((unit, turn, step, when))
            return []
        return [finding("RR-20", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                        message=f"{unit.name} entered at {hex_label(unit.hex or '', board)} outside the MAP of "
                                f"turn {WITHDRAWAL_TURN}; the EA brigades enter only there, each in the hex of "
                                "a KAR brigade withdrawn", evidence={"hex": unit.hex, "turn": turn})]

    def phase(self, change: PhaseTurned, view: "StepView") -> list[Finding]:
        game, old = self.game, change.old
        if old is None or old.key != "map" or old.turn != WITHDRAWAL_TURN or game.scenario != "1940-41" \
                or not change.bound or game.map_start is None:
            return []
        game.map_start.scenario = game.scenario
        return self.close(game.board, game.map_start, change.state, step=change.step, when=old.when())

    @REGISTRY.reports("RR-20")
    def close(self, board: Board, start: GameState, end: GameState, *, step: int | None,
              when: str | None) -> list[Finding]:
        """At the end of the turn-5 MAP: KARs that should have gone, EA brigades out of place.
        `start` and `end` are the positions when the MAP began and ended."""
        out: list[Finding] = []
        withdrawn: list[str] = []
        for kar in (u for u in start.units.values() if u.counter in KAR_BRIGADES and u.hex is not None):
            still = end.units.get(kar.id)
            if still is None or still.hex is None:
                withdrawn.append(kar.hex or "")
                continue
            supplied = trace(board, start, kar)
            if supplied is None or supplied.ruling is Ruling.PROVEN:
                continue                       # out of supply: it stays, and one EA never enters
            ruling = Ruling.PROVEN if supplied.ruling is Ruling.LEGAL else Ruling.POSSIBLE
            out.append(finding("RR-20", ruling, step=step, when=when, subjects=(kar.name,),
                               message=f"{kar.name} is still on the map at {hex_label(still.hex or '', board)} "
                                       f"when the MAP of turn {WITHDRAWAL_TURN} ends; a KAR brigade in play and "
                                       "in supply is withdrawn then",
                               evidence={"hex": still.hex, "turn": WITHDRAWAL_TURN},
                               depends_on=supplied.verdict.depends_on))
        free = list(withdrawn)
        for unit, _turn, at_step, at_when in self.placed:
            if unit.hex in free:
                free.remove(unit.hex)
                continue
            why = ("no KAR brigade was withdrawn there" if withdrawn else "no KAR brigade was withdrawn")
            out.append(finding("RR-20", Ruling.PROVEN, step=at_step, when=at_when, subjects=(unit.name,),
                               message=f"{unit.name} entered at {hex_label(unit.hex or '', board)}; {why} "
                                       "(an EA brigade takes a withdrawn KAR brigade's place in its hex)",
                               evidence={"hex": unit.hex, "kar_hexes": withdrawn}))
        self.placed = []
        return out


@dataclass
class DummyArrivals:
    """(40) The reinforcement dummies placed in each turn's MAP (RR-23: two a turn)."""

    placed: dict[int, list[str]] = field(default_factory=dict)

    @REGISTRY.reports("RR-23")
    def note(self, board: Board, unit: Unit, *, turn: int, step: int | None, when: str | None) -> list[Finding]:
        if unit.kind != "dummy" or unit.side != "allied" or unit.hex is None:
            return []
        names = self.placed.setdefault(turn, [])
        names.append(unit.name)
        if len(names) != DUMMIES_A_TURN + 1:
            return []                       # reported once a turn, at the first one too many
        return [finding("RR-23", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                        message=f"a reinforcement dummy entered at {hex_label(unit.hex, board)}, the third "
                                f"of turn {turn}; the Allies receive {DUMMIES_A_TURN} a turn (PB 14.6.5)",
                        evidence={"turn": turn, "hex": unit.hex, "dummies_this_turn": len(names),
                                  "allowed": DUMMIES_A_TURN})]


def _arrival_1940(board: Board, counter: str) -> Placement | None:
    """The (40) reinforcement entry bringing a counter, when the data gives its turns."""
    entries = arrivals(board.data, "1940-41").get(counter, [])
    return entries[0] if entries and entries[0].turns else None


def _arrivals_1940(board: Board, before: GameState, after: GameState, unit: Unit, *, turn: int | None,
                   step: int | None, when: str | None) -> list[Finding]:
    """RR-22 and RR-23 for a (40) unit placed in the MAP of `turn`."""
    where = hex_label(unit.hex or "", board)
    entry = _arrival_1940(board, unit.counter) if unit.counter in ARRIVE_1940 else None
    arrives = min(entry.turns) if entry is not None and entry.turns else None
    if arrives is not None and isinstance(turn, int) and turn < arrives \
            and not isinstance(unit.properties.get("entry_turn"), int):       # else RR-01 says it
        return [finding("RR-22", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                        message=f"{unit.name} entered at {where} on turn {turn}; it arrives on turn {arrives}",
                        evidence={"turn": turn, "arrives": arrives, "hex": unit.hex})]
    som = _arrival_1940(board, SOM_HQ) if unit.counter == SOM_HQ else None
    if som is not None and som.hex is not None and isinstance(turn, int) and turn <= min(som.turns or ()):
        return _somalia_hq(board, before, unit, som, turn=turn, step=step, when=when)
    if unit.kind != "dummy" or unit.side != "allied":
        return []
    out: list[Finding] = []
    dummies = _arrival_1940(board, DUMMY)
    if isinstance(turn, int) and dummies is not None and dummies.turns and turn not in dummies.turns:
        out.append(finding("RR-23", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                           message=f"a reinforcement dummy entered at {where} on turn {turn}; dummies arrive "
                                   f"on turns {min(dummies.turns)} to {max(dummies.turns)}",
                           evidence={"turn": turn, "hex": unit.hex}))
    allied_here = [u for u in before.at(unit.hex or "") if u.side == "allied" and u.kind not in ("air", "marker")]
    entries = ENTRY_1940_ALLIED + tuple(h for h in CAPTURED_PORTS if controller(board, before, h) == "allied")
    if after.flags.get("french-somaliland-joined"):
        entries += ("1910",)
    near = set(entries) | {n for e in entries for n in board.neighbours(e)}
    if not allied_here and unit.hex not in near:
        out.append(finding("RR-23", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                           message=f"a reinforcement dummy entered at {where}, a hex with no Allied unit that "
                                   "is neither an Allied entry hex nor next to one",
                           evidence={"hex": unit.hex, "entry_hexes": list(entries)}))
    in_play = [u for u in after.units.values() if u.kind == "dummy" and u.side == "allied" and u.hex is not None]
    if len(in_play) > DUMMIES_IN_PLAY:
        out.append(finding("RR-23", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                           message=f"a reinforcement dummy entered at {where}, making {len(in_play)} dummies in "
                                   f"play; at most {DUMMIES_IN_PLAY}",
                           evidence={"hex": unit.hex, "dummies_in_play": len(in_play)}))
    return out


def _somalia_hq(board: Board, before: GameState, unit: Unit, entry: Placement, *, turn: int,
                step: int | None, when: str | None) -> list[Finding]:
    """RR-21 (PB 14.6.8) for the SOM HQ placed in the MAP of `turn` (at most its turn, 5): at its
    entry hex (Berbera 2311) while the Allies control it."""
    where = hex_label(unit.hex or "", board)
    som_turn, berbera_hex = min(entry.turns or ()), entry.hex
    berbera = hex_label(berbera_hex, board)
    if turn < som_turn:
        why = f"it may come in only on turn {som_turn}"
    elif unit.hex != berbera_hex:
        why = f"it comes in at {berbera}"
    elif controller(board, before, berbera_hex) not in ("allied",):
        who = controller(board, before, berbera_hex)
        if isinstance(who, Unknown):
            return [finding("RR-21", Ruling.POSSIBLE, step=step, when=when, subjects=(unit.name,),
                            message=f"the SOM HQ came in at {berbera}, which the Allies must control",
                            evidence={"hex": unit.hex, "turn": turn}, depends_on=who.data)]
        why = f"the Allies do not control {berbera}"
    else:
        return []
    return [finding("RR-21", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                    message=f"the SOM HQ came in at {where} on turn {turn}; {why} (PB 14.6.8)",
                    evidence={"hex": unit.hex, "turn": turn})]
