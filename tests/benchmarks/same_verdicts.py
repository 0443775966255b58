"""Every Lion of Judah fixture log judged as `vlog check LOG --game lion-of-judah --format json`
prints it, one JSON file per log, in one process; and a comparison of two such folders.

A change that must not change a verdict (a refactoring of the engine) is checked by judging the
logs with the code before and after it and comparing, byte for byte. The code judged is the
`vlog` Python imports, so a checkout of an older commit is judged with PYTHONPATH set to it:

    git worktree add --detach /tmp/old main
    PYTHONPATH=/tmp/old python tests/benchmarks/same_verdicts.py write /tmp/before
    python tests/benchmarks/same_verdicts.py write /tmp/after
    python tests/benchmarks/same_verdicts.py compare /tmp/before /tmp/after
"""
from __future__ import annotations

import argparse
import contextlib
import io
import sys
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lion-of-judah" / "rules"


def write(out: Path, logs: list[Path]) -> None:
    from vlog.cli import main

    out.mkdir(parents=True, exist_ok=True)
    for log in logs:
        target = out / (log.name + ".json")
        with contextlib.redirect_stderr(io.StringIO()):
            code = main(["check", str(log), "--game", "lion-of-judah", "--format", "json",
                         "-o", str(target)])
        (out / (log.name + ".rc")).write_text(f"{code}\n")
    print(f"{len(logs)} logs judged into {out}")


def compare(a: Path, b: Path) -> int:
    names = sorted({p.name for p in a.iterdir()} | {p.name for p in b.iterdir()})
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
    w.add_argument("--logs", type=Path, default=FIXTURES, help="folder of .vlog files")
    c = sub.add_parser("compare", help="compare two folders written by `write`")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = parser.parse_args(argv)
    if args.what == "write":
        write(args.out, sorted(args.logs.glob("*.vlog")))
        return 0
    return compare(args.a, args.b)


if __name__ == "__main__":
    sys.exit(cli())
