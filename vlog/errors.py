"""The one exception tree for input vlog cannot read or use.

Every reader raises only `VlogError` subclasses, each naming the file and the place in it
(zip member, line, offset, log step), so the command line can print one clear line.
"""
from __future__ import annotations


class VlogError(ValueError):
    """Input vlog cannot read or use. `where` names the file and the place inside it."""

    def __init__(self, message: str, *, file: str | None = None, where: str | None = None):
        self.message = message
        self.file = file
        self.where = where
        super().__init__(self.__str__())

    def __str__(self) -> str:
        parts = [p for p in (self.file, self.where) if p]
        prefix = ": ".join(parts)
        return f"{prefix}: {self.message}" if prefix else self.message


class ArchiveError(VlogError):
    """A zip archive is broken, hostile (too big, too many members, bomb) or lacks a member."""


class ObfuscationError(VlogError):
    """A savedGame member is in no dialect vlog knows, or its encoding is broken."""


class CommandSyntaxError(VlogError):
    """A command string cannot be decoded (bad escapes, nesting too deep, token too large)."""


class ModuleError(VlogError):
    """A module, extension or buildFile cannot be read (bad XML, hostile XML, wrong root)."""


class GameDataError(VlogError):
    """A game data file is missing, invalid against its schema, or inconsistent."""


class UnknownGameError(VlogError):
    """No rules engine exists for the game named."""


class ScriptError(VlogError):
    """A play script cannot be read or does not fit the game data."""


class OutputError(VlogError):
    """An output cannot be written (it would overwrite the input, or the folder is not writable)."""


class BatchError(VlogError):
    """A batch that cannot be set up: a bad manifest or --game-of pattern, shard reports that do not join."""
