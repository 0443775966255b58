"""What the drawn events do to play (PB 13.7, PB 14.7; Random Events Summary), as the event
ledger judges it (checks/events.py: `EventLedger` is an `EventEffects`):

* (35) B6 coordination placed on an activating Ethiopian leader ("ET-12"), B7 Wireless
  Interception holding the stack it marks ("ET-13"), A4 League of Nations barring bombing and
  gas ("EV-06"), A3 and C3 RPs received where the text says (`RP_EVENTS`: "EV-05", "EV-12");
* (40) D9/D10 Open City markers and their rolls ("EV-17"), a neutral French Somaliland
  ("SC-08", "MV-46"), C2 War Office No to Berbera ("EV-11"), D6 brigades a turn early.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from vlog.engine.judge import Ruling, Unknown
from vlog.findings import Finding
from vlog.games.lion_of_judah.board import hex_label
from vlog.games.lion_of_judah.checks.common import REGISTRY, finding
from vlog.games.lion_of_judah.checks.event_cards import (BDO_TURN, BERBERA, C1_NOT_SHOWN, GASSED, IPL_HIGH, IPL_LOW,
                                                         IPL_LOW_DATUM, OPEN_CITY_AREAS, RP_EVENTS, VP_TABLE, Draw,
                                                         rp_markers)

if TYPE_CHECKING:  # pragma: no cover
    from vlog.games.lion_of_judah.sequence import Phase
    from vlog.games.lion_of_judah.state import GameState, Unit

__all__ = ["EventEffects"]


class EventEffects:
    """What the events drawn do to play: the event ledger's judgements on moves, placements
    and the end of an Event Phase (the ledger's fields: checks/events.py)."""

    @REGISTRY.reports("ET-12")
    def _coordination(self, name: str, hex_: str, phase: Phase | None, bound: bool, after: GameState,
                      *, step: int, when: str | None) -> list[Finding]:
        """ET-12 (B6): placed on an Ethiopian leader when it activates: in the Ethiopian
        activation segment, on a hex with an Ethiopian leader."""
        out: list[Finding] = []
        leaders = [u for u in after.at(hex_) if u.kind == "leader" and u.side == "ethiopian"]
        if not leaders:
            out.append(finding("ET-12", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                               message=f"{name} was placed at {hex_label(hex_, self.board)}, "
                                       "where no Ethiopian leader stands; it is placed on a leader "
                                       "being activated",
                               evidence={"hex": hex_, "leaders": []}))
        if bound and phase is not None and phase.key != "second-movement":
            out.append(finding("ET-12", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                               message=f"{name} was placed in the "
                                       f"{phase.name}; it is placed when a leader "
                                       "is activated, in the Ethiopian activation segment",
                               evidence={"hex": hex_, "phase": phase.key}))
        return out

    @REGISTRY.reports("ET-13")
    def _wireless(self, name: str, hex_: str, phase: Phase | None, bound: bool, before: GameState,
                  *, step: int, when: str | None) -> list[Finding]:
        """ET-13 (B7): on a hex of Ethiopian units not within one hex of the Negus; in the
        Ethiopian movement segment only right after an activation roll, before that tribe moves."""
        out: list[Finding] = []
        units = [u for u in before.at(hex_) if u.side == "ethiopian" and u.kind != "air"]
        if not bound or phase is None or phase.key == "second-movement":
            # played in the Ethiopian movement it holds the stack; elsewhere it is the air use (AR-13)
            self.wireless = (hex_, frozenset(u.id for u in units), step)
        if not units:
            out.append(finding("ET-13", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                               message=f"{name} was placed at {hex_label(hex_, self.board)}, "
                                       "a hex without Ethiopian units",
                               evidence={"hex": hex_, "ethiopian_units": []}))
        negus = [u for u in before.units.values() if u.counter == "et-negus" and u.hex is not None]
        near = [u for u in negus if self.board.distance(u.hex, hex_) <= 1]  # type: ignore[arg-type]
        if near:
            out.append(finding("ET-13", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                               message=f"{name} was placed at {hex_label(hex_, self.board)}, "
                                       f"within one hex of the Negus ({near[0].hex}); it marks units "
                                       "not within one hex (inclusive) of the Negus",
                               evidence={"hex": hex_, "negus_hex": near[0].hex}))
        if bound and phase is not None and phase.scenario == "1935-36" and phase.key == "second-movement":
            moved = self.last_move_step.get("ethiopian")
            rolled = self.last_roll_step
            if rolled is None or (moved is not None and moved > rolled):
                out.append(finding("ET-13", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                                   message=f"{name} was played in the Ethiopian movement "
                                           "segment but not right after a tribal activation roll "
                                           f"(last roll: step {rolled}; last Ethiopian move: step {moved})",
                                   evidence={"hex": hex_, "last_roll_step": rolled,
                                             "last_ethiopian_move_step": moved}))
        return out

    @REGISTRY.reports("EV-17")
    def _open_city(self, pid: str, info: EventInfo, name: str, hex_: str, phase: Phase | None,
                   bound: bool, before: GameState, *, step: int, when: str | None) -> list[Finding]:
        """EV-17 (D9/D10): used at once, on a town or capital of Eritrea, Ethiopia or Italian
        Somaliland next to a Commonwealth unit and not surrounded by Allied units."""
        self.open_cities[hex_] = pid
        if bound and phase is not None and phase.key == "event":
            self.city_rolls[hex_] = []
        out: list[Finding] = []
        problems: list[str] = []
        depends: list[str] = []
        town = [self.board.has_feature(hex_, f) for f in ("town", "capital")]
        if not any(t is True for t in town):
            if any(isinstance(t, Unknown) for t in town):
                depends.extend(d for t in town if isinstance(t, Unknown) for d in t.data)
            else:
                problems.append("it is not a town or capital")
        areas = [self.board.in_zone(hex_, z) for z in OPEN_CITY_AREAS]
        if not any(a is True for a in areas):
            if any(isinstance(a, Unknown) for a in areas):
                depends.extend(d for a in areas if isinstance(a, Unknown) for d in a.data)
            else:
                problems.append("it is not in Eritrea, Ethiopia or Italian Somaliland")
        around = self.board.neighbours(hex_)
        commonwealth = [u for n in around for u in before.at(n)
                        if u.side == "allied" and u.unit_class != "guerrilla" and u.kind != "air"
                        and (self.data.counter(u.counter)["nationality"].value
                             if u.counter and "nationality" in self.data.counter(u.counter) else None)
                        == "british-commonwealth"]
        if not commonwealth:
            problems.append("no Commonwealth unit is next to it")
        if around and all(any(u.side == "allied" and u.kind != "air" for u in before.at(n)) for n in around):
            problems.append("Allied units surround it completely")
        if bound and phase is not None:
            draw = self.drawn.get(pid)
            if info.code != "open-city" and (phase.key != "event" or draw is None or draw.turn != phase.turn):
                problems.append("it was not played at once, in the Event Phase it was drawn")
            ipl = self.ipl_at_draw.get(info.code) if info.code != "open-city" else next(
                (self.ipl_at_draw.get(self.info[d.marker].code) for d in self.phase_draws
                 if self.info[d.marker].open_city), None)
            if ipl is not None and ipl >= IPL_HIGH:
                problems.append(f"the IPL was {ipl} (high) when the event was drawn: it is discarded")
            if info.code == "open-city" and (phase.key != "event" or not any(
                    self.info[d.marker].open_city for d in self.phase_draws)):
                problems.append("no Città Aperta event (D9, D10) was drawn in this Event Phase")
        if not problems and not depends:
            return out
        ruling = Ruling.PROVEN if problems else Ruling.POSSIBLE
        reasons = "; ".join(problems) or "the hex may not qualify"
        out.append(finding("EV-17", ruling, step=step, when=when, subjects=(name,),
                           message=f"{name} was played on {hex_label(hex_, self.board)}: {reasons}",
                           evidence={"event": info.code, "hex": hex_, "problems": problems},
                           depends_on=() if problems else depends))
        return out

    # -- units ----------------------------------------------------------------------------------
    @REGISTRY.reports("ET-13", "MV-46")
    def on_unit_move(self, unit: Unit, to: str, phase: Phase | None, bound: bool, *, step: int,
                     when: str | None) -> list[Finding]:
        """MV-46 (no Italian move into an open city), ET-13 (the marked stack stays put)."""
        if unit.side is not None:
            self.last_move_step[unit.side] = step
        out: list[Finding] = []
        if unit.side == "italian" and to in self.open_cities:
            marker = self.names.get(self.open_cities[to], "Open City")
            out.append(finding("MV-46", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                               message=f"{unit.name} moved into {hex_label(to, self.board)}, which holds the "
                                       f"open city marker {marker}; Italian units enter an open city only "
                                       "by advance after combat",
                               evidence={"hex": to, "from": unit.hex, "marker": marker}))
        out += self._free_french(unit, to, phase, bound, step=step, when=when)
        if self.wireless is not None and unit.id in self.wireless[1] and unit.hex == self.wireless[0] \
                and bound and phase is not None and phase.key == "second-movement" \
                and phase.scenario == "1935-36" and ("ET-13-move", unit.id) not in self.reported:
            self.reported.add(("ET-13-move", unit.id))
            out.append(finding("ET-13", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                               message=f"{unit.name} moved out of {hex_label(unit.hex, self.board)} under the "
                                       "Wireless Interception marker; the marked stack may not move during "
                                       "that activation",
                               evidence={"hex": unit.hex, "to": to, "marked_at_step": self.wireless[2]}))
        return out

    @REGISTRY.reports("SC-08")
    def _free_french(self, unit: Unit, to: str, phase: Phase | None, bound: bool, *, step: int,
                     when: str | None) -> list[Finding]:
        """SC-08 (PB 14.6.6): the Free French units in Djibouti are not Allied-controlled until C1
        makes French Somaliland join; the BdO enters as an Allied unit on turn 9 if it has not."""
        if unit.counter is None or unit.side != "allied" or (phase is not None and phase.scenario != "1940-41"):
            return []
        record = self.data.counter(unit.counter)
        if "nationality" not in record or record["nationality"].value != "free-french":
            return []
        if unit.counter == "ff-bdo" and bound and phase is not None and phase.turn >= BDO_TURN:
            return []
        joined = self.french_somaliland_joined()
        if joined is True or ("SC-08", unit.id) in self.reported:
            return []
        self.reported.add(("SC-08", unit.id))
        depends = (C1_NOT_SHOWN,) if joined is None else joined.data if isinstance(joined, Unknown) else ()
        return [finding("SC-08", Ruling.POSSIBLE if depends else Ruling.PROVEN, step=step, when=when,
                        subjects=(unit.name,),
                        message=f"{unit.name} moved to {hex_label(to, self.board)} while French Somaliland "
                                "had not joined the Allies (Event C1); the Free French units are not "
                                "Allied-controlled until then",
                        evidence={"from": unit.hex, "hex": to, "c1_drawn": self.c1_drawn,
                                  "c1_roll": self.c1_roll}, depends_on=depends)]

    def entry_turn(self, unit: Unit, turn: int) -> int:
        """EV-14 (D6): the turn a reinforcement is judged against for its entry turn (RR-01): after
        D6 (drawn after D7) up to three Commonwealth brigades may enter one turn early, and each
        that does uses one of the three; otherwise (D6 before D7 is discarded) the turn itself."""
        scheduled = unit.properties.get("entry_turn") if unit.properties else None
        if self.early_brigades <= 0 or unit.side != "allied" or unit.size != "brigade" \
                or not isinstance(scheduled, int) or scheduled != turn + 1 or unit.counter is None:
            return turn
        record = self.data.counter(unit.counter)
        if "nationality" not in record or record["nationality"].value != "british-commonwealth":
            return turn
        self.early_brigades -= 1
        return turn + 1

    @REGISTRY.reports("EV-06")
    def on_air_mission(self, marker: Unit, hex_: str, phase: Phase | None, bound: bool,
                       attacked: str | None, *, step: int, when: str | None) -> list[Finding]:
        """EV-06 (A4): no bombing in the turn League of Nations is drawn. A bombing is an Italian
        air marker placed in the Italian combat segment on a hex that is not the target of the
        attack being resolved (air support is committed to a declared attack, 12.4 step 3; a
        bombing is placed at the segment's start, PB 13.6.5.1). Gas attacks share the Ethiopian
        movement segment with interdiction and are not told apart."""
        if not bound or phase is None or self.league_turn != phase.turn or marker.side != "italian" \
                or phase.scenario != "1935-36" or phase.key != "first-combat" or hex_ == attacked:
            return []
        return [finding("EV-06", Ruling.PROVEN, step=step, when=when, subjects=(marker.name,),
                        message=f"air marker {marker.name} was placed on {hex_label(hex_, self.board)} in the "
                                f"Italian combat segment of turn {phase.turn}, not on a declared attack: a "
                                "bombing mission, barred on the turn Event A4 League of Nations is drawn",
                        evidence={"hex": hex_, "turn": phase.turn, "attack_target": attacked})]

    def _british_somaliland_italians(self, state: GameState) -> tuple[list[str], list[str]]:
        """Names of the Italian-controlled units in British Somaliland, and the map data that
        would settle the hexes not known to be in it or out of it."""
        names, depends = [], []
        for u in state.units.values():
            if u.side != "italian" or u.hex is None or u.kind == "air":
                continue
            inside = self.board.in_zone(u.hex, "british-somaliland")
            if inside is True:
                names.append(u.name)
            elif isinstance(inside, Unknown):
                depends.extend(inside.data)
        return names, sorted(set(depends))

    @REGISTRY.reports("EV-11")
    def _war_office(self, draw: Draw, state: GameState, *, step: int, when: str) -> list[Finding]:
        """EV-11 (C2): with Italian-controlled units in British Somaliland the Allied player rolls
        (+1 when the IPL is low): 1-4 closes Berbera to reinforcements and rebuilt units."""
        italians, _ = self._british_somaliland_italians(state)
        if not italians:
            return []                           # discarded: no effect
        if not draw.rolls:
            return [finding("EV-11", Ruling.PROVEN, step=step, when=when, subjects=(draw.name,),
                            message=f"{draw.name} was drawn at step {draw.step} with Italian-controlled units "
                                    f"in British Somaliland ({', '.join(italians)}) and no die roll followed "
                                    "in the Event Phase",
                            evidence={"event": "C2", "drawn_step": draw.step, "italian_units": italians,
                                      "rolls": []})]
        roll = draw.rolls[0]
        if roll <= 3:
            self.berbera_closed = (draw.step, Ruling.PROVEN, ())
        elif roll == 4:
            ipl = self.ipl_at_draw.get("C2")
            if ipl is None:
                self.berbera_closed = (draw.step, Ruling.POSSIBLE, (IPL_LOW_DATUM,))
            elif ipl > IPL_LOW:                 # not low: no +1, the 4 closes Berbera
                self.berbera_closed = (draw.step, Ruling.PROVEN, ())
        return []

    @REGISTRY.reports("EV-06", "EV-11")
    def on_placement(self, unit: Unit, hex_: str, before: GameState, phase: Phase | None, bound: bool,
                     *, step: int, when: str | None) -> list[Finding]:
        """EV-11 (C2): no Allied reinforcement or rebuilt unit placed at Berbera (2311) while C2
        holds, that is until no Italian-controlled unit is left in British Somaliland. EV-06 (A4):
        a Gassed marker placed in the turn League of Nations is drawn shows a gas attack."""
        if unit.counter == GASSED and bound and phase is not None and self.league_turn == phase.turn:
            return [finding("EV-06", Ruling.PROVEN, step=step, when=when, subjects=(unit.name,),
                            message=f"a Gassed marker was placed at {hex_label(hex_, self.board)} on turn "
                                    f"{phase.turn}: a gas attack, barred on the turn Event A4 League of "
                                    "Nations is drawn",
                            evidence={"hex": hex_, "turn": phase.turn, "marker": GASSED})]
        if self.berbera_closed is None or unit.side != "allied" or hex_ != BERBERA:
            return []
        italians, depends = self._british_somaliland_italians(before)
        if not italians:
            if not depends:
                self.berbera_closed = None      # the order lapses (C2)
            return []
        drawn_step, ruling, data = self.berbera_closed
        return [finding("EV-11", ruling, step=step, when=when, subjects=(unit.name,),
                        message=f"{unit.name} was placed at {hex_label(hex_, self.board)} while War Office No "
                                f"Resistance Orders (C2, step {drawn_step}) closes it: Italian-controlled units "
                                f"are in British Somaliland ({', '.join(italians)})",
                        evidence={"hex": hex_, "italian_units": italians, "c2_step": drawn_step},
                        depends_on=data)]

    @REGISTRY.reports("EV-17")
    def _open_city_rolls(self, old: Phase, state: GameState, *, step: int) -> list[Finding]:
        """EV-17 (D9/D10): the die decides: above the hex's VP the Italian units leave it (and
        only then does the Open City marker stay); otherwise the marker goes."""
        out: list[Finding] = []
        when = old.when()
        table = self.data.table(VP_TABLE) if VP_TABLE in self.data.table_ids else None
        for hex_, rolls in self.city_rolls.items():
            pid = self.open_cities.get(hex_)
            if pid is None:
                continue                    # the marker left the hex: a failed roll, or discarded
            name = self.names.get(pid, "Open City")
            if not rolls:
                out.append(finding("EV-17", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                                   message=f"{name} stays on {hex_label(hex_, self.board)} with no die roll "
                                           "logged after it was placed; the roll must beat the hex's VP",
                                   evidence={"hex": hex_, "problems": ["no roll"]}))
                continue
            datum = table.lookup(hex_) if table is not None else None
            vp = datum.value if datum is not None and datum.known else None
            if vp is None:
                continue
            italians = [u.name for u in state.at(hex_) if u.side == "italian" and u.kind != "air"]
            if rolls[0] <= vp:
                out.append(finding("EV-17", Ruling.PROVEN, step=step, when=when, subjects=(name,),
                                   message=f"{name} stays on {hex_label(hex_, self.board)} after a roll of "
                                           f"{rolls[0]}, not above its {vp} VP: the city is not open",
                                   evidence={"hex": hex_, "roll": rolls[0], "vp": vp,
                                             "problems": ["roll not above the VP"]}))
            elif italians:
                out.append(finding("EV-17", Ruling.PROVEN, step=step, when=when, subjects=tuple(italians),
                                   message=f"{', '.join(italians)} still in {hex_label(hex_, self.board)} when the "
                                           f"Event Phase ends, after it was declared an open city (roll "
                                           f"{rolls[0]} above {vp} VP); the Italian units move out",
                                   evidence={"hex": hex_, "roll": rolls[0], "vp": vp, "italian_units": italians,
                                             "problems": ["Italian units stayed"]}))
        self.city_rolls = {}
        return out

    @REGISTRY.reports(*(check for _, check in RP_EVENTS.values()))
    def _rp_received(self, old: Phase, state: GameState, *, step: int) -> list[Finding]:
        """EV-05 (A3): two Ethiopian RPs, each on a map hex with an Ethiopian leader; EV-12 (C3):
        two Italian RPs, both in the same Italian RP storage box. Counted from the RP markers
        (7.3.1: each shows 1, 2, 3 or 5 RPs) added between the draw and the Phase's end."""
        out: list[Finding] = []
        when = old.when()
        for code, at_draw in self.rp_at_draw.items():
            side, check = RP_EVENTS[code]
            added: dict[str, int] = {}          # hex or box -> RPs added there
            for uid, (hex_, box, value) in rp_markers(state, side).items():
                was = at_draw.get(uid)
                gain = value - (was[2] if was is not None and was[:2] == (hex_, box) else 0)
                if gain > 0:
                    where = hex_ or f"box:{box}"
                    added[where] = added.get(where, 0) + gain
            total = sum(added.values())
            problems: list[str] = []
            if total != 2:
                problems.append(f"{total} RPs were placed, not two")
            if code == "A3":
                for where in added:
                    leaders = [u for u in state.at(where) if u.kind == "leader" and u.side == "ethiopian"] \
                        if where.isdigit() else []
                    if not leaders:
                        problems.append(f"RPs placed at {where if where.isdigit() else where[4:] + ' box'}, "
                                        "not on a map hex with an Ethiopian leader")
            else:
                boxes = [w[4:] for w in added if w.startswith("box:")]
                if len(added) > 1:
                    problems.append(f"the RPs were split between {', '.join(sorted(w.removeprefix('box:') for w in added))}")
                if any(not b.startswith("rp-italian") for b in boxes) or any(w.isdigit() for w in added):
                    problems.append("RPs placed outside the Italian RP storage boxes")
            if problems:
                name = next((n for pid, n in self.names.items() if self.info[pid].code == code), code)
                out.append(finding(check, Ruling.PROVEN, step=step, when=when, subjects=(name,),
                                   message=f"{name}: " + "; ".join(problems),
                                   evidence={"event": code, "rp_added": dict(sorted(added.items())),
                                             "problems": problems}))
        self.rp_at_draw = {}
        return out
