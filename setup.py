"""Build hook: ships the top-level schemas/ folder inside the package as vlog/_schemas.

All project metadata is in pyproject.toml; this only extends build_py so that a wheel (and a
non-editable install) carries the JSON schemas vlog validates against at run time
(vlog/schemas.py finds them there, or in the source tree's schemas/ for a checkout).
"""
from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class build_py_with_schemas(build_py):
    """build_py that also copies schemas/**/*.json to <build>/vlog/_schemas/."""

    def run(self) -> None:
        super().run()
        source = ROOT / "schemas"
        target = Path(self.build_lib) / "vlog" / "_schemas"
        for path in sorted(source.rglob("*.json")):
            destination = target / path.relative_to(source)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)


setup(cmdclass={"build_py": build_py_with_schemas})
