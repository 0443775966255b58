"""vlog.kit.sequence built from every game's scenarios.json: Lion of Judah's first and second
player segments, Island of Death's Axis and Allied player turns with their landing phases,
Ascari's player-turn sequence played once per side, Sideshow's operations segments whose player
the initiative decides; and the turn and phase a table shows."""
from __future__ import annotations

import json

import pytest

from vlog.gamedata import load_game_data
from vlog.kit.sequence import PhaseSpec, ShownReader, sequence_of, shown_on_table, side_name, turn_of_label
from vlog.table import Table
from vlog.vassal.commands import MutableProperty

IOD_KINDS = {"movement": "movement", "combat": "combat", "penetration": "movement",
             "amphibious-landing": "landing", "airborne-landing": "landing"}
ASCARI_KINDS = {"movement-melee-opportunity-fire": ("movement", "melee"), "fire-combat": "fire"}
SIDESHOW_KINDS = {"operations-segment-1": "operations", "operations-segment-2": "operations"}


def test_lion_of_judah_segments_belong_to_the_first_and_second_side():
    seq = sequence_of(load_game_data("lion-of-judah"), "1935-36",
                      kinds={"movement": "movement", "combat": "combat", "activation": ("movement", "combat")})
    assert (seq.sides, seq.turns) == (("italian", "ethiopian"), 7)
    assert seq.phases[2] == PhaseSpec("first-player-movement", "italian", frozenset({"movement"}))
    assert seq.phases[4] == PhaseSpec("second-player-activation", "ethiopian", frozenset({"movement", "combat"}))
    assert seq.phases[0].side is None and seq.phases[0].kinds == frozenset()
    start = seq.first()
    assert (start.turn, start.name) == (1, "event")                  # PB 13.1: no MAP on turn 1
    assert seq.labels[1] == "Oct 1935"


def test_island_of_death_phases_name_their_side_and_landings_are_a_kind():
    seq = sequence_of(load_game_data("island-of-death"), "intro", kinds=IOD_KINDS)
    assert seq.sides == ("axis", "allied") and seq.turns == 24
    assert [(p.name, p.side) for p in seq.phases if "landing" in p.kinds] == \
        [("amphibious-landing", None), ("airborne-landing", None)]
    assert seq.at(1, "allied-movement").phasing == "allied"
    assert seq.phases[seq.index("axis-penetration")].stem == "penetration"
    start = seq.first()
    assert start.name == "initial-segment"
    landing = start.infer("axis", "landing", "a German stick dropped")
    assert (landing.turn, landing.name, landing.phasing, landing.inferred) == \
        (1, "amphibious-landing", "axis", True)
    allied = landing.infer("allied", "combat", "the Allied player rolling for combat")
    assert (allied.turn, allied.name, allied.reason) == (1, "allied-combat", "the Allied player rolling for combat")
    axis = allied.infer("axis", "movement", "the Axis player moving")
    assert (axis.turn, axis.name) == (2, "axis-movement")
    assert seq.labels[2] == "30 June Noon"


def test_ascari_plays_one_sequence_per_side():
    data = load_game_data("ascari")
    seq = sequence_of(data, "s3", kinds=ASCARI_KINDS, player_turns=True)
    assert seq.sides == ("ethiopian", "italian") and seq.turns == 16
    assert [(p.name, p.side) for p in seq.phases] == \
        [(n, s) for s in ("ethiopian", "italian") for n in
         ("flip-turn-flag", "movement-melee-opportunity-fire", "fire-combat", "administrative")]
    italian = seq.first().infer("italian", "melee", "an Italian melee")
    assert (italian.turn, italian.index, italian.phasing) == (1, 5, "italian")
    assert italian.infer("italian", "fire", "an Italian fire").name == "fire-combat"
    again = italian.infer("ethiopian", "movement", "an Ethiopian move")
    assert (again.turn, again.index) == (2, 1)
    assert seq.index("fire-combat", "italian") == 6
    assert sequence_of(data, "s1", player_turns=True).turns is None       # no turn limit given
    assert not seq.at(16, "administrative", "italian").past_last_turn
    assert seq.at(17, "flip-turn-flag").past_last_turn


def test_sideshow_operations_segments_take_the_side_that_acts_in_them():
    seq = sequence_of(load_game_data("sideshow"), "campaign", kinds=SIDESHOW_KINDS)
    assert seq.sides == ("allied", "german") and seq.turns == 50
    german = seq.first().infer("german", "operations", "a German operation")
    assert (german.name, german.phasing, german.actor) == ("operations-segment-1", "german", "german")
    assert german.infer("german", "operations", "again") is german
    allied = german.infer("allied", "operations", "an Allied operation")
    assert (allied.turn, allied.name, allied.phasing) == (1, "operations-segment-2", "allied")
    back = allied.infer("german", "operations", "a German operation")
    assert (back.turn, back.name, back.phasing) == (2, "operations-segment-1", "german")
    assert seq.first().infer("german", "movement", "no such phase") is None
    assert seq.first().next().name == "weather"


def test_phases_run_on_into_the_next_turn():
    seq = sequence_of(load_game_data("lion-of-judah"), "1940-41")
    last = seq.at(3, "end-of-turn")
    assert (last.next().turn, last.next().name) == (4, "mutual-administration")


def test_side_names():
    assert [side_name(s) for s in ("italian", "british-commonwealth", None)] == \
        ["Italian", "British Commonwealth", "unknown"]


class Module:
    name, version = "synthetic", "0"


def table_with(**props):
    table = Table(Module())
    for name, value in props.items():
        table.apply(MutableProperty(name, "", value, "Module"))
    return table


def test_turn_and_phase_properties_by_number_or_label():
    data = load_game_data("island-of-death")
    shown = shown_on_table(table_with(Turn="30 june noon ", Phase="axis-combat"), data, "intro")
    assert (shown.turn, shown.phase) == (2, "axis-combat")
    assert shown_on_table(table_with(Turn="3", Phase="axis-combat"), data, "intro").turn == 3
    assert shown_on_table(table_with(Turn="3", Phase="Axis combat"), data, "intro") is None
    assert shown_on_table(table_with(Phase="axis-combat"), data, "intro") is None
    assert turn_of_label(data, "intro", "1 July AM") == 5
    assert turn_of_label(data, "nowhere", "1 July AM") is None


def test_shown_reader_reads_again_only_when_what_it_reads_changed(monkeypatch):
    """Another property leaves the phase shown as it was, unread; the Turn or Phase property
    read again (no bindings: the properties `Turn` and `Phase`)."""
    import vlog.kit.sequence as sequence

    data = load_game_data("island-of-death")
    reader = ShownReader(data, "intro")
    assert reader.names == {"Turn", "Phase"} and not reader.by_piece
    table = table_with(Turn="3", Phase="axis-combat")
    assert reader(table) == shown_on_table(table, data, "intro")
    reads = []
    monkeypatch.setattr(sequence, "shown_on_table", lambda *a, **kw: reads.append(a) or "read again")
    table = table.copy()
    table.apply(MutableProperty("Weather", "", "rain", "Module"))
    assert (reader(table).turn, reads) == (3, [])
    table = table.copy()
    table.apply(MutableProperty("Phase", "axis-combat", "axis-movement", "Module"))
    assert reader(table) == "read again" and len(reads) == 1


def test_turn_and_phase_through_the_bindings(tmp_path):
    """A SYNTHETIC bindings overlay: one property gives the turn, another the module's phase name."""
    src = {"source": "SYNTHETIC bindings for tests"}
    doc = {"kind": "bindings", "game": "sideshow", "module": {"name": {"value": "x", **src}, "version": {"value": "0", **src}},
           "pieces": [], "layers": [], "locations": [],
           "turn_track": [{"id": "turn", "source_kind": {"value": "property", **src}, "name": {"value": "Month", **src},
                           "turns": {"value": {"Sep 14": 1, "Oct 14": 2}, **src}},
                          {"id": "phase", "source_kind": {"value": "property", **src}, "name": {"value": "Step", **src},
                           "phases": {"value": {"Ops 1": "operations-segment-1"}, **src}}]}
    (tmp_path / "bindings.json").write_text(json.dumps(doc))
    data = load_game_data("sideshow", overlays=[tmp_path])
    shown = shown_on_table(table_with(Month="Oct 14", Step="Ops 1"), data, "campaign")
    assert (shown.turn, shown.phase) == (2, "operations-segment-1")
    assert shown_on_table(table_with(Month="Oct 14", Step="Weather"), data, "campaign") is None
    upper = shown_on_table(table_with(Month="Sep 14", Step="Ops 1"), data, "campaign", phase_of=str.upper)
    assert upper.phase == "OPERATIONS-SEGMENT-1"


def test_an_unknown_phase_name_is_refused():
    seq = sequence_of(load_game_data("sideshow"), "campaign")
    with pytest.raises(KeyError, match="no phase 'movement'"):
        seq.index("movement")
