"""The kit's rules engine (vlog/kit/engine.py), driven by the replay on the toy game's fixture log:
the events of each step in their order, ledgers told before the checks, checks called for the
events their inventory items name as occasions and on the first and last position, the phase a game infers, chat declarations and the
phase in findings."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from types import SimpleNamespace

import pytest

import tests.toy_game.cases as toy_cases
import vlog
from tests.toy_game import installed
from vlog.engine.judge import Ruling
from vlog.kit.chat import ChatGrammars
from vlog.kit.engine import BEGIN, END, RulesEngine
from vlog.kit.inventory import Inventory, load_inventory
from vlog.kit.ledger import Ledger
from vlog.kit.registry import Registry
from vlog.kit.steps import PhaseChanged, Stepped
from vlog.replay import replay_log
from vlog.vassal.module import read_module


@dataclass(frozen=True)
class EndOfTurn:
    turn: int


def _end_of_turn(chat):
    match = re.fullmatch(r"end of turn (\d+)", chat.message.strip())
    return EndOfTurn(int(match.group(1))) if match else None


class Heard(Ledger):
    """Writes down what it hears, in order."""

    def __init__(self, log: list):
        self.log = log

    def begin(self, view):
        self.log.append(("ledger", "begin"))
        return ()

    def step(self, view):
        self.log.append(("ledger", "step", view.index))
        return ()

    def event(self, event, view):
        self.log.append(("ledger", type(event).__name__, event.step))
        return ()

    def phase(self, change, view):
        self.log.append(("ledger", "phase", change.old.name if change.old else None, change.new.name))
        return ()

    def end(self, view):
        self.log.append(("ledger", "end"))
        return ()


def recording_game(shown: bool = False):
    """A toy engine whose registered checks and ledger write down what they are told. The toy's
    table shows its turn and phase (Turn and Phase properties); unless `shown`, the engine is
    told the table shows none, and the phase moves on to the blue player's at the first blue
    move (what `infer_phase` is for)."""
    from tests.toy_game.toy_skirmish import rules as toy

    inventory = Inventory(toy.GAME, tuple(
        replace(item, occasions={"MV-01": ("moved",), "ST-01": ("declared",)}.get(item.id, ()))
        for item in toy.INVENTORY.items))
    registry = Registry(toy.GAME, inventory)
    grammars = ChatGrammars()
    grammars.add("end-of-turn", _end_of_turn)
    log: list = []

    @registry.check("MV-01")
    def moved(game, event, view):
        log.append(("check", "Moved", event.before.name, event.after.hex, game.phase.name))
        return [game.finding("MV-01", Ruling.POSSIBLE, step=event.step, message="seen",
                             depends_on=["tec.field"])] if event.before.name == "Red Horse" else []

    @registry.check("ST-01")
    def declared(game, event, view):
        log.append(("check", "Declared", event.grammar, event.declaration))
        return ()

    @registry.check("SQ-01", on=BEGIN)
    def began(game, view):
        log.append(("check", "begin", game.scenario, len(game.units(view.after))))
        return ()

    @registry.check("SQ-01", on=END)
    def ended(game, view):
        log.append(("check", "end", view.is_end))
        return ()

    class Recording(toy.ToySkirmish):
        def new_ledgers(self):
            return [Heard(log)]

        def phase_at(self, position):
            return super().phase_at(position) if shown else None

        def infer_phase(self, view, current):
            if current is None:
                return self.sequence.first()
            moved_blue = any(u.side == "blue" and u.hex != self.units(view.after)[i].hex
                             for i, u in self.units(view.before).items())
            return current.next() if moved_blue and current.name == "red move" else current

    Recording.inventory = inventory
    Recording.registry = registry
    Recording.grammars = grammars
    return Recording(), log


@pytest.fixture(scope="module")
def recorded():
    with installed():
        game, log = recording_game()
        report = replay_log(vlog.read(toy_cases.RULES / "MV-01.vlog"), module=read_module(toy_cases.MODULE),
                            game=game)
        yield game, log, report


def test_the_checks_are_the_inventory_specs():
    with installed():
        from tests.toy_game.toy_skirmish import rules as toy
    assert toy.ToySkirmish.checks == toy.INVENTORY.specs()


def test_each_step_tells_stepped_then_the_phase_then_the_units_then_declarations(recorded):
    game, log, _ = recorded
    assert log[:2] == [("ledger", "begin"), ("check", "begin", "skirmish", 4)]
    assert log[2:6] == [("ledger", "step", 1), ("ledger", "phase", None, "red move"),
                        ("ledger", "Moved", 1), ("check", "Moved", "Red Foot", "0205", "red move")]
    blue = log.index(("ledger", "step", 4))
    assert log[blue:blue + 4] == [("ledger", "step", 4), ("ledger", "phase", "red move", "blue move"),
                                  ("ledger", "Moved", 4), ("check", "Moved", "Blue Foot", "0505", "blue move")]
    assert log[-5:] == [("ledger", "step", 5), ("ledger", "Declared", 5),
                        ("check", "Declared", "end-of-turn", EndOfTurn(1)), ("ledger", "end"), ("check", "end", True)]


def test_the_phase_the_table_shows_is_taken_and_not_inferred():
    with installed():
        game, log = recording_game(shown=True)
        report = replay_log(vlog.read(toy_cases.RULES / "MV-01.vlog"), module=read_module(toy_cases.MODULE),
                            game=game)
    assert not [entry for entry in log if entry[:2] == ("ledger", "phase")]
    assert [f.when for f in report.findings if f.message.startswith("seen")] == ["Turn 1, red move"]


def test_findings_carry_the_phase_and_name_the_data_they_depend_on(recorded):
    _, _, report = recorded
    assert not [f for f in report.findings if f.check == "vlog/internal"]
    seen = [f for f in report.findings if f.message.startswith("seen")]
    assert [(f.step, f.when, f.basis.value) for f in seen] == [(3, "Turn 1, red move", "possible")]
    assert seen[0].message == "seen (possible: depends on tec.field)"
    assert seen[0].evidence["depends_on"] == ["tec.field"]


def test_a_replay_begins_afresh():
    """Ledgers are made for each replay and the phase read again: a second log judged by the
    same engine hears nothing of the first."""
    with installed():
        game, log = recording_game()
        module = read_module(toy_cases.MODULE)
        log_file = vlog.read(toy_cases.RULES / "MV-01.vlog")
        replay_log(log_file, module=module, game=game)
        first = list(log)
        log.clear()
        replay_log(log_file, module=module, game=game)
        assert log == first


def test_a_log_that_continues_the_last_one_judged_keeps_its_ledgers_and_scenario():
    """`continues` (the log starts where the last one the engine judged ended): one game, whose
    ledgers, scenario and phase go on; a fresh engine (`anew`) knows nothing of them."""
    with installed():
        game, _ = recording_game()
        module = read_module(toy_cases.MODULE)
        log_file = vlog.read(toy_cases.RULES / "MV-01.vlog")
        replay_log(log_file, module=module, game=game)
        ledgers, scenario = game.ledgers, game.scenario
        replay_log(log_file, module=module, game=game, continues=True)
        assert game.ledgers is ledgers and game.scenario == scenario
        replay_log(log_file, module=module, game=game)
        assert game.ledgers is not ledgers
        fresh = game.anew()
        assert type(fresh) is type(game) and fresh.data is game.data and fresh.ledgers is not game.ledgers


def test_a_game_must_say_how_a_counter_becomes_a_unit():
    with installed():
        class Bare(RulesEngine):
            id = "toy-skirmish"
            inventory = load_inventory("toy-skirmish")
            registry = Registry("toy-skirmish", inventory)

        with pytest.raises(NotImplementedError, match="Bare must say how a counter becomes a unit"):
            Bare().make_unit(None, "red-foot", None)


def test_events_name_their_kind():
    assert Stepped(1).kind == "stepped" and PhaseChanged(2, None, None).kind == "phase-changed"


def test_a_check_says_what_it_could_not_judge():
    """`unsettled` marks one occasion not settled, naming the data; `not_judged` marks a check
    that judged nothing on the log, whatever occasions the replay counted for it."""
    with installed():
        from tests.toy_game.toy_skirmish import rules as toy

        inventory = Inventory(toy.GAME, tuple(
            replace(item, occasions={"MV-01": ("moved",), "ST-01": ("moved",)}.get(item.id, ()))
            for item in toy.INVENTORY.items))
        registry = Registry(toy.GAME, inventory)

        @registry.check("MV-01")
        def moved(game, event, view):
            if event.before.name == "Red Horse":
                game.unsettled("MV-01", event.step, ["who is active"])
            return ()

        @registry.check("ST-01")
        def stacked(game, event, view):
            game.not_judged("ST-01", ["the stacking declarations"])
            return ()

        class Unsure(toy.ToySkirmish):
            pass

        Unsure.inventory, Unsure.registry = inventory, registry
        game = Unsure()
        assert game.tally is None
        game.unsettled("MV-01", 1, ["nothing"])          # outside a replay: nowhere to say it
        report = replay_log(vlog.read(toy_cases.RULES / "MV-01.vlog"), module=read_module(toy_cases.MODULE),
                            game=game)
    status = {s.check: s for s in report.tally.statuses(["toy-skirmish/MV-01", "toy-skirmish/ST-01"])}
    move = status["toy-skirmish/MV-01"]
    assert move.judgement.value == "partly-judged" and move.judged >= 1
    assert [(u.step, u.data) for u in move.unsettled] == [(3, ("who is active",))]
    stack = status["toy-skirmish/ST-01"]
    assert stack.judgement.value == "not-judged" and stack.judged == 0
    assert stack.reason() == "not judged: missing data: the stacking declarations"


def test_a_game_keeping_its_own_sequence_tells_its_phase_changes_itself():
    """`reads_sequence = False`: the engine reads no phase and tells no PhaseChanged; the game's
    own events (`more_events`) tell them after the unit events, and its `when` names the phase
    in findings."""
    with installed():
        game, log = recording_game(shown=True)

        @dataclass(frozen=True, slots=True)
        class Turned(PhaseChanged):
            pass

        class OwnSequence(type(game)):
            reads_sequence = False

            def more_events(self, view, events):
                if view.index == 2:
                    self.own = "the second step on"
                    return [Turned(view.index, None, SimpleNamespace(name=self.own))]
                return []

            def when(self):
                return getattr(self, "own", None)

        own = OwnSequence()
        replay_log(vlog.read(toy_cases.RULES / "MV-01.vlog"), module=read_module(toy_cases.MODULE),
                            game=own)
    assert own.sequence is None and own.phase is None
    phases = [entry for entry in log if entry[:2] == ("ledger", "phase")]
    assert phases == [("ledger", "phase", None, "the second step on")]
    step_2 = log.index(("ledger", "step", 2))
    assert log[step_2:step_2 + 3] == [("ledger", "step", 2), ("ledger", "Moved", 2),
                                      ("ledger", "phase", None, "the second step on")]
    assert own.finding("MV-01", Ruling.PROVEN, step=3, message="seen").when == "the second step on"


def test_changed_units_hold_every_unit_a_step_changed_and_not_the_others():
    """`changed_units`: what a check of a step's effect on units walks instead of the table."""
    with installed():
        from tests.toy_game.toy_skirmish import rules as toy

        seen: list[tuple[set, list, list]] = []

        class Watch(Ledger):
            def __init__(self, game):
                self.game = game

            def step(self, view):
                before, after = self.game.units(view.before), self.game.units(view.after)
                differ = {uid for uid, unit in after.items() if before.get(uid) != unit}
                seen.append((differ, list(self.game.changed_units(view)), list(after)))
                return ()

        class Watched(toy.ToySkirmish):
            def new_ledgers(self):
                return [Watch(self)]

        replay_log(vlog.read(toy_cases.RULES / "MV-01.vlog"), module=read_module(toy_cases.MODULE), game=Watched())
    assert seen and any(differ for differ, _, _ in seen)
    for differ, changed, every in seen:
        assert differ <= set(changed)
        assert changed == [uid for uid in every if uid in changed]          # in table order
        assert len(changed) < len(every)
