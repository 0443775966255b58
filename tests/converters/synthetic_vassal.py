"""Small synthetic modules and saves the converter tests build themselves (no real module or
save is copied): one hex map, counters with a two-level Step Layer, dice buttons, a turn tracker."""
from __future__ import annotations

from pathlib import Path

from vlog.vassal.turn_tracker import TrackerRun
from vlog.vassal.commands import (
    AddPiece, BoardPicker, GlobalPropertySet, NullCommand, PlayerAdd, Setup, SetupStack, TurnState,
)
from vlog.vassal.metadata import build_savedata
from vlog.vassal.module import read_module
from vlog.vassal.obfuscation import Dialect
from vlog.vassal.pieces import join_chain
from vlog.vassal.savefile import Save, write

P = "VASSAL.build.module."
B = "VASSAL.build.module.map.boardPicker."
MAP = "Main Map"
ALICE = "pw-alice"
BOB = "pw-bob"


def layer_type(name: str, images: list[str], levels: list[str]) -> str:
    """An `emb2;` Layer type with its images (field 15), level names (16) and name (18)."""
    fields = [""] * 25
    fields[15] = ",".join(images)
    fields[16] = ",".join(levels)
    fields[18] = name
    return "emb2;" + ";".join(fields)


STEP = layer_type("Step", ["full.png", "reduced.png"], ["", "+ (reduced)"])
STEP_NEW_IMAGES = layer_type("Step", ["full-v2.png", "reduced-v2.png"], ["", "+ (reduced)"])
MASK = "obs;M;back.png;Hide;G;Masked;;"


def slot_text(name: str, gpid: str, prototype: str = "Unit") -> str:
    """A PieceSlot's AddPiece text: a prototype reference over a basic piece."""
    type_ = join_chain([f"prototype;{prototype}", f"piece;;;{name.lower().replace(' ', '-')}.png;{name}"])
    state = join_chain(["", f"null;0;0;{gpid}"])
    return "+/null/" + _slash(type_) + "/" + _slash(state)


def _slash(s: str) -> str:
    return s.replace("/", "\\/")


def _xml(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def build_file(*, prototype_name: str = "Unit", step_type: str = STEP, pieces: tuple[tuple[str, str], ...] = (
        ("Inf A", "1"), ("Inf B", "2"), ("Tank C", "3")), vassal: str = "3.7.16",
        dice_extra: str = "") -> str:
    proto_text = "+/null/" + _slash(join_chain([step_type, "piece;;;;"])) + "/" + _slash(join_chain(["1", "null;0;0;0"]))
    slots = "\n".join(
        f'      <VASSAL.build.widget.PieceSlot entryName="{n}" gpid="{g}" height="50" width="50">'
        f"{_xml(slot_text(n, g, prototype_name))}</VASSAL.build.widget.PieceSlot>" for n, g in pieces)
    return f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule VassalVersion="{vassal}" description="Synthetic" name="Synthmod" nextPieceSlotId="20" version="1.0">
  <{P}BasicCommandEncoder/>
  <{P}GlobalOptions autoReport="Always" playerIdFormat="$PlayerName$"/>
  <{P}PlayerRoster><entry>Red</entry><entry>Blue</entry></{P}PlayerRoster>
  <{P}DiceButton name="2d6" nDice="2" nSides="6"/>
  <{P}DiceButton name="Combat" nDice="1" nSides="6" plus="1" reportFormat="** $name$ rolled $result$ for $PlayerSide$"/>
  <{P}DiceButton name="Total" nDice="3" nSides="6" reportTotal="true" reportFormat="$name$ = $result$ ($rawRolls$)"/>
  {dice_extra}
  <{P}turn.TurnTracker name="Turn" turnFormat="Turn $level1$ $level2$">
    <{P}turn.CounterTurnLevel name="Turn" property="Turn" start="1" incr="1" loop="true" loopLimit="3">
      <{P}turn.ListTurnLevel name="Phase" property="Phase" list="Move,Combat"/>
    </{P}turn.CounterTurnLevel>
  </{P}turn.TurnTracker>
  <{P}properties.GlobalProperties>
    <{P}properties.GlobalProperty name="Weather" initialValue="Clear" isNumeric="false"/>
  </{P}properties.GlobalProperties>
  <{P}PrototypesContainer>
    <{P}PrototypeDefinition name="{prototype_name}" description="">{_xml(proto_text)}</{P}PrototypeDefinition>
  </{P}PrototypesContainer>
  <{P}PieceWindow name="Pieces">
    <VASSAL.build.widget.PanelWidget entryName="Army">
{slots}
    </VASSAL.build.widget.PanelWidget>
  </{P}PieceWindow>
  <{P}Map mapName="{MAP}">
    <{P}map.BoardPicker>
      <{B}Board name="Board" width="600" height="500">
        <{B}board.HexGrid dx="55.42562584220407" dy="64.0" x0="0" y0="32">
          <{B}board.mapgrid.HexGridNumbering first="H" sep="" hOff="1" vOff="1" hLeading="1" vLeading="1"/>
        </{B}board.HexGrid>
      </{B}Board>
    </{P}map.BoardPicker>
  </{P}Map>
</VASSAL.build.GameModule>
"""


def write_module(folder: Path, **kw) -> Path:
    """A module folder holding its buildFile.xml (read_module reads folders)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "buildFile.xml").write_text(build_file(**kw), encoding="utf-8")
    (folder / "moduledata").write_text('<data version="1"><version>1.0</version><name>Synthmod</name></data>')
    return folder


def unit_piece(module, pid: str, name: str, hex_name: str, *, level: int = 1) -> AddPiece:
    """A counter as the module's PieceSlot expands it, placed at a hex centre."""
    slot = next(s for s in module.piece_slots if s.entry_name == name)
    from vlog.vassal.sequence import split
    parts = split(slot.expanded, "/")
    type_ = parts[2]
    x, y = module.location_center(MAP, hex_name)
    state = join_chain([str(level), f"{MAP};{x};{y};{slot.gpid};0"])
    return AddPiece(pid, type_, state)


def stack_of(module, sid: str, hex_name: str, *ids: str) -> AddPiece:
    x, y = module.location_center(MAP, hex_name)
    return AddPiece(sid, "stack", ";".join([MAP, str(x), str(y), *ids, "@@1"]))


def moduledata() -> bytes:
    return (b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
            b"  <version>1.0</version>\n  <VassalVersion>3.7.16</VassalVersion>\n"
            b"  <dateSaved>1738347539913</dateSaved>\n  <description/>\n  <name>Synthmod</name>\n</data>\n")


def start_save(module_folder: Path, path: Path, *, vassal: str = "3.7.16") -> Path:
    """A starting save: Inf A and Inf B stacked in 0202, Tank C alone in 0505, two players,
    board picker, SETUP_STACK, the turn tracker and the Weather global property."""
    module = read_module(module_folder)
    pieces = [
        unit_piece(module, "1001", "Inf A", "0202"), unit_piece(module, "1002", "Inf B", "0202"),
        stack_of(module, "1003", "0202", "1001", "1002"),
        unit_piece(module, "1004", "Tank C", "0505"), stack_of(module, "1005", "0505", "1004"),
    ]
    body = [
        NullCommand(), NullCommand(subs=pieces),
        PlayerAdd(ALICE, "Alice", "Red"), PlayerAdd(BOB, "Bob", "Blue"),
        GlobalPropertySet("Weather", "Clear", "Module"),
        BoardPicker(MAP, ("Board", "0", "0")), SetupStack(),
        TurnState("TurnTracker0", TrackerRun(module.turn_trackers[0], "TurnTracker0").state()),
    ]
    root = Setup(True, subs=[*body, Setup(False)])
    save = Save(root, dialect=Dialect.VCSK, key=0x21, members=[
        ("savedGame", b""),
        ("savedata", build_savedata(module_version="1.0", vassal_version=vassal, date_saved_ms=1738347539913)),
        ("moduledata", moduledata()),
    ])
    write(save, path, date_time=(2025, 1, 31, 18, 18, 59))
    return path
