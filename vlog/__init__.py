"""vlog: read, convert and judge VASSAL modules, saved games and logs.

A program needs only this package's names: `read` (a .vsav or .vlog), `read_module` (a .vmod,
.vmdx, unpacked folder or buildFile), `write` (a save or log, atomically), `Save` and `Log`, and
the error tree, whose root `VlogError` is the one exception a reader raises. The readers are
imported on first use, so `import vlog` (and `vlog --help`) stays light.
"""
from __future__ import annotations

import importlib

from vlog.errors import (
    ArchiveError, CommandSyntaxError, GameDataError, ModuleError, ObfuscationError, OutputError,
    ScriptError, UnknownGameError, VlogError,
)

__version__ = "0.1.0"

_LAZY = {
    "read": "vlog.vassal.savefile", "write": "vlog.vassal.savefile",
    "Save": "vlog.vassal.savefile", "Log": "vlog.vassal.savefile",
    "read_module": "vlog.vassal.module",
}

__all__ = [
    "__version__", *_LAZY,
    "VlogError", "ArchiveError", "ObfuscationError", "CommandSyntaxError", "ModuleError",
    "GameDataError", "UnknownGameError", "ScriptError", "OutputError",
]


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'vlog' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
