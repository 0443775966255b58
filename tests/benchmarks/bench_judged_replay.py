"""Judged replay speed: Lion of Judah's rules on a 20,000-step log of legal play, this code
against a baseline, and the cost per step at 20,000 steps against that at 1,000.

The log is scripted on the synthetic module (fixtures/lion-of-judah/synthetic, 1935-36 start,
synthetic data) and plays the scenario's seven turns through every phase the tracker shows. The
Italian player sets up the Northern and Southern Front units (PB 13.3.1) in Eritrea and Italian
Somaliland before play, but for the colonial irregulars (the baseline reads irregulars placed
before play as placed by event A2 Rebellion, EV-04); each Event Phase draws A5 No Event and puts it back (6.2), and the
strategic turn B markers join the cup in turn 5 (PB 13.7). Each Italian movement segment, 9 to 12
units move within their MF over clear, rough, town, rail and amba hexes, into and out of stacks,
out in odd turns and back in even ones (ROVERS), and the turn's attackers move up to 1106; each
Italian combat segment of turns 1-6 holds an attack on the Tigray levy and Ras Seyum at 1107,
declared in chat, the die rolled and the synthetic CRT's result taken (2/0 five times, the
losses recorded on the General Records Track, then 0/2 and an advance into 1107: ATTACKS). Each
Ethiopian movement segment, eight armies are activated one after the other (`activate LEADER`, a
full activation roll) and moved over town, amba, capital and clear hexes (ARMIES); in the
Ethiopian combat of turn 7 the Wollo levy attacks SL in 1107 (1:2, 1/1). Positions differ from
one segment to the next, so supply is traced again at each check. The engine finds nothing in it
(`test_bench_judged_replay` asserts so, for both codes): every step is one an honest game could
hold.

Those moves make about 650 steps (a smaller `--steps` plays the first turns only). The rest, up to
`--steps`, are drags taken back with Undo, spread evenly over the moves: before each Italian move,
drags along its first hexes, and after each Ethiopian army's move (not right after its activation
roll, which vlog/undo-after-roll would question), a drag to a clear hex beside its end; an undone
drag is no move (nothing is paid for it). At 20,000 steps most steps are such drags and undos, at
1,000 most are the game's moves, rolls and phase changes.

Both codes are timed in this run, each in a fresh interpreter on the same log file, in CPU
seconds: the baseline is a checkout of BASELINE (a temporary git worktree, removed after), the
other this checkout. Prints steps per second of each and their ratio, then this code on the log
of `--small` steps and the cost per step of both sizes (the issue asks the one at 20,000 steps to
be within 1.3x of the one at 1,000).

    python tests/benchmarks/bench_judged_replay.py [--baseline REV] [--steps N] [--small N]
    python -m pytest tests/benchmarks/bench_judged_replay.py -s -o addopts=""
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:           # run as a script: `tests` and `converters` from this checkout,
    sys.path.append(str(ROOT))          # after PYTHONPATH (a baseline's `vlog` comes first there)
SYNTHETIC = ROOT / "fixtures" / "lion-of-judah" / "synthetic"
BASELINE = "b796672"
"""The commit before the step pipeline (the game copied and re-applied each step itself)."""
KIT_BASELINE = "4eb7c28"
"""The commit before the kit's judged replay read each step's view incrementally: the baseline
of the Ascari, Sideshow and Island of Death benchmarks."""
STEPS = 20_000
SMALL = 1_000
"""The sizes the issue compares: the cost per step at STEPS within 1.3x of that at SMALL."""
TURNS = 7
"""PB 13.1: the 1935-36 scenario's length."""
SETUP = (   # Italian units set up before play (PB 13.3.1): Eritrea (Northern Front), then Italian Somaliland
    ("Sb", "1104"), ("SL", "1304"), ("1E", "1204"), ("2E", "1204"), ("1G", "1303"), ("5G", "1303"),
    ("6G", "1203"), ("10G", "1203"), ("23M", "1404"), ("38OT", "1404"), ("GS", "1504"), ("GV", "1504"),
    ("4", "1405"), ("5", "1405"), ("10", "1404"), ("1CA", "1305"), ("2CA", "1205"), ("CAE", "1405"),
    ("@1704067200065", "1305"), ("@1704067200066", "1305"),                   # the two Eritrean trucks
    ("CSI", "2020"), ("PL", "2021"), ("4E", "2021"), ("1AS", "2023"), ("2AS", "2023"), ("3AS", "2023"),
    ("CV", "2220"), ("@1704067200042", "2020"),                                # the Somaliland truck
)
ATTACKS = (
    ((("21A", ("1405", "1305", "1206", "1106")),), 1, "2/0"),
    ((("Sb", ("1104", "1105", "1106")),), 1, "2/0"),
    ((("1E", ("1204", "1205", "1105", "1106")), ("2E", ("1204", "1205", "1105", "1106"))), 1, "2/0"),
    ((("1G", ("1303", "1304", "1205", "1206", "1106")), ("5G", ("1303", "1304", "1205", "1206", "1106"))), 1, "2/0"),
    ((("6G", ("1203", "1204", "1205", "1105", "1106")), ("10G", ("1203", "1204", "1205", "1105", "1106"))), 1, "2/0"),
    ((("SL", ("1304", "1305", "1206", "1106")),), 6, "0/2"),
    (),
)
"""Each turn's Italian attack on the Tigray levy and Ras Seyum at 1107 (defense 2 on the synthetic
counters): the attackers, their routes up to 1106 in the movement segment, the die and the
synthetic CRT's result at 2:1 (attack 4 or 5). A lone attacker owing 2/0 is reduced twice and
goes home the next turn; a pair of one-step brigades is eliminated; 0/2 clears 1107 and SL
advances into it. No Italian attack in turn 7 (no Ethiopian unit is next to an Italian one)."""
ROVERS = (
    ("GS", ("1504", "1505", "1506", "1406")),                                  # rough, clear
    ("GV", ("1504", "1505", "1506", "1406")),
    ("4", ("1405", "1504", "1505", "1506", "1406", "1305", "1205", "1104")),   # rough, clear, town, rail, amba
    ("5", ("1405", "1504", "1505", "1506", "1406", "1305", "1205", "1104")),
    ("10", ("1404", "1303", "1203", "1103", "1004")),
    ("PL", ("2021", "2121", "2122")),
    ("4E", ("2021", "2121", "2122")),
    ("1AS", ("2023", "2123", "2223")),
    ("CV", ("2220", "2221", "2222", "2223", "2224")),
)
"""Italian units that move along their route in odd turns and back in even ones, within their MF
(4 on foot, 8 motorized), into and out of stacks (the light tanks 4 and 5 end on Sb's amba)."""
ARMIES = (
    ("Ras Kassa", ("Ras Kassa", "Beghemder tribal levy (green stripe)"), ("1310", "1311", "1312"), ("1410", "1412")),
    ("Ras Imru", ("Ras Imru", "Gojjam tribal levy (light blue stripe)"), ("1109", "1110", "1010"), ("1110", "1011")),
    ("Dejaz G. Belu", ("Dejaz G. Belu", "Gojjam tribal levy (olive stripe)"), ("1009", "0909", "0809"), ("1008", "0808")),
    ("Ras Desta", ("Ras Desta", "Sidamo tribal levy (blue stripe)"), ("1118", "1218", "1219"), ("1117", "1220")),
    ("Dejaz Nassibu", ("Dejaz Nassibu", "Hararghe/Ogaden tribal levy (brown stripe)"), ("1914", "1915", "1916"),
     ("1913", "1917")),
    ("Dejaz B. Merid", ("Dejaz B. Merid", "Bale tribal levy (yellow stripe)"), ("1817", "1818", "1819"), ("1816", "1820")),
    ("Ras Mulugheta", ("Ras Mulugheta", "Shoa tribal levy (red stripe)"), ("1213", "1212", "1211"), ("1113", "1111")),
    ("Crown Prince Asfaw Wossen Tafari", ("Crown Prince Asfaw Wossen Tafari", "Wollo tribal levy (orange stripe)"),
     ("1309", "1209", "1208"), ("1409", "1209")),
)
"""The Ethiopian armies activated each Ethiopian movement segment (PB 13.6.2, a full activation on
the synthetic table), in this order: the leader, the units that move with him, the route (out in
odd turns, back in even ones; town, amba, capital and clear hexes) and, for the end of the route
in even and in odd turns, a clear hex next to it that the army is dragged to and back with Undo.
Ras Mulugheta and his levy leave the Negus and the KZ battalion at Addis Ababa and move one by
one; the Wollo army comes last, so that its attack in turn 7 is part of its activation."""
SPLIT = frozenset({"Ras Mulugheta"})
ITALIAN, ETHIOPIAN = "Alice", "Bob"


def _leg(route: tuple[str, ...], turn: int) -> list[str]:
    """The hexes entered along `route` in `turn`: out in odd turns, back in even ones."""
    return list(route[1:]) if turn % 2 else list(reversed(route[:-1]))


def _move(units: str | list[str], along: list[str], who: str) -> dict:
    return {"action": "move", ("units" if isinstance(units, list) else "unit"): units, "along": along, "as": who}


def _taken_back(units: str | list[str], along: list[str], tries: int, who: str) -> list[dict]:
    """`tries` drags along the start of `along` (two hexes at most), each taken back with Undo
    (a drag undone is no move: its hexes are not paid for)."""
    out: list[dict] = []
    for _ in range(tries):
        out.append(_move(units, along[:2], who))
        out += [{"action": "undo", "as": who}] * len(along[:2])
    return out


def _script(tries: Callable[[], int], turns: int = TURNS) -> dict:
    """The play script of the first `turns` turns, each move taken back and made again `tries()`
    times first (Italian moves) or after (Ethiopian ones: a drag undone right after the
    activation roll would be an undo after a roll)."""
    acts: list[dict] = [{"action": "move", "unit": u, "along": [h], "map": "Main Map", "as": ITALIAN}
                        for u, h in SETUP]
    lost = 0                            # the Italian eliminated steps marker's box (13.4.4)

    def turn_next(who: str) -> None:
        acts.append({"action": "turn", "turn": "next", "as": who})

    def losses(steps: int) -> None:
        nonlocal lost
        lost += steps
        acts.append({"action": "move", "unit": "Italian eliminated steps", "as": ITALIAN,
                     "along": [f"General Records Track box {lost}"], "map": "Off-map Boxes"})

    for turn in range(1, turns + 1):
        if turn > 1:
            turn_next(ITALIAN)                                              # Mutual Administration
            if turn == 5:                                                   # PB 13.7: strategic turn B
                acts += [{"action": "add", "piece": p, "along": ["event cup"], "map": "Off-map Boxes", "as": ITALIAN}
                         for p in ("B6 Coordination", "B7 Wireless Interception", "B8 Revolt")]
            turn_next(ITALIAN)                                              # Event
        for box in ("Events drawn", "event cup"):                           # 6.2: No Event goes back
            acts.append({"action": "move", "unit": "A5 No Event", "along": [box], "map": "Off-map Boxes",
                         "as": ITALIAN})
        turn_next(ITALIAN)                                                  # Italian movement
        moves: list[tuple[str, list[str]]] = []
        last = ATTACKS[turn - 2] if turn > 1 else ()
        if last and len(last[0]) == 1 and last[2] == "2/0":                 # a reduced attacker goes home
            moves += [(u, list(reversed(r[:-1]))) for u, r in last[0]]
        if ATTACKS[turn - 1]:
            moves += [(u, list(r[1:])) for u, r in ATTACKS[turn - 1][0]]
        moves += [(u, _leg(r, turn)) for u, r in ROVERS]
        for unit, along in moves:
            acts += _taken_back(unit, along, tries(), ITALIAN)
            acts.append(_move(unit, along, ITALIAN))
        turn_next(ITALIAN)                                                  # Italian combat
        if ATTACKS[turn - 1]:
            group, die, result = ATTACKS[turn - 1]
            names = [u for u, _ in group]
            acts.append({"action": "chat", "text": f"attack 1107 with {', '.join(names)}", "as": ITALIAN})
            acts.append({"action": "roll", "button": "1d6", "faces": [die], "as": ITALIAN})
            if result == "2/0" and len(names) == 1:
                acts += [{"action": "reduce", "unit": names[0], "as": ITALIAN}] * 2
                losses(2)
            elif result == "2/0":
                acts += [{"action": "remove", "unit": n, "as": ITALIAN} for n in names]
                losses(2)
            else:                                                           # 0/2: 1107 cleared, advance
                acts += [{"action": "remove", "unit": u, "as": ETHIOPIAN}
                         for u in ("Tigray tribal levy (black stripe)", "Ras Seyum")]
                acts += [_move(n, ["1107"], ITALIAN) for n in names]
        turn_next(ETHIOPIAN)                                                # Ethiopian activation
        turn_next(ETHIOPIAN)                                                # Ethiopian movement
        for leader, units, route, sides in ARMIES:
            along, aside = _leg(route, turn), [sides[turn % 2]]
            acts.append({"action": "chat", "text": f"activate {leader}", "as": ETHIOPIAN})
            acts.append({"action": "roll", "button": "1d6", "faces": [4 + turn % 3], "as": ETHIOPIAN})
            for mover in (units if leader in SPLIT else [list(units)]):
                acts.append(_move(mover, along, ETHIOPIAN))
                acts += _taken_back(mover, aside, tries(), ETHIOPIAN)
        turn_next(ETHIOPIAN)                                                # Ethiopian combat
        if turn == TURNS:               # the Wollo levy (2) attacks SL (4) in 1107: 1:2, die 5: 1/1
            acts.append({"action": "chat", "text": "attack 1107 with Wollo tribal levy (orange stripe)",
                         "as": ETHIOPIAN})
            acts.append({"action": "roll", "button": "1d6", "faces": [5], "as": ETHIOPIAN})
            acts.append({"action": "remove", "unit": "Wollo tribal levy (orange stripe)", "as": ETHIOPIAN})
            acts.append({"action": "reduce", "unit": "SL", "as": ITALIAN})
            losses(1)
        turn_next(ETHIOPIAN)                                                # End of Turn
    return {"format": "vlog-script/1",
            "header": {"game": "lion-of-judah", "module": str(SYNTHETIC / "lion-of-judah.vmod"),
                       "start": str(SYNTHETIC / "1935-36-start.vsav"), "map": "Main Map",
                       "clock": 1704067260000, "key": 42,
                       "players": [{"name": ITALIAN, "side": "italian"},
                                   {"name": ETHIOPIAN, "side": "ethiopian"}]},
            "actions": acts}


def steps_of(document: dict) -> int:
    """The steps the log of a play script holds (docs/script-format.md: one per hex of a move)."""
    return sum(len(a["along"]) if a["action"] in ("move", "add") else 1 for a in document["actions"])


def script(steps: int = STEPS) -> dict:
    """The play script (JSON form, docs/script-format.md) of at least `steps` steps: the whole
    scenario, with as many drags taken back as it takes to reach `steps`, spread evenly over the
    moves; below the scenario's own size (about 650 steps), its first turns, as few as reach
    `steps`, with no drag taken back."""
    for turns in range(1, TURNS):
        document = _script(lambda: 0, turns)
        if steps_of(document) >= steps:
            return document
    base = steps_of(_script(lambda: 0))
    per_try = steps_of(_script(lambda: 1)) - base        # the steps one try before every move adds
    rate = max(0.0, (steps - base) / per_try)
    while True:
        given = [0.0]

        def tries() -> int:             # the next move's tries: `rate` on average, spread evenly
            before = int(given[0])
            given[0] += rate
            return int(given[0]) - before

        document = _script(tries)
        if steps_of(document) >= steps:
            return document
        rate += 0.01


def write_script_log(path: Path, document: dict) -> None:
    """A log written at `path` from a play script's JSON form (beside it as .vscript.json)."""
    from converters.log_writer import write_log

    source = path.with_suffix(".vscript.json")
    source.write_text(json.dumps(document))
    write_log(source, path)


def build(path: Path, steps: int = STEPS) -> None:
    write_script_log(path, script(steps))


def judged(game_id: str, module_path: Path, log_path: Path | str) -> dict:
    """A log judged by `game_id` on its module with the `vlog` this interpreter imports: its steps,
    the CPU seconds of the replay alone, its findings and their check ids."""
    import time

    import vlog
    from vlog.cli.check import load_game, load_module
    from vlog.replay import replay_log

    module = load_module(module_path)
    game = load_game(game_id, (), module)
    log = vlog.read(log_path)
    t0 = time.process_time()
    rep = replay_log(log, module=module, game=game)
    seconds = time.process_time() - t0
    return {"steps": len(rep.steps), "seconds": seconds, "findings": len(rep.findings),
            "checks": [f.check for f in rep.findings], "code": str(Path(vlog.__file__).resolve().parents[1])}


def time_replay(log_path: str) -> dict:
    """Judge the log with the `vlog` this interpreter imports; CPU seconds of the replay alone."""
    return judged("lion-of-judah", SYNTHETIC / "lion-of-judah.vmod", log_path)


def _timed(code: Path, log: Path, *args: str) -> dict:
    """The log judged in a fresh interpreter that imports the `vlog` of checkout `code`."""
    env = dict(os.environ, PYTHONPATH=str(code))
    out = subprocess.run([sys.executable, __file__, "--time", str(log), *args], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


@contextlib.contextmanager
def checkout(rev: str) -> Iterator[Path]:
    """A temporary worktree of `rev` (removed after)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), rev],
                       check=True, capture_output=True)
        try:
            yield path
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)],
                           check=False, capture_output=True)


def _line(name: str, fig: dict) -> str:
    return (f"{name:24} {fig['steps']} steps {fig['seconds']:8.2f} s CPU "
            f"{fig['steps'] / fig['seconds']:8.0f} steps/s  ({fig['findings']} findings)")


def against_baseline(game_id: str, module_path: Path, log: Path, baseline: str = KIT_BASELINE,
                     repeat: int = 1) -> dict:
    """`game_id` judging `log` with the code of `baseline` and with this checkout, each in fresh
    interpreters, `repeat` times in turn (old, new, old, new ...: a loaded machine slows both
    alike); prints each run and the speed-up of the fastest runs, and returns them."""
    target = ["--game", game_id, "--module", str(module_path)]
    before: list[dict] = []
    after: list[dict] = []
    with checkout(baseline) as old:
        for _ in range(repeat):
            before.append(_timed(old, log, *target))
            after.append(_timed(ROOT, log, *target))
    for n in range(repeat):
        print(_line(f"{game_id} baseline {baseline}", before[n]))
        print(_line(f"{game_id} this code", after[n]))
    best_before = min(before, key=lambda f: f["seconds"])
    best_after = min(after, key=lambda f: f["seconds"])
    ratio = best_before["seconds"] / best_after["seconds"]
    print(f"{game_id} speed-up against {baseline} (fastest of {repeat}): {ratio:.2f}x, "
          f"{best_after['steps'] / best_after['seconds']:.0f} steps/s")
    return {"before": best_before, "after": best_after, "runs": {"before": before, "after": after},
            "ratio": ratio}


def script_against_baseline(game_id: str, module_path: Path, document: dict, baseline: str | None = None,
                            repeat: int = 1) -> dict:
    """A play script's log judged by `game_id` with `baseline`'s code and this checkout's
    (`against_baseline`), then Lion of Judah's judged replay of as many steps with this code (the
    speed asked of every game's judged replay); prints each, returns them."""
    with tempfile.TemporaryDirectory() as tmp:
        log, lion = Path(tmp) / f"{game_id}.vlog", Path(tmp) / "lion.vlog"
        write_script_log(log, document)
        figures = against_baseline(game_id, module_path, log, baseline or KIT_BASELINE, repeat)
        build(lion, figures["after"]["steps"])
        figures["lion"] = _timed(ROOT, lion)
    print(_line("lion-of-judah this code", figures["lion"]))
    return figures


def options(doc: str, **sizes: int) -> argparse.Namespace:
    """A game benchmark's command line: its sizes (`--steps N` ...), `--baseline REV`, `--repeat N`."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    for name, default in sizes.items():
        parser.add_argument(f"--{name}", type=int, default=default)
    parser.add_argument("--baseline", help=f"the commit to compare against (default: {KIT_BASELINE})")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each code, in turn")
    return parser.parse_args()


def _per_step(fig: dict) -> float:
    """Milliseconds of CPU per step."""
    return 1000 * fig["seconds"] / fig["steps"]


def run(baseline: str = BASELINE, steps: int = STEPS, small: int = SMALL) -> dict:
    """The log of `steps` steps judged by `baseline`'s code and this checkout's, and (unless
    `small` is 0) this checkout's judgement of the log of `small` steps, for the cost per step of
    both sizes; prints each and returns them."""
    with tempfile.TemporaryDirectory() as tmp:
        log, little = Path(tmp) / "judged.vlog", Path(tmp) / "small.vlog"
        build(log, steps)
        with checkout(baseline) as old:
            before = _timed(old, log)
            after = _timed(ROOT, log)
        if small:
            build(little, small)
            lesser = _timed(ROOT, little)
    for name, fig in (("baseline " + baseline, before), ("this code", after)):
        print(f"{name:18} {fig['steps']} steps {fig['seconds']:8.2f} s CPU "
              f"{fig['steps'] / fig['seconds']:8.0f} steps/s  ({fig['findings']} findings)")
    ratio = before["seconds"] / after["seconds"]
    print(f"speed-up: {ratio:.2f}x")
    figures = {"before": before, "after": after, "ratio": ratio}
    if small:
        print(f"{'this code':18} {lesser['steps']} steps {lesser['seconds']:8.2f} s CPU "
              f"{lesser['steps'] / lesser['seconds']:8.0f} steps/s  ({lesser['findings']} findings)")
        flatness = _per_step(after) / _per_step(lesser)
        print(f"cost per step: {_per_step(after):.3f} ms at {after['steps']} steps, {_per_step(lesser):.3f} ms "
              f"at {lesser['steps']}: {flatness:.2f}x (the issue asks at most 1.3x)")
        figures.update(small=lesser, flatness=flatness)
    return figures


def test_bench_judged_replay():
    """Legal play at a size quick enough for a test run: no finding from either code."""
    figures = run(steps=2_000, small=SMALL)
    assert figures["after"]["steps"] == figures["before"]["steps"] >= 2_000
    assert figures["small"]["steps"] >= SMALL
    assert figures["after"]["checks"] == [] == figures["before"]["checks"]     # legal play: no finding
    assert figures["small"]["checks"] == []


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help="the commit to compare against")
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--small", type=int, default=SMALL,
                        help="the size of the second log, whose cost per step is compared (0: none)")
    parser.add_argument("--time", metavar="LOG", help=argparse.SUPPRESS)
    parser.add_argument("--game", help=argparse.SUPPRESS)
    parser.add_argument("--module", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.time and args.game:
        print(json.dumps(judged(args.game, Path(args.module), args.time)))
    elif args.time:
        print(json.dumps(time_replay(args.time)))
    else:
        run(args.baseline, args.steps, args.small)
