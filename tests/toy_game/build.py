"""Writes the toy's fixtures (module, start save, the logs of its play scripts) with the project's
own writers, as `python -m converters.fixtures` does for the shipped games:

    python -m tests.toy_game.build            # rewrite what is stale, list it
    python -m tests.toy_game.build --check    # exit 1 listing what is stale; writes nothing
"""
from __future__ import annotations

import sys

from converters.fixtures import FixtureSet, regenerate, stale_fixtures
from tests.toy_game import FIXTURES, installed

SETS = (FixtureSet("toy-skirmish", "toy-skirmish"),)


def main(argv: list[str] | None = None) -> int:
    check = "--check" in (sys.argv[1:] if argv is None else argv)
    with installed():
        stale = stale_fixtures(FIXTURES, SETS) if check else regenerate(FIXTURES, SETS)
    for item in stale:
        print(f"{'stale' if check else 'wrote'}: {item.path}")
    return 1 if check and stale else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
