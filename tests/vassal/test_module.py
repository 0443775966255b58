"""read_module on real buildFiles, built modules and extensions, and hostile XML."""
from __future__ import annotations

import json
import struct
import zipfile
import zlib
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from converters.module_json import describe_module, module_to_json
from conftest import ROOT, sample_params
from vlog.cli import cli, main
from vlog.errors import ModuleError, VlogError
from vlog.vassal import grids as G
from vlog.vassal.module import Prototype, expand_piece, image_size, parse_board_layout, read_module

SCHEMA = json.loads((ROOT / "schemas" / "module.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
P = "VASSAL.build.module."
B = P + "map.boardPicker."


def png(w: int, h: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))


BUILD = f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule VassalVersion="3.7.14" description="Test" name="Testmod" nextPieceSlotId="20" version="1.2">
  <{P}BasicCommandEncoder/>
  <{P}GlobalOptions autoReport="Always" nonOwnerUnmaskable="Never"><option name="undoHotKey">90,130</option></{P}GlobalOptions>
  <{P}PlayerRoster><entry>Axis</entry><entry>Allies</entry></{P}PlayerRoster>
  <{P}DiceButton name="2d6" nDice="2" nSides="6" plus="1" reportTotal="true"/>
  <{P}DiceButton label="Legacy"/>
  <{P}turn.TurnTracker name="Turn">
    <{P}turn.CounterTurnLevel name="Turn" property="Turn" start="1" incr="1" loop="true" loopLimit="8">
      <{P}turn.ListTurnLevel name="Phase" property="Phase" list="Move,Combat,Supply\\,Attrition"/>
    </{P}turn.CounterTurnLevel>
  </{P}turn.TurnTracker>
  <{P}properties.GlobalProperties>
    <{P}properties.GlobalProperty name="Weather" initialValue="Clear" isNumeric="false"/>
  </{P}properties.GlobalProperties>
  <{P}PrototypesContainer>
    <{P}PrototypeDefinition name="Unit" description="">+/null/prototype;Base\tmark;Side\\\tpiece;;;;/\tGerman\\\tnull;0;0;0</{P}PrototypeDefinition>
    <{P}PrototypeDefinition name="Base" description="">+/null/mark;Type\tpiece;;;;/$kind$\tnull;0;0;0</{P}PrototypeDefinition>
    <{P}PrototypeDefinition name="Loop" description="">+/null/prototype;Loop\tpiece;;;;/\tnull;0;0;0</{P}PrototypeDefinition>
  </{P}PrototypesContainer>
  <{P}PieceWindow name="Pieces">
    <VASSAL.build.widget.PanelWidget entryName="Army">
      <VASSAL.build.widget.PieceSlot entryName="Inf" gpid="1" height="50" width="50">+/null/cmt;note\tprototype;Unit\\\tpiece;;;inf.png;1st Infantry/\t\\\tnull;0;0;1</VASSAL.build.widget.PieceSlot>
      <VASSAL.build.widget.PieceSlot entryName="Odd" gpid="2">+/null/prototype;Loop\tprototype;Ghost\\\tpiece;;;x.png;Odd/\t\\\tnull;0;0;2</VASSAL.build.widget.PieceSlot>
    </VASSAL.build.widget.PanelWidget>
  </{P}PieceWindow>
  <{P}Map mapName="Main Map" edgeWidth="10" edgeHeight="20">
    <{P}map.BoardPicker>
      <setup>Main MapBoardPicker\tWest\t0\t0\tEast/rev\t1\t0</setup>
      <{B}Board image="west.png" name="West" reversible="false">
        <{B}board.HexGrid dx="55.42562584220407" dy="64.0" x0="0" y0="32">
          <{B}board.mapgrid.HexGridNumbering first="H" sep="" hOff="1" vOff="1"/>
        </{B}board.HexGrid>
      </{B}Board>
      <{B}Board name="East" reversible="true" width="300" height="200">
        <{B}board.ZonedGrid>
          <{B}board.SquareGrid dx="50" dy="50" x0="25" y0="25">
            <{B}board.mapgrid.SquareGridNumbering sep="," hType="A"/>
          </{B}board.SquareGrid>
          <{B}board.mapgrid.Zone name="Box" locationFormat="$name$" path="0,0;100,0;100,100;0,100" useParentGrid="false">
            <{P}properties.ZoneProperty name="Owner" initialValue="Axis"/>
          </{B}board.mapgrid.Zone>
          <{B}board.mapgrid.Zone name="Field" locationFormat="Field $gridLocation$" path="100,0;300,0;300,200;100,200" useParentGrid="true"/>
        </{B}board.ZonedGrid>
      </{B}Board>
    </{P}map.BoardPicker>
    <{P}map.SetupStack name="HQ" owningBoard="West" useGridLocation="true" location="0305" x="0" y="0">
      <VASSAL.build.widget.PieceSlot entryName="HQ" gpid="3">+/null/prototype;Unit\tpiece;;;hq.png;HQ/\tnull;0;0;3</VASSAL.build.widget.PieceSlot>
    </{P}map.SetupStack>
    <{P}map.DrawPile name="Deck" owningBoard="East" x="50" y="50" faceDown="Always"/>
    <{P}properties.GlobalProperties>
      <{P}properties.GlobalProperty name="Supply" initialValue="3" isNumeric="true" min="0" max="9"/>
    </{P}properties.GlobalProperties>
  </{P}Map>
</VASSAL.build.GameModule>
"""


def make_vmod(path: Path, build: str = BUILD, extra: dict[str, bytes] | None = None) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("buildFile.xml", build)
        z.writestr("moduledata", "<data version=\"1\"><version>1.2</version><name>Testmod</name>"
                                 "<description lang=\"de\">Prüfung</description></data>")
        z.writestr("images/west.png", png(500, 400))
        for k, v in (extra or {}).items():
            z.writestr(k, v)
    return path


@pytest.fixture
def vmod(tmp_path) -> Path:
    return make_vmod(tmp_path / "test.vmod")


# ---------------------------------------------------------------------------------- real files

@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("nevsky/buildFile.xml", "vivelemperor/buildFile.xml",
                                               "bushido/buildFile", "bushido"))
def test_real_modules_read_and_validate(path):
    m = read_module(path)
    assert m.name and m.maps and m.prototypes
    data = module_to_json(m)
    assert not list(VALIDATOR.iter_errors(data))
    summary = describe_module(m)
    assert summary["counts"]["prototypes"] == len(m.prototypes)


@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("nevsky/buildFile.xml", "vivelemperor/buildFile.xml", "bushido"))
def test_slots_expand_on_first_use_alike_in_any_order(path):
    """Prototypes are expanded when a slot is first asked (as VASSAL's PieceSlot.getPiece does),
    through one cache per module: the order slots are asked in changes nothing."""
    from vlog.vassal.module import expand_piece

    forward, backward = read_module(path), read_module(path)
    slots = forward.piece_slots
    assert slots and all(s._expansion is None for s in slots)            # nothing expanded on reading
    ahead = [(s.expanded, s.problems) for s in slots]
    behind = [(s.expanded, s.problems) for s in reversed(backward.piece_slots)][::-1]
    assert ahead == behind
    assert all(a == expand_piece(s.text, forward.prototypes) for a, s in zip(ahead[:200], slots) if s.text)


@pytest.mark.samples
def test_vivelemperor_names_hexes_as_printed(samples_dir):
    m = read_module(samples_dir / "vivelemperor" / "buildFile.xml")
    mp = m.find_map("Main Map")
    assert mp.boards[0].grid_kind == "zoned"
    assert m.location_name("Main Map", 983, 987) == "0907"
    assert m.location_center("Main Map", "0908") == (980, 1051)
    hexes = mp.boards[0].grid.background
    for col in range(0, 20):
        for row in range(0, 14):
            name = f"{col:02d}{row:02d}"
            x, y = hexes.center_of(name)
            assert hexes.location_name(x, y) == name
    # the deck's own square is named after the deck, exactly there only
    deck = mp.decks[0]
    x, y = mp.stack_position(deck)
    assert m.location_name("Main Map", x, y) == deck.name
    assert m.location_name("Main Map", x + 1, y) != deck.name
    # turn boxes are zones named after themselves
    tx, ty = mp.location_center("Turn 5")
    assert mp.location_name(tx, ty) == "Turn 5"


@pytest.mark.samples
def test_nevsky_at_start_stacks_sit_where_their_locations_say(samples_dir):
    """VASSAL stored each grid-located stack's x,y from its location: both must agree here."""
    m = read_module(samples_dir / "nevsky" / "buildFile.xml")
    located = [s for s in m.setup_stacks if s.use_grid_location and s.location]
    assert len(located) >= 30
    for s in located:
        mp = m.find_map(s.map_name)
        x, y = mp.stack_position(s)
        assert (x - mp.edge_width, y - mp.edge_height) == (s.x, s.y), s.location
        assert mp.location_name(x, y) == s.location


@pytest.mark.samples
def test_nevsky_regions_and_zones_name_their_locations(samples_dir):
    m = read_module(samples_dir / "nevsky" / "buildFile.xml")
    grid = m.find_map("Main Map").boards[0].grid
    assert isinstance(grid, G.ZonedGrid)
    checked = 0
    for zone in grid.zones:
        g = zone.active_grid()
        if isinstance(g, G.RegionGrid):
            for r in g.regions:
                if grid.find_zone(r.x, r.y) is zone:
                    name = grid.location_name(r.x, r.y)
                    assert name == G.evaluate_format(zone.location_format, {"name": zone.name, "gridLocation": r.name},
                                                     localized=False)
                    checked += 1
    assert checked >= 50


@pytest.mark.samples
def test_bushido_legacy_root_and_moduledata(samples_dir):
    m = read_module(samples_dir / "bushido" / "buildFile")
    assert m.root == "VASSAL.launch.BasicModule"
    assert m.metadata["VassalVersion"] == "3.2.17" and m.vassal_version == "3.2.17"
    assert m.sides == ["Player1", "Player2"]
    table = m.find_map("Main Table")
    assert table.layout == [("Battlefield", 0, 0, False)]


# ---------------------------------------------------------------------------------- built module

def test_built_module_model(vmod):
    m = read_module(vmod)
    assert (m.name, m.version, m.vassal_version, m.next_piece_slot_id) == ("Testmod", "1.2", "3.7.14", "20")
    assert m.metadata["description[de]"] == "Prüfung"
    assert m.sides == ["Axis", "Allies"]
    assert m.global_options["nonOwnerUnmaskable"] == "Never" and m.global_options["undoHotKey"] == "90,130"
    d2, legacy = m.dice
    assert (d2.name, d2.n_dice, d2.n_sides, d2.plus, d2.report_total) == ("2d6", 2, 6, 1, True)
    assert (legacy.name, legacy.n_dice, legacy.n_sides, legacy.add_to_total) == ("Legacy", 2, 6, 0)
    (tracker,) = m.turn_trackers
    (turn,) = tracker.levels
    assert (turn.kind, turn.start, turn.loop, turn.loop_limit) == ("counter", 1, True, 8)
    assert turn.levels[0].items == ["Move", "Combat", "Supply,Attrition"]
    assert [(g.name, g.initial_value, g.scope, g.map_name, g.zone) for g in m.global_properties] == [
        ("Weather", "Clear", "module", None, None), ("Owner", "Axis", "zone", "Main Map", "Box"),
        ("Supply", "3", "map", "Main Map", None)]
    assert m.global_properties[2].numeric and (m.global_properties[2].min, m.global_properties[2].max) == ("0", "9")
    mp = m.find_map("Main Map")
    west, east = mp.boards
    assert west.size == (500, 400) and east.size == (300, 200)
    assert mp.layout == [("West", 0, 0, False), ("East", 1, 0, True)]
    assert [p.entry_name for p in m.piece_slots] == ["Inf", "Odd"]
    assert m.piece_slots[0].path == ("Pieces", "Army")
    with pytest.raises(ModuleError, match="no map named"):
        m.find_map("Nowhere")


def test_prototypes_expand_like_piece_cloner(vmod):
    m = read_module(vmod)
    inf = m.piece_slots[0]
    # cmt; dropped, Unit -> Base (with no parameters: $kind$ stays) + mark;Side, states follow
    assert inf.expanded == "+/null/mark;Type\tmark;Side\\\tpiece;;;inf.png;1st Infantry/$kind$\tGerman\\\tnull;0;0;1"
    assert inf.problems == [] and inf.name == "1st Infantry"
    odd = m.piece_slots[1]
    assert any("includes itself" in p for p in odd.problems)
    assert any("'Ghost' is not defined" in p for p in odd.problems)
    protos = {"P": Prototype("P", "", "+/null/mark;K\\;$v$\tpiece;;;;/\tnull;0;0;0")}
    text, problems = expand_piece("+/null/prototype;P;v=7\tpiece;;;a.png;A/\tnull;0;0;5", protos)
    assert text == "+/null/mark;K\\;7\tpiece;;;a.png;A/\tnull;0;0;5" and problems == []


def test_location_names_through_board_layout(vmod):
    m = read_module(vmod)
    mp = m.find_map("Main Map")
    # West board at (10, 20); hex 0305 centre on the board is (110, 288)
    assert m.location_name("Main Map", 10 + 110, 20 + 288) == "0305"
    assert m.location_center("Main Map", "0305") == (120, 308)
    hq = mp.setup_stacks[0]
    assert mp.stack_position(hq) == (120, 308)
    assert m.location_name("Main Map", 5, 5) == "offboard"
    # East board at (510, 20), reversed: map (510+x, 20+y) is local (300-x, 200-y)
    assert m.location_name("Main Map", 510 + 250, 20 + 150) == "Box"
    assert m.location_name("Main Map", 510 + 60, 20 + 60) == "Field F,03"
    deck_x, deck_y = mp.stack_position(mp.decks[0])
    assert (deck_x, deck_y) == (560, 70) and m.location_name("Main Map", 560, 70) == "Deck"
    assert m.location_name("Main Map", 510 + 300, 30) == "offboard"


def test_folder_and_bare_buildfile(tmp_path):
    folder = tmp_path / "mod"
    (folder / "images").mkdir(parents=True)
    (folder / "buildFile.xml").write_text(BUILD, encoding="utf-8")
    (folder / "images" / "west.png").write_bytes(png(640, 480))
    m = read_module(folder)
    assert m.find_map("Main Map").boards[0].size == (640, 480)
    bare = read_module(folder / "buildFile.xml")
    assert bare.name == "Testmod"
    legacy = tmp_path / "old"
    legacy.mkdir()
    (legacy / "buildFile").write_text(BUILD.replace("VASSAL.build.GameModule", "VASSAL.launch.BasicModule"))
    assert read_module(legacy).root == "VASSAL.launch.BasicModule"


def test_image_headers():
    assert image_size(png(123, 45)) == (123, 45)
    assert image_size(b"GIF89a" + struct.pack("<HH", 640, 480) + b"\0" * 8) == (640, 480)
    jpeg = (b"\xff\xd8" + b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\0" + b"\0" * 9
            + b"\xff\xc0" + struct.pack(">HBHH", 17, 8, 300, 400) + b"\0" * 10)
    assert image_size(jpeg) == (400, 300)
    assert image_size(b"<svg/>") is None and image_size(b"\xff\xd8\xff") is None


def test_extension_layered_onto_module(vmod, tmp_path):
    ext_build = f"""<?xml version="1.0" encoding="UTF-8"?>
<{P}ModuleExtension anyModule="false" extensionId="x1y" module="Testmod" version="0.1" description="More">
  <{P}ExtensionElement target="{P}PieceWindow:Pieces/VASSAL.build.widget.PanelWidget:Army">
    <VASSAL.build.widget.PieceSlot entryName="Tank" gpid="x1y:0">+/null/prototype;Unit\tpiece;;;t.png;Tank/\tnull;0;0;x1y:0</VASSAL.build.widget.PieceSlot>
  </{P}ExtensionElement>
  <{P}ExtensionElement target="{P}Map:Main Map">
    <{P}map.SetupStack name="Reinf" owningBoard="West" x="5" y="6"/>
  </{P}ExtensionElement>
  <{P}ExtensionElement target="{P}Map:Elsewhere">
    <{P}map.SetupStack name="Partial" x="5" y="6"/>
  </{P}ExtensionElement>
  <{P}ExtensionElement target="{P}Nothing:Here">
    <{P}map.SetupStack name="Lost" x="5" y="6"/>
  </{P}ExtensionElement>
</{P}ModuleExtension>"""
    ext = tmp_path / "more.vmdx"
    with zipfile.ZipFile(ext, "w") as z:
        z.writestr("buildFile.xml", ext_build)
        z.writestr("extensiondata", "<data version=\"1\"><version>0.1</version></data>")
    m = read_module(vmod, extensions=[ext])
    assert [p.entry_name for p in m.piece_slots] == ["Inf", "Odd", "Tank"]
    assert m.piece_slots[2].name == "Tank" and "mark;Side" in m.piece_slots[2].expanded
    # ComponentPathBuilder: a last path step whose name matches nothing takes the first of its class
    assert [s.name for s in m.find_map("Main Map").setup_stacks] == ["HQ", "Reinf", "Partial"]
    assert any("Nothing:Here" in p for p in m.problems) and not any("Elsewhere" in p for p in m.problems)
    assert m.extensions[0].extension_id == "x1y"
    alone = read_module(ext)
    assert alone.is_extension and alone.metadata["version"] == "0.1"
    with pytest.raises(ModuleError, match="not a module extension"):
        read_module(vmod, extensions=[vmod])


def test_module_json_validates(vmod):
    data = module_to_json(read_module(vmod))
    assert not list(VALIDATOR.iter_errors(data))
    east = data["maps"][0]["boards"][1]["grid"]
    assert east["type"] == "zoned" and east["background"]["numbering"]["hType"] == "A"
    bad = dict(data, maps=[{"mapName": 3}])
    assert list(VALIDATOR.iter_errors(bad))
    summary = describe_module(read_module(vmod))
    assert summary["counts"] == {"pieceSlots": 2, "prototypes": 3, "setupStacks": 1, "decks": 1, "globalProperties": 3}
    assert summary["turnTrackers"][0]["levels"][0]["levels"][0]["items"] == 3


# ---------------------------------------------------------------------------------- hostile input

def _hostile(tmp_path, body: bytes, name="buildFile.xml") -> Path:
    p = tmp_path / name
    p.write_bytes(body)
    return p


def test_billion_laughs(tmp_path):
    lol = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
           + b"".join(b'<!ENTITY lol%d "%s">' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10)
                      for i in range(1, 10))
           + b']><VASSAL.build.GameModule name="&lol9;"/>')
    with pytest.raises(ModuleError):
        read_module(_hostile(tmp_path, lol))


def test_external_entity_never_reads_local_file(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET-42")
    body = (f'<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file://{secret}">]>'
            f'<VASSAL.build.GameModule name="&x;" description="&x;"/>').encode()
    for path in (_hostile(tmp_path, body), make_vmod(tmp_path / "x.vmod", body.decode())):
        with pytest.raises(ModuleError) as info:
            read_module(path)
        assert "TOPSECRET" not in str(info.value) and "TOPSECRET" not in repr(info.value.__dict__)


def test_external_dtd_refused(tmp_path):
    dtd = tmp_path / "evil.dtd"
    dtd.write_text('<!ENTITY leak "LEAKED">')
    body = f'<?xml version="1.0"?><!DOCTYPE m SYSTEM "file://{dtd}"><VASSAL.build.GameModule name="a"/>'.encode()
    with pytest.raises(ModuleError):
        read_module(_hostile(tmp_path, body))


def test_huge_attribute(tmp_path):
    body = b'<VASSAL.build.GameModule name="' + b"A" * (10 * 1024 * 1024 + 10) + b'"/>'
    with pytest.raises(ModuleError):
        read_module(_hostile(tmp_path, body))


def test_wrong_root_and_broken_inputs(tmp_path):
    with pytest.raises(ModuleError, match="not a VASSAL module"):
        read_module(_hostile(tmp_path, b"<html><body/></html>"))
    with pytest.raises(ModuleError):
        read_module(_hostile(tmp_path, b"<VASSAL.build.GameModule", name="broken.xml"))
    (tmp_path / "nothing-here").mkdir()
    with pytest.raises(ModuleError, match="no buildFile"):
        read_module(tmp_path / "nothing-here")
    with pytest.raises(ModuleError, match="no such file"):
        read_module(tmp_path / "absent.vmod")
    empty_zip = tmp_path / "empty.vmod"
    with zipfile.ZipFile(empty_zip, "w") as z:
        z.writestr("readme.txt", "hi")
    with pytest.raises(ModuleError, match="no buildFile"):
        read_module(empty_zip)
    with pytest.raises(VlogError):
        read_module(_hostile(tmp_path, b"PK\x03\x04garbage", name="bad.vmod"))


# ---------------------------------------------------------------------------------- command line

def test_where_command(vmod):
    runner = CliRunner()
    r = runner.invoke(cli, ["where", str(vmod), "--map", "Main Map", "120", "308"])
    assert r.exit_code == 0 and r.output == "0305\n"
    r = runner.invoke(cli, ["where", str(vmod), "--map", "Main Map", "--name", "0305"])
    assert r.exit_code == 0 and r.output == "120 308\n"
    r = runner.invoke(cli, ["where", str(vmod), "--map", "Main Map", "--", "-5", "-5"])
    assert r.exit_code == 0 and r.output == "offboard\n"
    r = runner.invoke(cli, ["where", "--help"])
    assert r.exit_code == 0 and "Example" in r.output and "--name" in r.output
    r = runner.invoke(cli, ["where", str(vmod), "--map", "Main Map"])
    assert r.exit_code == 2


def test_where_errors_exit_3(vmod, tmp_path, capsys):
    assert main(["where", str(vmod), "--map", "Nowhere", "1", "2"]) == 3
    assert "no map named 'Nowhere'" in capsys.readouterr().err
    assert main(["where", str(vmod), "--map", "Main Map", "--name", "zz99"]) == 3
    assert "zz99" in capsys.readouterr().err
    assert main(["where", str(tmp_path / "missing.vmod"), "--map", "M", "1", "2"]) == 3


def test_mutated_buildfiles_raise_only_vlog_errors(tmp_path):
    """Seeded mutations of a valid buildFile: read_module either reads it or raises VlogError."""
    import random

    rng = random.Random(1234)
    base = BUILD.encode("utf-8")
    tokens = [b'"', b"<", b">", b"/", b"\t", b"\\", b"$", b";", b",", b"-1", b"99999999999", b"&amp;", b"",
              b"prototype;Unit", b"0", b"NaN", b"1e308", b"-", b"A", b"\x00", b"\xff"]
    path = tmp_path / "buildFile.xml"
    read = failed = 0
    for _ in range(300):
        data = bytearray(base)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(data))
            j = min(len(data), i + rng.randint(0, 20))
            data[i:j] = rng.choice(tokens)
        path.write_bytes(bytes(data))
        try:
            m = read_module(path)
            module_to_json(m)
            describe_module(m)
            for mp in m.maps:
                for x, y in ((120, 308), (-7, 3), (700, 100), (2**40, 5)):
                    try:
                        mp.location_name(x, y)
                    except VlogError:
                        pass
                for name in ("0305", "Box", "Field A,01", ""):
                    try:
                        mp.location_center(name)
                    except VlogError:
                        pass
            read += 1
        except VlogError:
            failed += 1
    assert read >= 5 and failed > 10


def test_hostile_attribute_values_raise_only_vlog_errors(tmp_path):
    """Every attribute of the built module set to junk in turn: reading and naming raise only VlogError."""
    import random

    from lxml import etree

    rng = random.Random(99)
    values = ["0", "NaN", "-5", "abc", "1e308", "", "$x$", "{bsh}", "1,2;x", "99999999999", "-0", "Infinity", "A"]
    tree = etree.fromstring(BUILD.encode("utf-8"))
    slots = [(el, key) for el in tree.iter() if isinstance(el.tag, str) for key in el.attrib]
    path = tmp_path / "buildFile.xml"
    for el, key in slots:
        for value in rng.sample(values, 4):
            old = el.get(key)
            el.set(key, value)
            path.write_bytes(etree.tostring(tree))
            el.set(key, old)
            try:
                m = read_module(path)
                module_to_json(m)
            except VlogError:
                continue
            for mp in m.maps:
                for probe in ((120, 308), (560, 70), (770, 170), (0, 0)):
                    try:
                        mp.location_name(*probe)
                    except VlogError:
                        pass
                for name in ("0305", "Box", "Field F,03", "Deck"):
                    try:
                        mp.location_center(name)
                    except VlogError:
                        pass


def test_grid_attribute_defaults_follow_vassal(tmp_path):
    build = f"""<VASSAL.build.GameModule name="D">
  <{P}Map mapName="M"><{P}map.BoardPicker>
    <{B}Board name="H" width="900" height="700">
      <{B}board.HexGrid dy="80"><{B}board.mapgrid.ObliqueHexGridNumbering/></{B}board.HexGrid>
    </{B}Board>
    <{B}Board name="S"><{B}board.SquareGrid><{B}board.mapgrid.SquareGridNumbering/></{B}board.SquareGrid></{B}Board>
    <{B}Board name="R"><{B}board.RegionGrid><{B}board.Region name="Keep" originx="40" originy="50"/></{B}board.RegionGrid></{B}Board>
  </{P}map.BoardPicker></{P}Map>
</VASSAL.build.GameModule>"""
    path = tmp_path / "buildFile.xml"
    path.write_text(build)
    mp = read_module(path).find_map("M")
    h, s, r = (b.grid for b in mp.boards)
    assert h.dx == (3 ** 0.5 / 2) * 80 and (h.x0, h.y0, h.snap_to, h.sideways) == (0, 32, True, False)
    assert h.numbering.oblique and h.numbering.stagger and h.size == (900, 700)
    assert (s.dx, s.dy, s.x0, s.y0, s.size) == (48.0, 48.0, 24, 24, (500, 500))
    assert s.location_name(24, 24) == "0101" and r.location_name(0, 0) == "Keep" and r.snap_to
    with pytest.raises(ModuleError, match="no default layout"):
        mp.location_name(10, 10)
    layout = parse_board_layout("MBoardPicker\tS\t0\t0\tH/rev\t1\t0")
    assert layout == [("S", 0, 0, False), ("H", 1, 0, True)]
    assert mp.location_name(24, 24, layout) == "0101"
    assert mp.location_name(500 + 10, 10, layout) == h.location_name(10, 10)  # H is not reversible


def test_unknown_board_sizes_only_where_the_layout_allows(tmp_path):
    """Without its image a board's size is unknown: fine for the last board of a row, refused before another."""
    build = f"""<VASSAL.build.GameModule name="U">
  <{P}Map mapName="M"><{P}map.BoardPicker>
    <setup>MBoardPicker\tA\t0\t0\tB\t1\t0</setup>
    <{B}Board name="A" image="a.png"><{B}board.SquareGrid><{B}board.mapgrid.SquareGridNumbering/></{B}board.SquareGrid></{B}Board>
    <{B}Board name="B" image="b.png"/>
  </{P}map.BoardPicker></{P}Map>
</VASSAL.build.GameModule>"""
    path = tmp_path / "buildFile.xml"
    path.write_text(build)
    m = read_module(path)
    assert any("a.png" in p for p in m.problems)
    with pytest.raises(ModuleError, match="size of board 'A' is unknown"):
        m.location_name("M", 30, 30)
    assert m.location_name("M", 30, 30, layout=[("A", 0, 0, False)]) == "0101"
