"""Every fixture log of each game judged as `vlog check LOG --game GAME --format json` prints it,
one JSON file per log, in one process; and a comparison of two such folders.

A change that must not change a verdict (a refactoring of the engine) is checked by judging the
logs with the code before and after it and comparing, byte for byte. The code judged is the
`vlog` Python imports, so a checkout of an older commit is judged with PYTHONPATH set to it:

    git worktree add --detach /tmp/old main
    PYTHONPATH=/tmp/old python tests/benchmarks/same_verdicts.py write /tmp/before
    python tests/benchmarks/same_verdicts.py write /tmp/after
    python tests/benchmarks/same_verdicts.py compare /tmp/before /tmp/after

`--game GAME` (repeatable) judges only that game's logs; by default every game's. OUT must not
hold files already (`vlog check -o` never overwrites one).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import sys
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
GAMES = ("lion-of-judah", "island-of-death", "ascari", "sideshow")


def write(out: Path, games: list[str]) -> int:
    """Judges each game's fixture logs into OUT/GAME/; 2 when OUT already holds files."""
    from vlog.cli import main

    if out.is_dir() and any(out.iterdir()):
        print(f"{out} already holds files: give an empty or new folder", file=sys.stderr)
        return 2
    count = 0
    for game in games:
        folder = out / game
        folder.mkdir(parents=True, exist_ok=True)
        for log in sorted((FIXTURES / game / "rules").glob("*.vlog")):
            with contextlib.redirect_stderr(io.StringIO()):
                code = main(["check", str(log), "--game", game, "--format", "json",
                             "-o", str(folder / (log.name + ".json"))])
            (folder / (log.name + ".rc")).write_text(f"{code}\n")
            count += 1
    print(f"{count} logs of {len(games)} game(s) judged into {out}")
    return 0


def compare(a: Path, b: Path) -> int:
    names = sorted({str(p.relative_to(a)) for p in a.rglob("*") if p.is_file()}
                   | {str(p.relative_to(b)) for p in b.rglob("*") if p.is_file()})
    differ = [n for n in names if not (a / n).is_file() or not (b / n).is_file()
              or (a / n).read_bytes() != (b / n).read_bytes()]
    for name in differ:
        print(f"differs: {name}")
    print(f"{len(names) - len(differ)} of {len(names)} files identical")
    return 1 if differ else 0


def cli(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    w = sub.add_parser("write", help="judge every fixture log into OUT")
    w.add_argument("out", type=Path)
    w.add_argument("--game", action="append", choices=GAMES, help="only this game's logs (repeatable)")
    c = sub.add_parser("compare", help="compare two folders written by `write`")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = parser.parse_args(argv)
    if args.what == "write":
        return write(args.out, args.game or list(GAMES))
    return compare(args.a, args.b)


if __name__ == "__main__":
    sys.exit(cli())
