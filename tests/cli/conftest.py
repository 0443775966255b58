"""Files the CLI tests build themselves: a save and a log with secret player ids in every place
VASSAL writes them (PLAYER, MovePiece, Mask owner, private note), layers, stacks, dice and undo.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from vlog.cli import EXIT_OK, main
from vlog.vassal.commands import decode
from vlog.vassal.metadata import build_savedata
from vlog.vassal.obfuscation import Dialect
from vlog.vassal.pieces import join_chain
from vlog.vassal.savefile import Log, Save, write
from vlog.vassal.sequence import encode_token, join

ESC = "\x1b"
SECRET_IDS = ("Zq7-secret-pw-ALICE", "Zq7-secret-pw-BOB")
"""Player ids (passwords) that must never appear in output unless asked for."""


def nest(*tokens: str) -> str:
    """Sub-commands as VASSAL nests them one level down (SequenceEncoder with ESC)."""
    return join(tokens, ESC) or ""


def _infantry(piece_id: str, x: int, y: int, level: int, owner: str = "null") -> str:
    fields = [""] * 25
    fields[15], fields[16], fields[18] = "front.png,back.png", "Front,Back", "Flip"
    layer = "emb2;" + ";".join(fields)
    mask = "obs;M;back.png;Hide;G;Masked;;"
    piece_type = join_chain([mask, layer, "piece;;;inf.png;1st Infantry [x]"])
    state = join_chain([owner + ";", str(level), f"Main Map;{x};{y};;0"])
    return "+/" + (join([piece_id, piece_type, state], "/") or "")


def _cavalry(piece_id: str, x: int, y: int) -> str:
    piece_type = join_chain(["PROP;Strength;false,0,100,false;;;", "piece;;;cav.png;Cossacks :smile:"])
    state = join_chain(["4", f"Main Map;{x};{y};;0"])
    return "+/" + (join([piece_id, piece_type, state], "/") or "")


def _stack(piece_id: str, x: int, y: int, *children: str) -> str:
    return "+/" + (join([piece_id, "stack", ";".join(["Main Map", str(x), str(y), *children])], "/") or "")


def save_text() -> str:
    alice, bob = SECRET_IDS
    pieces = nest("", _infantry("1001", 100, 200, 1), _cavalry("1002", 300, 400),
                  _stack("2001", 100, 200, "1001"), _stack("2002", 300, 400, "1002"))
    return nest(
        "begin_save", "", pieces,
        "GlobalProperty\t;Turn;3;Module",
        "TURNTurnTracker0\t0|3;0;true;20",
        f"PLAYER\t{alice}\tAlice\tRed",
        f"PLAYER\t{bob}\tBob\tBlue",
        f"PNOTE\t{alice}\tmy plan",
        "Main MapBoardPicker\tClassic Map\t0\t0",
        "SETUP_STACK\t",
        "end_save",
    )


def log_text() -> str:
    alice, bob = SECRET_IDS
    flipped_state = join_chain([alice + ";", "2", "Main Map;150;250;;0"])
    unflipped_state = join_chain([";", "1", "Main Map;150;250;;0"])
    steps = [
        "LOG\tCHAT<Alice> - [bold]hello[/bold] :smile: \x07\x9b2J",
        nest(f"LOG\tM/1001/Main Map/150/250/null/Main Map/100/200/null/{alice}",
             "LOG\tCHAT* 1st Infantry moves *"),
        "LOG\tD/" + (join(["1001", flipped_state, unflipped_state], "/") or ""),
        nest("LOG\tCHAT*** 2d6 = 3,5 *** &lt;Bob&gt;",
             "LOG\tMutableProperty\t2d6_result\t1,1\t3,5\tModule"),
        nest("LOG\tUNDO\ttrue", "LOG\tMutableProperty\t2d6_result\t3,5\t1,1\tModule",
             "LOG\tCHAT* UNDO: *** 2d6 = 3,5 *** &lt;Bob&gt;", "LOG\tUNDO\tfalse"),
        "LOG\t-/1002",
        f"LOG\tPLAYER\t{bob}\tBob\t<observer>",
    ]
    return ESC.join([save_text(), *(encode_token(s, ESC) for s in steps)])


def _write(obj: Save, path: Path) -> Path:
    obj.members = [("savedGame", b""), ("savedata", build_savedata(
        module_version="1.2", vassal_version="3.7.10", date_saved_ms=1738347539913,
        description="built by the CLI tests"))]
    write(obj, path, date_time=(2024, 1, 2, 3, 4, 6))
    return path


@pytest.fixture
def built_save(tmp_path: Path) -> Path:
    return _write(Save(decode(save_text()), dialect=Dialect.VCSK, key=0x58), tmp_path / "built.vsav")


@pytest.fixture
def built_log(tmp_path: Path) -> Path:
    return _write(Log(decode(log_text()), dialect=Dialect.VCSK, key=0x21), tmp_path / "built.vlog")


HIDDEN_IDS = ("Zq7-secret-pw-CAROL", "Zq7-secret-pw-DAVE")
"""Ids found only inside a change command's piece state (CAROL) and in a move vlog cannot parse
(DAVE)."""
INVISIBLE_PLACE = ("7771", "8882", "8993", "7a71")
"""Where the invisible scout is and is moved to: shown only to a referee."""


def _scout(piece_id: str, x: int, y: int, owner: str) -> str:
    piece_type = join_chain(["hide;H;Hide;;;", "piece;;;scout.png;Scout Patrol"])
    state = join_chain([owner, f"Main Map;{x};{y};;0"])
    return "+/" + (join([piece_id, piece_type, state], "/") or "")


def hostile_log_text() -> str:
    """The built log, then: an invisible scout alone in a stack at (7771,8882), a move of it that
    vlog cannot parse (its x is `7a71`) by DAVE, and CAROL masking the infantry (her id only in
    the D/ state)."""
    alice = SECRET_IDS[0]
    carol, dave = HIDDEN_IDS
    masked = join_chain([carol + ";", "1", "Main Map;100;200;;0"])
    unmasked = join_chain([";", "1", "Main Map;100;200;;0"])
    steps = [
        nest("LOG\t" + _scout("1003", 7771, 8882, alice), "LOG\t+/2003/stack/Main Map;7771;8882;1003"),
        f"LOG\tM/1003/Main Map/7a71/8993/null/Main Map/7771/8882/null/{dave}",
        "LOG\tD/" + (join(["1001", masked, unmasked], "/") or ""),
    ]
    return ESC.join([log_text(), *(encode_token(s, ESC) for s in steps)])


@pytest.fixture
def hostile_log(tmp_path: Path) -> Path:
    return _write(Log(decode(hostile_log_text()), dialect=Dialect.VCSK, key=0x21), tmp_path / "hostile.vlog")


_P = "VASSAL.build.module."
_B = _P + "map.boardPicker."
BUILD_FILE = f"""<?xml version="1.0" encoding="UTF-8"?>
<VASSAL.build.GameModule name="Tiny Game" version="1.2" VassalVersion="3.7.10">
  <{_P}PlayerRoster><entry>Red</entry><entry>Blue</entry></{_P}PlayerRoster>
  <{_P}Map mapName="Main Map">
    <{_P}map.BoardPicker>
      <{_B}Board name="Classic Map" width="1000" height="1000">
        <{_B}board.SquareGrid dx="100" dy="100" x0="0" y0="0">
          <{_B}board.mapgrid.SquareGridNumbering sep="," hType="N" vType="N"/>
        </{_B}board.SquareGrid>
      </{_B}Board>
    </{_P}map.BoardPicker>
  </{_P}Map>
</VASSAL.build.GameModule>
"""


@pytest.fixture
def built_module(tmp_path: Path) -> Path:
    """A buildFile.xml with one map, "Main Map", on a square grid."""
    path = tmp_path / "buildFile.xml"
    path.write_text(BUILD_FILE, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _plain_terminal(monkeypatch):
    """Every CLI test reads plain text: no colours, no traceback mode left over from the shell."""
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("VLOG_DEBUG", raising=False)


def convert(capsys, *argv: str, expect: int = EXIT_OK) -> str:
    """Runs `vlog convert`, checks its exit code and that it printed nothing on stdout; its stderr."""
    assert main(["convert", *argv]) == expect
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err
