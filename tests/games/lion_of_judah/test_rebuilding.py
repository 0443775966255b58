"""Rebuilding eliminated units (RR-15, 7.3.4, PB 14.5.2.3) on SYNTHETIC positions."""
from __future__ import annotations

from dataclasses import replace

from vlog.findings import Basis
from vlog.games.lion_of_judah.checks.rebuilding import CAMPAIGN_DATUM, RebuildLedger

from .synthetic import state, synthetic_board, unit


def _eliminated(*units, in_combat=True):
    """A ledger that saw `units` leave the map at step 3."""
    ledger = RebuildLedger()
    ledger.note_step(state(*units), state(), in_combat=in_combat, step=3)
    return ledger


def test_an_italian_unit_rebuilt_in_1940_is_rr15(tmp_path):
    board = synthetic_board(tmp_path)
    sb = unit("sb", "1413", name="Sb")
    ledger = _eliminated(sb)
    [f] = ledger.judge(board, replace(sb, id="sb2", hex="1405", steps=1), "1940-41", step=9, when=None)
    assert f.check == "lion-of-judah/RR-15" and f.basis is Basis.PROVEN
    assert "eliminated at step 3" in f.message and "PB 14.5.2.3" in f.message
    assert f.evidence["eliminated_at_step"] == 3
    assert ledger.judge(board, replace(sb, hex="1405"), "1940-41", step=10, when=None) == []   # judged once


def test_italian_rebuilds_are_allowed_in_1935_but_never_a_black_circle(tmp_path):
    board = synthetic_board(tmp_path)
    sb = unit("sb", "1413", name="Sb")
    assert _eliminated(sb).judge(board, replace(sb, hex="1405"), "1935-36", step=9, when=None) == []
    bs = unit("bs", "1413", name="Black Shirts", unit_class="black-shirt")
    [f] = _eliminated(bs).judge(board, replace(bs, hex="1405"), "1935-36", step=9, when=None)
    assert f.check == "lion-of-judah/RR-15" and "black circle" in f.message
    flagged = replace(unit("x", "1413", name="X"), properties={"black_circle": True})
    [g] = _eliminated(flagged).judge(board, replace(flagged, hex="1405"), "1935-36", step=9, when=None)
    assert g.evidence["black_circle"] is True


def test_allied_rebuilds_are_normal_and_colonial_regulars_possible(tmp_path):
    board = synthetic_board(tmp_path)
    kar = unit("kar", "1122", name="KAR3", side="allied", unit_class="allied-regular")
    assert _eliminated(kar).judge(board, replace(kar, hex="1122"), "1940-41", step=9, when=None) == []
    col = unit("col", "1413", name="IV Col", unit_class="eritrean-colonial-regular")
    [f] = _eliminated(col).judge(board, replace(col, hex="1405"), "1940-41", step=9, when=None)
    assert f.basis is Basis.POSSIBLE and CAMPAIGN_DATUM in f.evidence["depends_on"]


def test_only_units_lost_in_a_combat_count_and_swaps_are_not_losses(tmp_path):
    board = synthetic_board(tmp_path)
    sb = unit("sb", "1413", name="Sb")
    shipped = _eliminated(sb, in_combat=False)
    assert shipped.judge(board, replace(sb, hex="1405"), "1940-41", step=9, when=None) == []
    swap = RebuildLedger()
    four = unit("sb4", "1413", name="Sb", steps=4)
    three = unit("sb3", "1413", name="Sb (3)", steps=3)
    swap.note_step(state(four), state(three), in_combat=True, step=3)
    assert swap.eliminated == {}
    hq = unit("hq", "1413", name="SN", kind="hq", size=None)
    truck = unit("tr", "1413", name="Truck", kind="truck", size=None)
    both = _eliminated(hq, truck)
    assert set(both.eliminated) == {"SN"}


def test_an_hq_overrun_outside_a_combat_counts_as_eliminated(tmp_path):
    """11.6: an enemy unit enters the HQ's hex in a movement segment and the HQ leaves the map;
    placed again in a later MAP of 1940-41, an Italian HQ is a rebuild the scenario forbids."""
    board = synthetic_board(tmp_path)
    hq = unit("cae", "1207", name="CAE", kind="hq", attack=None, defense=None, size=None)
    enemy = unit("kar", "1307", name="KAR1", side="allied")
    ledger = RebuildLedger()
    ledger.note_step(state(hq, enemy), state(replace(enemy, hex="1207")), in_combat=False, step=4)
    [f] = ledger.judge(board, replace(hq, hex="1405"), "1940-41", step=9, when=None)
    assert f.check == "lion-of-judah/RR-15" and f.evidence["eliminated_at_step"] == 4
    moved_off = RebuildLedger()                                        # no enemy: shipped or withdrawn
    moved_off.note_step(state(hq, enemy), state(enemy), in_combat=False, step=4)
    assert moved_off.judge(board, replace(hq, hex="1405"), "1940-41", step=9, when=None) == []
