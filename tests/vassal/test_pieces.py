"""Piece chains and traits, on real VASL pieces and random chains."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from vlog.vassal import pieces as P
from vlog.vassal.pieces import Piece, join_chain, split_chain

# Real piece from VASL 3.2.17 (3d6.vlog), as quoted in the format notes §3.2.
CVP_TYPE = ('macro;;;;{"AxisCVP">0};85\\,715;82\\,715;false;;;counted;;;;false;;1;1\tsetprop;AxisCVP;'
            'true,0,1000,false;Reset to 0:82\\,715:P\\,0;;Named Map;{"Casualties"}\\\tlabel;;;12;;'
            '51,255,255;b;-4;c;0;b;c;$pieceName$: ($label$);Dialog;0;0;TextLabel;Axis CVP Count\\\\\t'
            'clone;Clone;67,130\\\\\\\tdelete;Delete;68,130\\\\\\\\\tpiece;;;Axis CVP Marker;Axis CVP Count')
CVP_STATE = '\t\\\t$AxisCVP$\\\\\t\\\\\\\t\\\\\\\\\tnull;350;100;7488'


def test_real_chain_split_and_join():
    types = split_chain(CVP_TYPE)
    states = split_chain(CVP_STATE)
    assert [P.id_prefix(t) for t in types] == ["macro;", "setprop;", "label;", "clone;", "delete;", "piece;"]
    assert states == ["", "", "$AxisCVP$", "", "", "null;350;100;7488"]
    assert join_chain(types) == CVP_TYPE and join_chain(states) == CVP_STATE


def test_real_piece_fields_and_traits():
    p = Piece("1597148350752", CVP_TYPE, CVP_STATE)
    assert (p.kind, p.name, p.map, p.x, p.y, p.gpid) == ("piece", "Axis CVP Count", None, 350, 100, "7488")
    label = p.traits[2]
    assert isinstance(label, P.Label) and label.text == "$AxisCVP$"
    assert label.name_format == "$pieceName$: ($label$)"
    assert type(p.traits[0]) is P.Trait and p.traits[0].id_prefix == "macro;"
    assert p.traits[1].fields[0] == "AxisCVP"


def test_with_state_keeps_type_and_changes_fields():
    p = Piece("1", CVP_TYPE, CVP_STATE)
    states = [t.state for t in p.traits]
    states[2] = "new label"
    states[-1] = "Map;10;20;7488"
    q = p.with_trait_states(states)
    assert q.type == p.type and q.traits[2].text == "new label" and (q.map, q.x, q.y) == ("Map", 10, 20)
    r = p.with_state(q.state)
    assert r.state == q.state and r.traits[2].text == "new label"


def test_basic_piece_state_forms():
    t = "piece;;;a.png;A"
    assert (Piece("1", t, "Map;1;2").map, Piece("1", t, "Map;1;2").gpid) == ("Map", "")
    assert Piece("1", t, "null;350;100;7488").gpid == "7488"
    p = Piece("1", t, "Map;4825;1714;976;1;UniqueID;1736794601263")
    assert p.properties == {"UniqueID": "1736794601263"} and p.x == 4825
    assert Piece("1", t, "Map;x;;976").x == 0  # nextInt default


def test_stack_and_deck():
    s = Piece("9", "stack", "Main Map;220;192;1;2;3;@@-1")
    assert s.is_stack and s.piece_ids == ["1", "2", "3"] and s.basic.layer == -1 and s.map == "Main Map"
    old = Piece("9", "stack", "Casualties;350;100;1597148350752")
    assert old.piece_ids == ["1597148350752"] and old.basic.layer is None
    deck_type = "deck;" + ";".join(["true", "0,0,0", "10", "10", "Always", "Never", "false", "false", "false",
                                    "", "", "", "Draw Pile"])
    d = Piece("5", deck_type, "Map;200;3700;true;17,18,19")
    assert d.is_deck and d.name == "Draw Pile" and d.basic.face_down and d.piece_ids == ["17", "18", "19"]
    assert Piece("5", deck_type, "Map;625;3700;false").piece_ids == []


def test_layer_marker_mask_and_others():
    emb = ("emb2;;2;;;2;;;2;;;;0;false;0;0;tables/a.gif,tables/b.gif;UN +,Communist +;true;Player;;;false;;1;1;"
           "true;;70,650;")
    types = [emb, "mark;Hindrance,Location", "obs;;m.png;Hide;G;Mask", "hide;;Invisible",
             "restrict;Axis,Allied;true", "PROP;Strength;true,0,10,false;;", "rotate;6;;",
             "report;65\\,130;Reset *;;;", "piece;;;x.png;Inf"]
    states = ["-2", "true,false", "pass;G", "pass", "null", "4", "3", "-1", "Map;1;2"]
    p = Piece("1", join_chain(types), join_chain(states))
    e, mark, obs, hide, res, prop, rot, rep, basic = p.traits
    assert isinstance(e, P.Embellishment) and e.name == "Player" and e.version == 1
    assert (e.value, e.level, e.active, e.level_name) == (-2, 2, False, "Communist +")
    assert e.images == ["tables/a.gif", "tables/b.gif"]
    assert isinstance(mark, P.Marker) and mark.properties == {"Hindrance": "true", "Location": "false"}
    assert isinstance(obs, P.Obscurable) and obs.owner == "pass" and obs.masked and obs.mask_name == "Mask"
    assert isinstance(hide, P.Hideable) and hide.owner == "pass" and hide.hidden
    assert isinstance(res, P.Restricted) and res.owner is None and res.sides == ["Axis", "Allied"]
    assert isinstance(prop, P.DynamicProperty) and (prop.name, prop.value) == ("Strength", "4")
    assert isinstance(rot, P.FreeRotator) and rot.facing == 3 and rot.angle == -180.0
    assert isinstance(rep, P.ReportState) and rep.cycle_index == -1
    assert p.properties["Strength"] == "4" and p.properties["Hindrance"] == "true"
    assert p.name == "Inf" and basic.x == 1


def test_embellishment_value_is_clamped_like_vassal():
    e = P.make_trait("emb2;;2;;;2;;;2;;;;0;false;0;0;a,b;A,B;true;L;;;false;;1;1;true;;;", "9")
    assert e.value == 2 and e.level_name == "B"
    assert P.make_trait(e.type, "junk").value == -1


def test_free_rotation_angle_and_unknown_trait_kept():
    r = P.make_trait("rotate;1;;;", "-90.0")
    assert r.angle == -90.0 and r.facing is None
    u = P.make_trait("turr;odd;fields", "x;y")
    assert type(u) is P.Trait and u.type == "turr;odd;fields" and u.state == "x;y"


_elem = st.text(alphabet=st.sampled_from(list("ab;\t\\'1")), max_size=6).filter(lambda s: not s.endswith("\\"))


@settings(max_examples=300)
@given(st.lists(_elem, min_size=1, max_size=8))
def test_chain_round_trip(parts):
    # the basic piece is the last element; a TAB in it would make VASSAL read it as a decorator
    # (and VASSAL unquotes it, so a quoted-looking basic element does not survive either)
    parts[-1] = parts[-1].replace("\t", "").strip("'")
    joined = join_chain(parts)
    assert split_chain(joined) == parts
    assert join_chain(split_chain(joined)) == joined


@settings(max_examples=500)
@given(st.text(alphabet=st.sampled_from(list("a;\t\\'")), max_size=30))
def test_fast_split_chain_matches_decoder(s):
    assert split_chain(s) == P.split_chain_reference(s)


@settings(max_examples=1000)
@given(st.lists(st.text(alphabet=st.sampled_from(list("a;\t\\'")), max_size=5), min_size=1, max_size=9))
def test_one_pass_join_chain_matches_the_encoder(parts):
    """The one-pass join gives what appending level by level with SequenceEncoder gives, for
    any text (quotes, backslashes and TABs anywhere, empty levels)."""
    assert join_chain(parts) == P.join_chain_reference(parts)


def test_join_chain_of_a_long_chain_is_linear():
    """A 2,000-trait chain joins to the encoder's text (which re-escapes once per level)."""
    parts = [f"mark;Side{i}\tx" if i % 7 == 0 else f"PROP;p{i};'q'" for i in range(2000)] + ["piece;;;u.png;U/"]
    joined = join_chain(parts)
    assert joined == P.join_chain_reference(parts)
    assert split_chain(joined) == parts


def test_merge_state_keeps_untouched_traits_like_vassal():
    types = ["label;;;12", "PROP;Strength;;;", "piece;;;x.png;Inf"]
    p = Piece("1", join_chain(types), join_chain(["cur-label", "4", "Map;1;1;7"]))
    # the command changed only Strength 4 -> 3 (label text was "old" when it was made)
    q = p.merge_state(join_chain(["old", "3", "Map;1;1;7"]), join_chain(["old", "4", "Map;1;1;7"]))
    assert [t.state for t in q.traits] == ["cur-label", "3", "Map;1;1;7"]
    # BasicPiece state changed by the command: taken whole
    r = p.merge_state(join_chain(["cur-label", "4", "Map;5;5;7"]), join_chain(["cur-label", "4", "Map;1;1;7"]))
    assert (r.x, r.y) == (5, 5)
    # no old state: plain setState
    assert p.merge_state("a\tb\\\tc", None).state == "a\tb\\\tc"
    # nothing changed by the command: same object back
    assert p.merge_state(p.state, p.state) is p


def test_merge_stack_state_keeps_unmentioned_children():
    s = Piece("9", "stack", "Map;10;10;1;5;2;@@-1")
    # the command moved 3 on top of [1,2]; meanwhile 5 was stacked above 1 here
    merged = s.merge_state("Map;10;10;1;2;3;@@-1", "Map;10;10;1;2;@@-1")
    assert merged.state == "Map;10;10;1;5;2;3;@@-1"
    same = Piece("9", "stack", "Map;10;10;1;2;@@-1").merge_state("Map;10;10;1;2;3;@@-1", "Map;10;10;1;2;@@-1")
    assert same.state == "Map;10;10;1;2;3;@@-1"
