"""The library does not depend on the converters (architecture: `converters` uses `vlog`, and only
the CLI, lazily, reaches back to run a conversion)."""
from __future__ import annotations

import ast
from pathlib import Path

import vlog

ROOT = Path(vlog.__file__).parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
    return out


def test_nothing_under_vlog_but_the_cli_imports_converters():
    offenders = sorted(str(path.relative_to(ROOT.parent)) for path in ROOT.rglob("*.py")
                       if path.relative_to(ROOT).parts[0] != "cli"
                       and any(name == "converters" or name.startswith("converters.") for name in _imports(path)))
    assert offenders == []


def test_the_kit_knows_no_game():
    """vlog/kit stands between the engine and the games: of vlog.games it imports only the Game
    interface its rules engine implements, never a game's package."""
    kit = ROOT / "kit"
    offenders = sorted(f"{path.name}: {name}" for path in kit.rglob("*.py") for name in _imports(path)
                       if name.startswith("vlog.games") and name != "vlog.games.base")
    assert offenders == []
