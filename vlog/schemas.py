"""Where vlog's JSON schemas are found at run time, installed or in a source checkout.

The schemas live in the top-level `schemas/` folder of the source tree (they document the file
formats for readers who never open the code). A wheel ships the same files inside the package as
`vlog/_schemas/` (setup.py copies them at build time), so a non-editable install validates
exactly like a checkout. Every run-time use of a schema goes through `schema_path`.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from vlog.errors import VlogError

__all__ = ["INSTALLED_DIR", "SOURCE_DIR", "locate", "schema_dir", "schema_path", "load_schema"]

INSTALLED_DIR = Path(__file__).resolve().parent / "_schemas"
"""The schemas as a wheel installs them."""
SOURCE_DIR = Path(__file__).resolve().parent.parent / "schemas"
"""The schemas of a source checkout (editable install or running from the tree)."""


def schema_dir() -> Path:
    """The folder holding the schemas: the installed copy when present, else the source tree's."""
    if INSTALLED_DIR.is_dir():
        return INSTALLED_DIR
    if SOURCE_DIR.is_dir():
        return SOURCE_DIR
    raise VlogError("vlog's schemas are missing (neither vlog/_schemas nor the source tree's schemas/ "
                    "exists); reinstall vlog", file=str(INSTALLED_DIR))


def locate(name: str) -> Path:
    """Where schema `name` is (installed copy first), without checking that it exists: for module
    constants computed at import time; readers get a VlogError naming this path when it is missing."""
    installed = INSTALLED_DIR / name
    return installed if installed.is_file() or not (SOURCE_DIR / name).is_file() else SOURCE_DIR / name


def schema_path(name: str) -> Path:
    """The path of one schema, `name` relative to the schemas folder ("save.schema.json",
    "gamedata/bindings.schema.json"); VlogError when it is missing."""
    relative = Path(name)
    if relative.is_absolute() or ".." in relative.parts:
        raise VlogError(f"schema name {name!r} must be relative to the schemas folder")
    path = schema_dir() / relative
    if not path.is_file():
        raise VlogError("schema file is missing; reinstall vlog", file=str(path))
    return path


def load_schema(name: str) -> dict[str, Any]:
    """One schema as JSON data (see `schema_path`)."""
    path = schema_path(name)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise VlogError(f"cannot read the schema ({exc})", file=str(path)) from None
