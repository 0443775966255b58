"""Saves and logs the tests build from typed commands and write with the codec's writer.

A step is built as VASSAL's BasicLogger writes one: the first command wrapped in `LOG`, each
further command a nested `LOG` sub-command; an undo step is `UNDO true`, the inverse commands
and `UNDO false`, as `BasicLogger.undo` logs it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from vlog.vassal.commands import (
    AddPiece, Chat, Command, LogStep, MovePiece, MutableProperty, NullCommand, PlayerAdd, Setup,
    Undo,
)
from vlog.vassal.metadata import build_savedata
from vlog.vassal.obfuscation import Dialect
from vlog.vassal.pieces import join_chain
from vlog.vassal.savefile import Log, Save, write

MAP = "Main Map"
SECRET = "pw-Alice-secret"


def layer_type(name: str, levels: Sequence[str]) -> str:
    fields = [""] * 25
    fields[15] = ",".join(f"{l}.png" for l in levels)
    fields[16] = ",".join(levels)
    fields[18] = name
    return "emb2;" + ";".join(fields)


MASK_TYPE = "obs;M;back.png;Hide;G;Masked;;"


def unit(pid: str, name: str, x: int, y: int, *, level: int = 1, masked_by: str | None = None,
         map_id: str | None = MAP) -> AddPiece:
    """A counter with a Mask and a two-level 'Step' Layer (level 1 = Full, 2 = Reduced)."""
    type_ = join_chain([MASK_TYPE, layer_type("Step", ["Full", "Reduced"]), f"piece;;;{pid}.png;{name}"])
    return AddPiece(pid, type_, unit_state(x, y, level=level, masked_by=masked_by, map_id=map_id))


def unit_state(x: int, y: int, *, level: int = 1, masked_by: str | None = None,
               map_id: str | None = MAP) -> str:
    return join_chain([f"{masked_by or 'null'};", str(level), f"{map_id or 'null'};{x};{y};7;0"])


def stack(sid: str, x: int, y: int, *children: str) -> AddPiece:
    return AddPiece(sid, "stack", ";".join([MAP, str(x), str(y), *children, "@@-1"]))


def move(pid: str, x: int, y: int, ox: int, oy: int, *, under: str | None = None,
         old_under: str | None = None, player: str = SECRET) -> MovePiece:
    return MovePiece(pid, MAP, x, y, under, MAP, ox, oy, old_under, player)


def roll(name: str, faces: Sequence[int], player: str = "Alice", old: str = "1,1") -> list[Command]:
    """A DiceButton roll as VASSAL 3.7 logs it: the report, then the `_result` property."""
    result = ",".join(str(f) for f in faces)
    return [Chat(f"*** {name} = {result} *** &lt;{player}&gt;"),
            MutableProperty(f"{name}_result", old, result, "Module")]


def undo_of(commands: Sequence[Command]) -> list[Command]:
    """The inverse commands VASSAL writes for a step (in reverse order)."""
    out: list[Command] = []
    for c in reversed(commands):
        if isinstance(c, MovePiece):
            out.append(MovePiece(c.id, c.old_map, c.old_x, c.old_y, c.old_under, c.new_map,
                                 c.new_x, c.new_y, c.new_under, c.player_id))
        elif isinstance(c, MutableProperty):
            out.append(MutableProperty(c.name, c.new, c.old, c.container))
        elif isinstance(c, Chat):
            out.append(Chat("* UNDO: " + c.text))
        else:
            raise ValueError(f"no inverse written for {type(c).__name__} in these tests")
    return out


def step(commands: Sequence[Command]) -> LogStep:
    first, *rest = commands
    return LogStep(first, subs=[LogStep(c) for c in rest])


def undo_step(commands: Sequence[Command]) -> LogStep:
    return step([Undo(True), *undo_of(commands), Undo(False)])


def restore(pieces: Sequence[AddPiece], *extra: Command) -> list[Command]:
    return [NullCommand(subs=list(pieces)), PlayerAdd(SECRET, "Alice", "Red"), *extra]


def moduledata(name: str, version: str) -> bytes:
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
            f"  <version>{version}</version>\n  <VassalVersion>3.7.10</VassalVersion>\n"
            f"  <dateSaved>1738347539913</dateSaved>\n  <description/>\n  <name>{name}</name>\n"
            "</data>\n").encode()


def write_file(path: Path, restore_cmds: Sequence[Command], steps: Sequence[LogStep] = (), *,
               module: str = "Test Module", version: str = "1.0") -> Path:
    """A .vlog (with steps) or .vsav written by the codec, read back by the tests."""
    root = Setup(True, subs=[*restore_cmds, Setup(False), *steps])
    cls = Log if steps else Save
    obj = cls(root, dialect=Dialect.VCSK, key=0x21, members=[
        ("savedGame", b""),
        ("savedata", build_savedata(module_version=version, vassal_version="3.7.10",
                                    date_saved_ms=1738347539913, description="built by tests")),
        ("moduledata", moduledata(module, version)),
    ])
    write(obj, path, date_time=(2024, 1, 2, 3, 4, 6))
    return path
