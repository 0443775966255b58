"""Module reading speed: `read_module` against a bare lxml parse of the same buildFile.

The floor is what any reader must do: parse the XML. The ratio says what vlog's model costs on
top of it (hardened parse, prototype expansion of every PieceSlot, grids, at-start stacks).
Builds a buildFile of at least 4 MB by repeating PieceSlots that use prototypes, then one large
module per grid kind (hex, square, region, zoned: hundreds of maps, each board with its grid,
beside 1 MB of PieceSlots), and measures the real modules of ../shared/samples when present,
then the cost per trait of expanding chains of 200 to 1,600 traits (linear: the same cost).
Times are the least CPU time of several interleaved runs.

    python -m pytest tests/benchmarks/bench_module.py -s
    python tests/benchmarks/bench_module.py
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT.parent / "shared" / "samples"
"""Real modules' buildFiles, measured too when present."""
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from lxml import etree  # noqa: E402

from vlog.vassal.module import read_module  # noqa: E402

TARGET_BYTES = 4 * 1024 * 1024
P = "VASSAL.build.module."
HEAD = f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule VassalVersion="3.7.14" name="Bench" nextPieceSlotId="1" version="1">
  <{P}PrototypesContainer>
    <{P}PrototypeDefinition name="Base">+/null/emb2;Activate;2;;;;;;;;;1;;;;;;Step;1;;full.png,reduced.png;,;true;Hits;;;false;;1\tmark;Side\\\tpiece;;;;/1;false\tGerman\\\tnull;0;0;0</{P}PrototypeDefinition>
    <{P}PrototypeDefinition name="Unit">+/null/prototype;Base\tlabel;;;12;;0,0,0;b;-4;c;0;b;c;$pieceName$;Dialog;0;0;TextLabel\\\tpiece;;;;/\t\\\tnull;0;0;0</{P}PrototypeDefinition>
  </{P}PrototypesContainer>
  <{P}PieceWindow name="Pieces">
    <VASSAL.build.widget.PanelWidget entryName="All">
"""
TAIL = f"""    </VASSAL.build.widget.PanelWidget>
  </{P}PieceWindow>
</VASSAL.build.GameModule>
"""
SLOT = ('      <VASSAL.build.widget.PieceSlot entryName="Unit {n}" gpid="{n}" height="50" width="50">'
        '+/null/prototype;Unit\tcmt;note {n}\\\tpiece;;;u{n}.png;Unit {n}/\t\\\tnull;0;0;{n}'
        '</VASSAL.build.widget.PieceSlot>\n')


def build_file() -> bytes:
    parts = [HEAD]
    size = len(HEAD) + len(TAIL)
    n = 0
    while size < TARGET_BYTES:
        s = SLOT.format(n=n)
        parts.append(s)
        size += len(s)
        n += 1
    parts.append(TAIL)
    return "".join(parts).encode("utf-8")


B = "VASSAL.build.module.map.boardPicker."
GRIDS = {
    "hex": f'<{B}board.HexGrid dx="55.4" dy="64.0" x0="0" y0="32"><{B}board.mapgrid.HexGridNumbering sep="" '
           f'hOff="1" vOff="1"/></{B}board.HexGrid>',
    "square": f'<{B}board.SquareGrid dx="50" dy="50" x0="25" y0="25"><{B}board.mapgrid.SquareGridNumbering '
              f'sep="," hType="A"/></{B}board.SquareGrid>',
    "region": f'<{B}board.RegionGrid>' + "".join(f'<{B}board.Region name="Area {i}" originx="{17 * i % 1900}" '
                                                  f'originy="{29 * i % 1400}"/>' for i in range(300))
              + f'</{B}board.RegionGrid>',
    "zoned": f'<{B}board.ZonedGrid>' + "".join(
        f'<{B}board.mapgrid.Zone name="Zone {i}" locationFormat="$name$ $gridLocation$" '
        f'path="{40 * i},0;{40 * i + 40},0;{40 * i + 40},1400;{40 * i},1400" useParentGrid="false">'
        f'<{B}board.HexGrid dx="20" dy="24" x0="{40 * i}" y0="12"><{B}board.mapgrid.HexGridNumbering sep="." '
        f'hOff="1" vOff="1"/></{B}board.HexGrid></{B}board.mapgrid.Zone>' for i in range(40))
             + f'</{B}board.ZonedGrid>',
}
"""One board's grid per kind (a region grid of 300 regions, a zoned grid of 40 zones each with its hexes)."""
MAPS = 200


def grid_file(kind: str) -> bytes:
    """A module of MAPS maps, each a board of 2000 x 1500 pixels with a grid of `kind`, and 1 MB of
    PieceSlots."""
    maps = "".join(f'<{P}Map mapName="Map {m}"><{P}map.BoardPicker><{B}Board name="Board {m}" width="2000" '
                   f'height="1500">{GRIDS[kind]}</{B}Board></{P}map.BoardPicker></{P}Map>' for m in range(MAPS))
    slots, size, n = [], 0, 0
    while size < 1024 * 1024:
        slots.append(SLOT.format(n=n))
        size += len(slots[-1])
        n += 1
    head, tail = HEAD, TAIL.replace("</VASSAL.build.GameModule>", maps + "</VASSAL.build.GameModule>")
    return (head + "".join(slots) + tail).encode("utf-8")


RUNS = 7


def best_of(floor, ours, runs: int = RUNS) -> tuple[float, float]:
    """The least CPU seconds of `floor` and of `ours`, their runs interleaved (on a shared machine
    a busy spell then slows both alike)."""
    best = [float("inf"), float("inf")]
    for _ in range(runs):
        for n, fn in enumerate((floor, ours)):
            t = time.process_time()
            fn()
            best[n] = min(best[n], time.process_time() - t)
    return best[0], best[1]


CHAIN_LENGTHS = (100, 200, 400, 800)


def chain_piece(n: int) -> tuple[str, dict]:
    """A palette piece whose chain is `n` prototypes of two traits each (and the BasicPiece)."""
    from vlog.vassal.module import Prototype
    from vlog.vassal.pieces import join_chain

    protos = {}
    for i in range(n):
        types = [f"mark;Side{i}", f"label;;;;12;;0,0,0;b;-4;c;0;b;c;$pieceName$;Dialog;0;0;L{i}", "piece;;;;"]
        protos[f"P{i}"] = Prototype(f"P{i}", "", "+/null/" + join_chain(types) + "/"
                                    + join_chain([f"S{i}", "", "null;0;0;0"]))
    text = ("+/null/" + join_chain([f"prototype;P{i}" for i in range(n)] + ["piece;;;u.png;Unit/"]) + "/"
            + join_chain([""] * n + ["null;0;0;0"]))
    return text, protos


def expansion_per_trait() -> dict[int, tuple[float, int]]:
    """CPU seconds per expanded trait of `expand_piece` on chains of CHAIN_LENGTHS prototypes
    (least of several runs; no cache shared between runs), and the length of the expanded piece:
    VASSAL escapes each level's TABs once more than the level above, so a chain's text grows with
    the square of its length and the cost per trait cannot stay flat; per character it can."""
    from vlog.vassal.module import expand_piece

    out = {}
    for n in CHAIN_LENGTHS:
        text, protos = chain_piece(n)
        best, size = float("inf"), 0
        for _ in range(RUNS):
            t = time.process_time()
            size = len(expand_piece(text, protos, {})[0])
            best = min(best, time.process_time() - t)
        out[n] = (best / (2 * n), size)
    return out


def run() -> tuple[float, float]:
    data = build_file()
    mb = len(data) / (1024 * 1024)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "buildFile.xml"
        path.write_bytes(data)
        module = read_module(path)
        slots = len(module.piece_slots)
        assert slots > 10_000 and all(s.expanded for s in module.piece_slots[:100])
        floor, ours = best_of(lambda: etree.fromstring(data), lambda: read_module(path))
    print(f"\nbuildFile: {mb:.2f} MB, {slots} PieceSlots")
    print(f"bare lxml parse : {floor * 1000:8.1f} ms  ({floor / mb * 1000:.1f} ms/MB)")
    print(f"read_module     : {ours * 1000:8.1f} ms  ({ours / mb * 1000:.1f} ms/MB)")
    print(f"ratio read_module / lxml parse: {ours / floor:.1f}x")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in GRIDS:
            raw = grid_file(kind)
            path = Path(tmp) / f"{kind}.xml"
            path.write_bytes(raw)
            module = read_module(path)
            assert len(module.maps) == MAPS and module.maps[0].boards[0].grid is not None
            base, took = best_of(lambda: etree.fromstring(raw), lambda: read_module(path))
            print(f"{kind + ' grids':>14}: {len(raw) / 1024:6.0f} KB, {MAPS} maps: {took / base:.1f}x the lxml parse")
    for sample in sorted(SAMPLES.glob("*/buildFile*")):        # real modules (hex, square, zoned grids)
        raw = sample.read_bytes()
        base, took = best_of(lambda: etree.fromstring(raw), lambda: read_module(sample))
        kinds = sorted({b.grid_kind for m in read_module(sample).maps for b in m.boards if b.grid_kind})
        print(f"{sample.parent.name:>14}: {len(raw) / 1024:6.0f} KB, grids {', '.join(kinds) or 'none'}: "
              f"{took / base:.1f}x the lxml parse")
    per_trait = expansion_per_trait()
    first, last = CHAIN_LENGTHS[0], CHAIN_LENGTHS[-1]
    print("prototype expansion: " + ", ".join(f"{2 * n} traits {t * 1e6:.1f} µs/trait ({t * 2 * n / size * 1e9:.0f} ns/char)"
                                              for n, (t, size) in per_trait.items()))
    (t0, s0), (t1, s1) = per_trait[first], per_trait[last]
    print(f"  {2 * last} traits against {2 * first}: {t1 / t0:.2f}x per trait, "
          f"{(t1 * last / s1) / (t0 * first / s0):.2f}x per character of the expanded piece (linear: <= 1x)")
    return floor, ours


def test_bench_module() -> None:
    floor, ours = run()
    assert floor > 0 and ours > 0


if __name__ == "__main__":
    run()
