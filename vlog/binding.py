"""Drafting a game's VASSAL bindings (data/bindings.json) from a real module.

A module for one of the games names its pieces, layers, locations and turn tracker as its author
chose; the rules engine needs counters, step levels or faces, hexes or boxes, turns and phases.
`draft_binding` proposes the mapping from what both sides print: piece names (normalised, unit
designations, factor strings such as "5-7-4", the palette folder's side), layer level names or
their order, the names the module's grids give to locations (sampled over every board), and the
turn tracker's levels. Whatever it cannot tie to the game data is listed, never guessed; a
mapping taken only from the order of layer levels is marked as such so a player can confirm it.
The result is a bindings file that validates against schemas/gamedata/bindings.schema.json and
can be used as an overlay (`--data DIR`).
"""
from __future__ import annotations

import dataclasses
import math
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from vlog.calibration import propose
from vlog.coverage import UNCONFIRMED_NOTE, UNPLACED_BOX
from vlog.errors import VlogError
from vlog.gamedata import GameData
from vlog.hexes import LAYOUTS, HexLayout
from vlog.vassal import grids as G
from vlog.vassal.module import MapDef, Module, PieceSlot, TurnLevel
from vlog.vassal.pieces import Embellishment, Marker, Piece
from vlog.vassal.sequence import split

__all__ = ["BindingDraft", "Unmatched", "draft_binding", "location_names", "normalise", "COUNTER_ID_PROPERTIES"]

COUNTER_ID_PROPERTIES = ("CounterId", "counter_id", "UnitId")
"""Marker properties that name a counter record directly (vlog's own module writer uses CounterId)."""
MAX_SAMPLES_PER_BOARD = 120_000
"""Points sampled per board to collect its location names (the step grows on huge boards)."""
UNSIZED_CELLS = 80
"""Hexes (or squares) sampled along each axis of a board whose image size is unknown."""
MAX_SOURCE = 480
_FACTORS = re.compile(r"(?<![0-9])([0-9]+(?:-[0-9]+)+)(?![0-9])")   # "5-7-4"; "2/34" is a designation
_ORDINAL = re.compile(r"(?<=[0-9])(st|nd|rd|th)\b")
_DIGITS = re.compile(r"[0-9]+")


def normalise(text: str) -> str:
    """A name reduced for comparison: accents, case, ordinals ('2nd' -> '2') and punctuation dropped."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").casefold()
    return re.sub(r"[^a-z0-9]", "", _ORDINAL.sub("", folded))


def _tokens(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").casefold()
    return re.findall(r"[a-z0-9]+", _ORDINAL.sub("", folded))


@dataclass(frozen=True, slots=True)
class Unmatched:
    """One thing of the module the draft could not tie to the game data, and why."""

    kind: str            # piece, layer, location, turn
    name: str
    where: str
    reason: str
    candidates: tuple[str, ...] = ()
    evidence: tuple[str, ...] = ()
    """Why each candidate is offered (same order as `candidates`), best first."""
    gpid: str | None = None
    vassal_map: str | None = None
    """The map a location is on (kind "location")."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "where": self.where, "reason": self.reason,
                               "candidates": list(self.candidates)}
        if self.evidence:
            out["evidence"] = list(self.evidence)
        if self.gpid:
            out["gpid"] = self.gpid
        return out


@dataclass(slots=True)
class BindingDraft:
    """The drafted bindings document plus the report: what matched how, what did not, what to confirm."""

    document: dict[str, Any]
    matched: dict[str, int]
    seen: dict[str, int]
    unmatched: list[Unmatched] = field(default_factory=list)
    to_confirm: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def report_json(self) -> dict[str, Any]:
        return {"game": self.document["game"], "module": {k: v["value"] for k, v in self.document["module"].items()},
                "seen": dict(self.seen), "matched": dict(self.matched),
                "unmatched_counts": {k: sum(1 for u in self.unmatched if u.kind == k) for k in self.seen},
                "unmatched": [u.to_json() for u in self.unmatched],
                "to_confirm": list(self.to_confirm), "notes": list(self.notes)}


# -------------------------------------------------------------------------------------------- pieces


def _slot_piece(slot: PieceSlot) -> Piece | None:
    tokens = split(slot.expanded or slot.text, "/")
    if len(tokens) < 3 or tokens[0] != "+":
        return None
    return Piece(None, tokens[2], tokens[3] if len(tokens) > 3 else "")


def _factor_tuples(counter: dict[str, Any]) -> dict[str, tuple[int | None, ...]]:
    """Level key -> the level's numeric factors in data order (None where unknown)."""
    out: dict[str, tuple[int | None, ...]] = {}
    for key, level in (counter.get("levels") or {}).items():
        values = []
        for datum in level.values():
            value = datum.get("value") if isinstance(datum, dict) else None
            if isinstance(value, bool):
                continue
            if isinstance(value, int) or value is None:
                values.append(value)
        out[key] = tuple(values)
    return out


def _factors_fit(printed: tuple[int, ...], known: tuple[int | None, ...]) -> bool:
    """A printed factor string fits a level when every known factor equals the printed one in turn
    (factors the data lists after the printed ones must be unknown, e.g. a range not printed)."""
    head, tail = known[: len(printed)], known[len(printed):]
    return (len(printed) <= len(known) and any(k is not None for k in head) and all(k is None for k in tail)
            and all(k is None or k == p for k, p in zip(head, printed)))


class _CounterIndex:
    """The game's counters by normalised name, alias and id, with their factors and sides."""

    def __init__(self, game_data: GameData):
        self.by_key: dict[str, set[str]] = defaultdict(set)
        self.records: dict[str, dict[str, Any]] = {}
        for record in game_data.documents["counters"]["counters"]:
            cid = record["id"]
            self.records[cid] = record
            names = [record["name"].get("value"), cid]
            names += list(record.get("properties", {}).get("aliases", {}).get("value") or [])
            for name in names:
                if isinstance(name, str) and normalise(name):
                    self.by_key[normalise(name)].add(cid)

    def labels(self, cid: str) -> set[str]:
        record = self.records[cid]
        out = set()
        for key in ("side", "nationality"):
            value = record.get(key, {}).get("value")
            if isinstance(value, str):
                out.update(_tokens(value))
        return out

    def candidates(self, name: str) -> tuple[set[str], str]:
        """Counters a piece name may stand for, and how they were found ('' when none)."""
        exact = self.by_key.get(normalise(name))
        if exact:
            return set(exact), "name"
        bare = _FACTORS.sub(" ", name)
        exact = self.by_key.get(normalise(bare)) if bare != name else None
        if exact:
            return set(exact), "name beside printed factors"
        # words split at spaces and separators only, so "D'Erlon" stays one word and never reads as "D"
        tokens = [t for t in (normalise(w) for w in re.split(r"[\s/,;:()\[\]|]+", name)) if t]
        for n in range(min(4, len(tokens)), 0, -1):   # the longest designation inside the name wins
            found: set[str] = set()
            for i in range(len(tokens) - n + 1):
                key = "".join(tokens[i:i + n])
                if len(key) >= 2 and not key.isdigit():
                    found |= self.by_key.get(key, set())
            if found:
                return found, "designation in the name"
        return set(), ""


def _narrow(index: _CounterIndex, found: set[str], name: str, path: tuple[str, ...]) -> tuple[set[str], list[str]]:
    """Narrows several candidates by factors printed in the name, then by side words in name or palette."""
    how: list[str] = []
    printed = [tuple(int(x) for x in m.split("-")) for m in _FACTORS.findall(name)]
    if printed and len(found) > 1:
        fit = {cid for cid in found
               if any(_factors_fit(p, f) for p in printed for f in _factor_tuples(index.records[cid]).values())}
        if fit:
            found, how = fit, how + ["factors"]
    if len(found) > 1:
        words = set(_tokens(name)) | {t for part in path for t in _tokens(part)}
        fit = {cid for cid in found if index.labels(cid) & words}
        if fit:
            found, how = fit, how + ["side"]
    return found, how


AUTO_SCORE = 5.0
"""A ranked candidate is taken without review only at this score or more ..."""
AUTO_MARGIN = 2.0
"""... and this far ahead of the next one; anything less is offered for review."""
SHOWN_CANDIDATES = 6
_TYPE_WORDS = {"hq": ("hq", "headquarters"), "leader": ("ras", "dejaz", "leader", "general"),
               "truck": ("truck", "trucks", "transport"), "air": ("air", "aircraft", "squadron", "bomber", "fighter"),
               "rp": ("rp", "rps", "resource"), "event": ("event",)}
"""Counter type -> words a designer's piece name may use for it."""
_SIZE_WORDS = {"division": ("div", "division", "divisione"), "brigade": ("bde", "brig", "brigade", "brigata"),
               "battalion": ("bn", "btn", "battalion"), "regiment": ("regt", "rgt", "regiment")}


def _designation(counter_name: str) -> tuple[str, str] | None:
    """(number, letters) of a counter name made of a number and a short suffix ('21A', '1CA', '3/4')."""
    m = re.fullmatch(r"([0-9]+)([a-z]{0,3})", normalise(counter_name))
    return (m.group(1), m.group(2)) if m else None


def _similarity(a: str, b: str) -> float:
    import difflib

    return difflib.SequenceMatcher(None, a, b).ratio() if a and b else 0.0


_FILLER = frozenset({"box", "boxes", "the", "of", "and"})
"""Words a name's initials leave out ('General Records Track box 3': GRT)."""
_BOX_WORDS = _FILLER | {"area", "space", "track", "display"}
"""Words too common in box names to tell two boxes apart."""
BOX_CANDIDATES = 5


def _box_candidates(name: str, labels: Mapping[str, str]) -> list[tuple[str, str]]:
    """The boxes a location of another name may be, best first, each with why: words shared, a
    word that is the initials of the box's name ('GRT' for 'General Records Track box 3'), a near
    spelling; a number in either name must be the same number in both ('GRT 3' is not box 10)."""
    words = [w for w in _tokens(name) if w not in _BOX_WORDS]
    numbers = {w for w in words if w.isdigit()}
    plain = {w for w in words if not w.isdigit()}
    scored: list[tuple[float, str, str]] = []
    for box, label in labels.items():
        theirs = [w for w in _tokens(label) if w not in _BOX_WORDS]
        if {w for w in theirs if w.isdigit()} != numbers:
            continue
        initials = "".join(w[0] for w in _tokens(label) if not w.isdigit() and w not in _FILLER)
        shared = sorted(plain & set(theirs))
        by_initials = sorted(w for w in plain if len(w) > 1 and w == initials)
        near = _similarity(normalise(name), normalise(label))
        if not (shared or by_initials or near >= 0.6):
            continue
        why = [f"shares {', '.join(repr(w) for w in shared)}"] if shared else []
        why += [f"{w.upper()!r} is the initials of {label!r}" for w in by_initials]
        if near >= 0.6:
            why.append(f"spelled near {label!r} ({near:.2f})")
        if numbers:
            why.append(f"the same number {', '.join(sorted(numbers))}")
        scored.append((2 * len(shared) + 3 * len(by_initials) + near, box, "; ".join(why)))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [(box, why) for _, box, why in scored[:BOX_CANDIDATES]]


@dataclass(frozen=True, slots=True)
class _Evidence:
    """What a piece shows that a counter's data may agree with, read once per piece."""

    name: str
    words: frozenset[str]
    numbers: frozenset[str]
    path_words: frozenset[str]
    layer_sizes: tuple[int, ...]
    setup_hex: str | None


def _rank(index: _CounterIndex, ev: _Evidence, setup_at: dict[str, set[str]],
          near: Any) -> list[tuple[float, str, list[str]]]:
    """Every counter with evidence for it, best first: (score, counter id, evidence)."""
    ranked = []
    key = normalise(ev.name)
    for cid, record in index.records.items():
        score, why = 0.0, []
        cname = record["name"].get("value") if isinstance(record.get("name"), dict) else None
        names = [n for n in [cname, *(record.get("properties", {}).get("aliases", {}).get("value") or [])]
                 if isinstance(n, str)]
        best = max((_similarity(key, normalise(n)) for n in names), default=0.0)
        token_best = max((_similarity(w, normalise(n)) for n in names for w in ev.words if len(w) > 2), default=0.0)
        if best >= 0.75 or token_best >= 0.85:
            ratio = max(best, token_best)
            score += 4.0 * ratio
            why.append(f"name like {cname!r} ({ratio:.0%})")
        if isinstance(cname, str) and not why and not normalise(cname).isdigit() and normalise(cname) in ev.words:
            score += 3.0
            why.append(f"its name {cname!r} as a word of the name")
        des = _designation(cname) if isinstance(cname, str) else None
        if des is not None and des[0] in ev.numbers:
            score += 3.0 if not des[1] or any(w.startswith(des[1]) for w in ev.words) or len(ev.numbers) == 1 else 2.0
            why.append(f"designation {des[0]} in the name")
            size = record.get("size", {}).get("value")
            if size in _SIZE_WORDS and ev.words & set(_SIZE_WORDS[size]):
                score += 1.0
                why.append(f"a {size}")
        if not why:
            continue
        labels = index.labels(cid)
        side_words = ev.words | ev.path_words
        if labels & side_words:
            score += 1.0
            why.append("side " + "/".join(sorted(labels & side_words)))
        elif side_words & near["sides"] and not labels & side_words:
            score -= 2.0
            why.append("another side's words")
        ctype = record.get("type", {}).get("value")
        if ctype in _TYPE_WORDS and ev.words & set(_TYPE_WORDS[ctype]):
            score += 1.0
            why.append(f"a {ctype}")
        levels = len(record.get("levels") or {})
        if levels > 1 and levels in ev.layer_sizes:
            score += 1.0
            why.append(f"a layer of {levels} levels")
        elif levels > 1 and ev.layer_sizes and levels not in ev.layer_sizes:
            score -= 1.0
            why.append(f"no layer of {levels} levels")
        if ev.setup_hex is not None and cid in setup_at.get(ev.setup_hex, ()):
            score += 2.0
            why.append(f"sets up at {ev.setup_hex}")
        ranked.append((round(score, 2), cid, why))
    ranked.sort(key=lambda r: (-r[0], r[1]))
    return ranked


def _marker_counter(piece: Piece | None, index: _CounterIndex) -> str | None:
    if piece is None:
        return None
    for trait in piece.traits:
        if isinstance(trait, Marker):
            props = trait.properties
            for key in COUNTER_ID_PROPERTIES:
                if props.get(key) in index.records:
                    return props[key]
    return None


def _record_id(prefix: str, text: str, used: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9_.:+ -]", "_", text).strip() or "x"
    base = f"{prefix}-{base}"[:72]
    rid, n = base, 2
    while rid in used:
        rid, n = f"{base}~{n}"[:80].replace("~", "-"), n + 1
    used.add(rid)
    return rid


def _src(text: str) -> str:
    return text if len(text) <= MAX_SOURCE else text[: MAX_SOURCE - 3] + "..."


# -------------------------------------------------------------------------------------------- layers


def _level_order(keys: list[str]) -> list[str]:
    """Data level keys in the order a layer most often shows them: strongest step first."""
    if keys and all(k.isdigit() for k in keys):
        return sorted(keys, key=int, reverse=True)
    return keys


def _map_layer(layer: Embellishment, counter: dict[str, Any]) -> tuple[dict[str, str] | None, str]:
    """Layer level (1-based) -> level key of the counter, and how; (None, reason) when it cannot."""
    keys = list((counter.get("levels") or {}).keys())
    n = len(layer.images)
    if len(keys) < 2:
        return None, f"the counter has {len(keys)} step level or face in the data, so no layer is needed"
    if n != len(keys):
        return None, f"the layer has {n} levels; the counter has {len(keys)} step levels or faces ({', '.join(keys)})"
    factors = _factor_tuples(counter)
    names = [nm.strip("+ ").strip() for nm in layer.level_names] + [""] * n
    by_name: dict[str, str] = {}
    for level in range(1, n + 1):
        text = names[level - 1]
        words = _tokens(text)
        initials = "".join(w[0] for w in words if not w.isdigit())
        hits = {k for k in keys if normalise(k) and (normalise(k) in words or normalise(k) == initials)}
        if not hits and len(words) == 1 and not words[0].isdigit():   # "Move" for the face "m"
            hits = {k for k in keys if k.isalpha() and words[0].startswith(normalise(k))}
        printed = [tuple(int(x) for x in m.split("-")) for m in _FACTORS.findall(text)]
        hits |= {k for k in keys for p in printed if _factors_fit(p, factors[k])}
        if len(hits) == 1:
            by_name[str(level)] = hits.pop()
    if len(by_name) == n and len(set(by_name.values())) == n:
        return by_name, "level names"
    ordered = _level_order(keys)
    return {str(i + 1): ordered[i] for i in range(n)}, "position"


# -------------------------------------------------------------------------------------------- locations


def _cell(grid: Any) -> tuple[float, float] | None:
    if isinstance(grid, (G.HexGrid, G.SquareGrid)):
        dx, dy = float(grid.dx), float(grid.dy)
        return (dy, dx) if getattr(grid, "sideways", False) else (dx, dy)
    return None


def _grids(grid: Any) -> Iterable[Any]:
    yield grid
    if isinstance(grid, G.ZonedGrid):
        if grid.background is not None:
            yield from _grids(grid.background)
        for zone in grid.zones:
            if zone.grid is not None:
                yield from _grids(zone.grid)


def location_names(map_def: MapDef) -> tuple[list[str], list[str]]:
    """Every location name the map's board grids give, found by sampling each board at half a cell,
    plus region names; and notes on boards that could only be sampled in part."""
    names: dict[str, None] = {}
    notes: list[str] = []
    for board in map_def.boards:
        grid = board.grid
        if grid is None:
            continue
        cells = [c for c in (_cell(g) for g in _grids(grid)) if c is not None]
        for g in _grids(grid):
            if isinstance(g, G.RegionGrid):
                for region in g.regions:
                    names.setdefault(region.name, None)
        if not cells and not isinstance(grid, G.ZonedGrid):
            continue
        step_x = min(c[0] for c in cells) / 2 if cells else 8.0
        step_y = min(c[1] for c in cells) / 2 if cells else 8.0
        if not (math.isfinite(step_x) and math.isfinite(step_y)) or step_x < 1 or step_y < 1:
            notes.append(f"map {map_def.map_name!r} board {board.name!r}: the grid's cell size is not usable; "
                         "sampled every 8 pixels")
            step_x = step_y = 8.0
        if board.size is not None:
            width, height = board.size
        else:
            extent_x = extent_y = 0
            if isinstance(grid, G.ZonedGrid):
                for zone in grid.zones:
                    for x, y in zone.points:
                        extent_x, extent_y = max(extent_x, x), max(extent_y, y)
            if cells:
                extent_x = max(extent_x, int(min(UNSIZED_CELLS * step_x * 2, 1 << 20)))
                extent_y = max(extent_y, int(min(UNSIZED_CELLS * step_y * 2, 1 << 20)))
            width, height = extent_x, extent_y
            notes.append(f"map {map_def.map_name!r} board {board.name!r}: image size unknown, so only "
                         f"{width}x{height} pixels from its origin were sampled")
        count = (width / step_x + 1) * (height / step_y + 1)
        if count > MAX_SAMPLES_PER_BOARD:
            scale = math.sqrt(count / MAX_SAMPLES_PER_BOARD)
            step_x, step_y = step_x * scale, step_y * scale
            notes.append(f"map {map_def.map_name!r} board {board.name!r}: sampled every {step_x:.0f}x{step_y:.0f} "
                         "pixels (large board); small locations may be missing")
        failures = 0
        for j in range(int(height / step_y) + 1):
            y = int(j * step_y)
            for i in range(int(width / step_x) + 1):
                try:
                    name = grid.location_name(int(i * step_x), y)
                except VlogError:
                    failures += 1
                    continue
                if name:
                    names.setdefault(name, None)
        if failures:
            notes.append(f"map {map_def.map_name!r} board {board.name!r}: {failures} sampled points have no "
                         "name the grid can compute (e.g. numbering that needs the image size)")
    return list(names), notes


def _hex_shape(name: str, layout: HexLayout) -> tuple[str, str] | None:
    """(pattern, hex) when the name holds exactly one token that is a hex name of the layout."""
    width = layout.col_digits + layout.row_digits
    hits = [m for m in _DIGITS.finditer(name) if len(m.group()) == width]
    if len(hits) != 1:
        return None
    m = hits[0]
    if name[: m.start()].endswith("-"):
        return None   # "-0100": a margin hex numbered below the map's first
    try:
        if not layout.on_map(layout.parse(m.group())):
            return None   # a hex name off the game's map (the board's margin)
    except VlogError:
        return None
    pattern = re.escape(name[: m.start()]) + f"([0-9]{{{width}}})" + re.escape(name[m.end():])
    return pattern, m.group()


def _data_map_for(map_def: MapDef, game_data: GameData) -> str | None:
    """The game map a VASSAL map shows: the only one, or the one whose id or name its map or a board has."""
    ids = game_data.map_ids
    if len(ids) == 1:
        return ids[0]
    wanted = {normalise(map_def.map_name)} | {normalise(b.name) for b in map_def.boards}
    for mid in ids:
        board = game_data.map(mid)
        names = {normalise(mid)} | ({normalise(board["name"].value)} if "name" in board and board["name"].value else set())
        if names & wanted:
            return mid
    return None


def _layout_for(game_data: GameData, map_id: str | None) -> HexLayout | None:
    """The hex numbering of the game map a VASSAL map shows (the game's first map when it shows
    none of them); None when the data names no layout vlog knows."""
    try:
        return game_data.layout(map_id)
    except GameDataError:
        return None


# -------------------------------------------------------------------------------------------- turn track


def _levels(levels: Iterable[TurnLevel]) -> Iterable[TurnLevel]:
    for level in levels:
        yield level
        yield from _levels(level.levels)


def _phase_key(text: str, phases: list[str]) -> str | None:
    n = normalise(text)
    exact = [p for p in phases if normalise(p) == n]
    if len(exact) == 1:
        return exact[0]
    words = set(_tokens(text))
    if not words:
        return None
    best = [p for p in phases if set(_tokens(p)) == words]
    return best[0] if len(best) == 1 else None


# -------------------------------------------------------------------------------------------- draft


def _all_slots(module: Module) -> list[PieceSlot]:
    """Palette pieces, then at-start pieces the palette lacks (same gpid and name counted once); no cards."""
    seen: set[tuple[str | None, str | None]] = set()
    out: list[PieceSlot] = []
    for slot in [*module.piece_slots, *(p for stack in module.setup_stacks for p in stack.pieces)]:
        key = (slot.gpid, slot.name or slot.entry_name)
        if slot.card or key in seen:
            continue
        seen.add(key)
        out.append(slot)
    return out


def draft_binding(module: Module, game_data: GameData, *, module_file: str | None = None,
                  save: object | None = None, hexes: Mapping[str, str] | None = None) -> BindingDraft:
    """Proposes the game's bindings for `module`: pieces, layers, locations and turn track, with the report.

    `save` (a scenario's starting save on this module, or a list of them) adds where each piece
    begins to the evidence for its counter, as the module's own at-start stacks do, and is what
    a calibration of a board without a grid is fitted to; `hexes` (piece name -> the printed hex
    a player put that piece of a save on) is fitted too, for boards no scenario sets up at hexes."""
    saves = list(save) if isinstance(save, (list, tuple)) else [] if save is None else [save]
    draft = _Drafter(module, game_data, module_file)
    locations = draft.locations()
    for one in saves or [None]:
        draft.place_setup(locations, one)
    pieces, layer_uses = draft.pieces()
    layers = draft.layers(layer_uses)
    turn_track = draft.turn_track()
    calibrations = draft.calibrations(pieces, saves, hexes)
    source = _src(f"{draft.origin}: the module's name and version")
    document = {
        "kind": "bindings",
        "game": game_data.game,
        "complete": {"value": None, "note": "drafted by vlog bind; review the matches and the unmatched list "
                     "before relying on it"},
        "module": {"name": {"value": module.name, "source": source} if module.name else
                   {"value": None, "note": "the module has no name"},
                   "version": {"value": module.version, "source": source} if module.version else
                   {"value": None, "note": "the module has no version"}},
        "pieces": pieces,
        "layers": layers,
        "locations": locations,
        "turn_track": turn_track,
    }
    if calibrations:
        document["calibrations"] = calibrations
    return BindingDraft(document=document, matched=draft.matched, seen=draft.seen, unmatched=draft.unmatched,
                        to_confirm=draft.to_confirm, notes=draft.notes)


_LayerUses = dict[tuple[str, tuple[tuple[str, str], ...], str], list[str]]


class _Drafter:
    """One drafting run: the module, the game data, and the report being built."""

    def __init__(self, module: Module, game_data: GameData, module_file: str | None):
        self.module, self.data = module, game_data
        shown_module = f"{module.name} {module.version}".strip()
        self.origin = f"vlog bind, module {shown_module!r}" + (f" ({module_file})" if module_file else "")
        self.index = _CounterIndex(game_data)
        self.unmatched: list[Unmatched] = []
        self.to_confirm: list[str] = []
        self.notes: list[str] = []
        self.used_ids: set[str] = set()
        self.seen = {"piece": 0, "layer": 0, "location": 0, "turn": 0}
        self.matched = {"piece": 0, "layer": 0, "location": 0, "turn": 0}
        self.near = {"sides": frozenset(t for cid in self.index.records for t in self.index.labels(cid))}
        self.setup_at: dict[str, set[str]] = defaultdict(set)
        for scenario in game_data.documents["scenarios"]["scenarios"]:
            for row in scenario.get("setup") or ():
                hex_ = row.get("hex", {}).get("value")
                for cid in row.get("units", {}).get("value") or ():
                    if isinstance(hex_, str):
                        self.setup_at[hex_].add(cid)
        self.no_counter: list[dict[str, Any]] = []
        """Records of the current bindings saying a piece is no counter of the game."""
        self.unbound_layers: dict[str, list[str]] = {}
        """Layer name -> unbound pieces carrying it (examined once the pieces are bound)."""
        self.setup_hexes: dict[tuple[str | None, str], str] = {}
        """(gpid, piece name) -> the hex where the module's at-start stacks or the starting save put it."""

    def _bound(self) -> tuple[dict[str, tuple[str, str | None]], dict[str, str]]:
        """gpid -> (counter, piece name bound with it) and piece name -> counter already in the
        game's bindings (shipped or --data)."""
        by_gpid: dict[str, tuple[str, str | None]] = {}
        by_name: dict[str, str] = {}
        for bound in self.data.documents["bindings"]["pieces"]:
            counter_id = bound["counter"].get("value")
            if counter_id is None and "note" in bound["counter"]:   # bound to no counter on purpose
                self.no_counter.append(bound)
            if counter_id in self.index.records:
                named = bound.get("piece_name", {}).get("value")
                if bound.get("gpid", {}).get("value"):
                    by_gpid[bound["gpid"]["value"]] = (counter_id, named)
                if named:
                    by_name[named] = counter_id
        return by_gpid, by_name

    def place_setup(self, locations: list[dict[str, Any]], save: object | None) -> None:
        """Where the at-start stacks (and the starting save's pieces) stand, as hexes of the game."""
        patterns = []
        for rec in locations:
            try:
                patterns.append((re.compile(rec["pattern"]["value"]), rec.get("hex", {}).get("value")))
            except (re.error, TypeError):
                continue

        def hex_of(name: str | None) -> str | None:
            for pattern, hex_ in patterns:
                m = pattern.fullmatch(name or "")
                if m and isinstance(hex_, str):
                    try:
                        return m.expand(hex_)
                    except (re.error, IndexError):
                        return None
            return None

        for stack in self.module.setup_stacks:
            try:
                name = stack.location if stack.use_grid_location else self.module.location_name(
                    stack.map_name, stack.x, stack.y)
            except Exception:  # noqa: BLE001 - a stack the grid cannot name gives no evidence
                continue
            found = hex_of(name)
            for slot in stack.pieces if found else ():
                self.setup_hexes.setdefault((slot.gpid, slot.name or slot.entry_name or ""), found)
        if save is None:
            return
        from vlog.table import Table

        start = getattr(save, "start", None) or save
        table = Table.from_save(start, self.module)
        for piece in table.game_pieces():
            found = hex_of(table.location_name(piece))
            if found:
                self.setup_hexes.setdefault((piece.piece.gpid, piece.name), found)
                self.setup_hexes.setdefault((None, piece.name), found)

    def _evidence(self, slot: PieceSlot, piece: Piece | None, name: str) -> _Evidence:
        words = set(_tokens(name)) | set(_tokens(slot.entry_name or ""))
        sizes = tuple(len(t.images) for t in (piece.traits if piece is not None else ())
                      if isinstance(t, Embellishment) and len(t.images) > 1)
        return _Evidence(name, frozenset(words), frozenset(w for w in words if w.isdigit()),
                         frozenset(t for part in slot.path for t in _tokens(part)), sizes,
                         self.setup_hexes.get((slot.gpid, name)) or self.setup_hexes.get((None, name)))

    def _counter_of(self, slot: PieceSlot, piece: Piece | None, name: str, where: str,
                    bound: tuple[dict[str, tuple[str, str | None]], dict[str, str]]) -> tuple[str | None, str]:
        """The counter a piece stands for and how it was found; (None, "") after reporting why not,
        with the counters ranked by the evidence for them."""
        index = self.index
        counter = _marker_counter(piece, index)
        if counter is not None:
            return counter, "counter id marker"
        hint: tuple[str, str] | None = None
        if slot.gpid and slot.gpid in bound[0]:
            known, named = bound[0][slot.gpid]
            if named is None or normalise(named) == normalise(name):
                return known, "gpid in the game's current bindings"
            hint = (known, f"gpid {slot.gpid} is bound to {known} in the current bindings, as {named!r}: "
                           "the names differ (another module's gpids?)")
        if name in bound[1]:
            return bound[1][name], "piece name in the game's current bindings"
        if not name:
            self.unmatched.append(Unmatched("piece", "", where, "the piece has no name", gpid=slot.gpid))
            return None, ""
        found, how = index.candidates(name)
        if not found and slot.entry_name and slot.entry_name != name:
            found, how = index.candidates(slot.entry_name)
        if found:
            found, narrowed = _narrow(index, found, name, slot.path)
            if len(found) == 1:
                return found.pop(), " + ".join([how, *narrowed])
        ranked = _rank(index, self._evidence(slot, piece, name), self.setup_at, self.near)
        if found:
            ranked = [r for r in ranked if r[1] in found] + [r for r in ranked if r[1] not in found]
        if hint is not None:
            ranked = [(0.0, hint[0], [hint[1]])] + [r for r in ranked if r[1] != hint[0]]
        top = ranked[0] if ranked else None
        second = ranked[1][0] if len(ranked) > 1 else 0.0
        if top is not None and not found and hint is None and top[0] >= AUTO_SCORE and top[0] - second >= AUTO_MARGIN:
            return top[1], "ranked evidence: " + ", ".join(top[2])
        shown = ranked[:SHOWN_CANDIDATES]
        reason = ("several counters fit" if found else
                  "no counter has this name; candidates ranked by evidence" if shown else
                  "no counter has this name, a designation in it or a name like it")
        self.unmatched.append(Unmatched("piece", name, where, reason, tuple(r[1] for r in shown) or
                                        tuple(sorted(found)),
                                        tuple(f"{r[0]:g}: " + ", ".join(r[2]) for r in shown), gpid=slot.gpid))
        return None, ""

    def pieces(self) -> tuple[list[dict[str, Any]], _LayerUses]:
        """Piece records, and the layers of the matched pieces by (name, levels, how) -> counters."""
        bound = self._bound()
        pieces: list[dict[str, Any]] = []
        layer_uses: _LayerUses = defaultdict(list)
        name_to_counter: dict[str, set[str]] = defaultdict(set)
        counter_to_pieces: dict[str, dict[str, str]] = defaultdict(dict)
        for slot in _all_slots(self.module):
            self.seen["piece"] += 1
            name = slot.name or slot.entry_name or ""
            where = "/".join(slot.path) + (f" gpid {slot.gpid}" if slot.gpid else "")
            piece = _slot_piece(slot)
            decided = next((r for r in self.no_counter if (slot.gpid and r.get("gpid", {}).get("value") == slot.gpid)
                            or r.get("piece_name", {}).get("value") == name), None)
            if decided is not None:
                self.matched["piece"] += 1
                pieces.append({**decided, "id": _record_id("piece", slot.gpid or name, self.used_ids)})
                continue
            counter, how = self._counter_of(slot, piece, name, where, bound)
            if counter is None:
                for trait in piece.traits if piece is not None else ():
                    if isinstance(trait, Embellishment) and trait.name and len(trait.images) > 1:
                        self.unbound_layers.setdefault(trait.name, []).append(name)
                continue
            self.matched["piece"] += 1
            name_to_counter[name].add(counter)
            counter_to_pieces[counter].setdefault(normalise(name), f"{name!r}" + (f" (gpid {slot.gpid})" if slot.gpid else ""))
            record: dict[str, Any] = {"id": _record_id("piece", slot.gpid or name, self.used_ids)}
            source = _src(f"{self.origin}: piece {name!r}{' gpid ' + slot.gpid if slot.gpid else ''} matched by {how}")
            if slot.gpid:
                record["gpid"] = {"value": slot.gpid, "source": source}
            if name:
                record["piece_name"] = {"value": name, "source": source}
            record["counter"] = {"value": counter, "source": source}
            pieces.append(record)
            for trait in piece.traits if piece is not None else ():
                if not isinstance(trait, Embellishment) or not trait.name:
                    continue
                levels, reason = _map_layer(trait, self.index.records[counter])
                if levels is None:
                    if len(trait.images) > 1 and len(self.index.records[counter].get("levels") or {}) > 1:
                        self.unmatched.append(Unmatched("layer", trait.name, f"piece {name!r}", reason))
                    continue
                key = (trait.name, tuple(sorted(levels.items(), key=lambda kv: int(kv[0]))), reason)
                layer_uses[key].append(counter)
        for name, counters in name_to_counter.items():
            if len(counters) > 1:
                self.unmatched.append(Unmatched("piece", name, "piece names", "pieces with this one name stand for "
                                                "different counters; only their gpids tell them apart",
                                                tuple(sorted(counters))))
        for counter, names in counter_to_pieces.items():
            if len(names) > 1:
                self.to_confirm.append(f"counter {counter} is bound to {len(names)} pieces of different names "
                                       f"({', '.join(names.values())}): one of them is likely another counter")
        return pieces, layer_uses

    def layers(self, layer_uses: _LayerUses) -> list[dict[str, Any]]:
        """One record per layer name and mapping; applies_to tells apart mappings of one name."""
        layers: list[dict[str, Any]] = []
        by_layer_name: dict[str, list[tuple[tuple[tuple[str, str], ...], str, list[str]]]] = defaultdict(list)
        for (lname, levels, how), counters in layer_uses.items():
            by_layer_name[lname].append((levels, how, counters))
        for lname, names in self.unbound_layers.items():
            if lname not in by_layer_name:
                self.seen["layer"] += 1
                self.unmatched.append(Unmatched(
                    "layer", lname, f"{len(names)} pieces not bound, e.g. {names[0]!r}",
                    "its pieces are bound to no counter yet: bind them (vlog bind --review), then run vlog bind "
                    "again with --data to draft this layer"))
        for lname, variants in by_layer_name.items():
            self.seen["layer"] += 1
            self.matched["layer"] += 1
            if len(variants) > 1:
                self.notes.append(f"layer {lname!r} means different levels on different counters: {len(variants)} "
                                  "records, told apart by applies_to")
            for levels, how, counters in variants:
                source = _src(f"{self.origin}: layer {lname!r} levels matched by {how}")
                datum: dict[str, Any] = {"value": dict(levels), "source": source}
                if how == "position":
                    datum["note"] = (f"{UNCONFIRMED_NOTE} (level 1 = the first listed face or the strongest "
                                     "step); confirm against the counters")
                    self.to_confirm.append(f"layer {lname!r}: levels {dict(levels)} taken from their order "
                                           f"({len(set(counters))} counters, e.g. {sorted(set(counters))[0]})")
                layers.append({"id": _record_id("layer", lname, self.used_ids),
                               "layer_name": {"value": lname, "source": source},
                               "applies_to": {"value": sorted(set(counters)), "source": source},
                               "levels": datum})
        return layers

    def locations(self) -> list[dict[str, Any]]:
        """Location records: one pattern per shape of hex-numbered names, named hexes and boxes one by one."""
        game_data = self.data
        boxes: dict[str, str] = {}
        self.box_labels: dict[str, str] = {}
        """Box id -> its name (its id when unnamed): what a renamed box is compared with."""
        for board in game_data.documents["map"]["maps"]:
            for box in board["boxes"]:
                shown = box.get("name", {}).get("value")
                self.box_labels.setdefault(box["id"], shown if isinstance(shown, str) and shown else box["id"])
                for label in (box["id"], shown):
                    if isinstance(label, str) and normalise(label):
                        boxes.setdefault(normalise(label), box["id"])
        locations: list[dict[str, Any]] = []
        for map_def in self.module.maps:
            names, map_notes = location_names(map_def)
            self.notes.extend(map_notes)
            data_map = _data_map_for(map_def, game_data)
            layout = _layout_for(game_data, data_map)
            shapes: dict[str, list[str]] = defaultdict(list)
            for name in names:
                if name == UNPLACED_BOX:        # where vlog's own modules hold pieces not yet set up
                    continue
                self.seen["location"] += 1
                shape = _hex_shape(name, layout) if layout is not None else None
                if shape is not None:
                    shapes[shape[0]].append(name)
                    self.matched["location"] += 1
                    continue
                record = self._named_location(name, map_def.map_name, data_map, boxes)
                if record is not None:
                    self.matched["location"] += 1
                    locations.append(record)
            for pattern, members in shapes.items():
                source = _src(f"{self.origin}: {len(members)} location names on map {map_def.map_name!r} such as "
                              f"{members[0]!r} hold a hex number of the {game_data.game} layout")
                rec = {"id": _record_id("hexes", map_def.map_name, self.used_ids),
                       "vassal_map": {"value": map_def.map_name, "source": source},
                       "pattern": {"value": pattern, "source": source},
                       "hex": {"value": "\\1", "source": source}}
                if data_map:
                    rec["map"] = {"value": data_map, "source": source}
                elif len(game_data.map_ids) > 1:
                    rec["map"] = {"value": None, "note": f"which of the game's maps ({', '.join(game_data.map_ids)}) "
                                  f"the VASSAL map {map_def.map_name!r} shows is not clear from its name"}
                locations.append(rec)
        return locations

    def _named_location(self, name: str, vassal_map: str, data_map: str | None,
                        boxes: dict[str, str]) -> dict[str, Any] | None:
        """A record for a location named like a hex the data names, or a box; None after reporting it."""
        named: tuple[str, ...] = ()
        for mid in ([data_map] if data_map else list(self.data.map_ids)):
            named = self.data.hexes_named(name, mid)
            if named:
                break
        key = normalise(name)
        if len(named) == 1:
            source = _src(f"{self.origin}: location {name!r} on map {vassal_map!r} is the hex the data names so")
            rec = {"id": _record_id("loc", name, self.used_ids),
                   "vassal_map": {"value": vassal_map, "source": source},
                   "pattern": {"value": re.escape(name), "source": source},
                   "hex": {"value": named[0], "source": source}}
            if data_map:
                rec["map"] = {"value": data_map, "source": source}
            return rec
        if key in boxes:
            source = _src(f"{self.origin}: location {name!r} on map {vassal_map!r} has the name of a box")
            return {"id": _record_id("loc", name, self.used_ids),
                    "vassal_map": {"value": vassal_map, "source": source},
                    "pattern": {"value": re.escape(name), "source": source},
                    "box": {"value": boxes[key], "source": source}}
        if named:
            self.unmatched.append(Unmatched("location", name, f"map {vassal_map!r}",
                                            "names several hexes: " + ", ".join(named), tuple(named),
                                            vassal_map=vassal_map))
            return None
        if not re.search(r"[^\W\d_]", name):           # '02-01': a grid number no hex of the game has
            self.unmatched.append(Unmatched("location", name, f"map {vassal_map!r}",
                                            "is a grid number outside the game's layout (a margin or off-map hex)"))
            return None
        ranked = _box_candidates(name, self.box_labels)
        reason = "is no hex name of the game's layout, named hex or box" + (
            "; boxes ranked by the words, initials and numbers of their names" if ranked else "")
        self.unmatched.append(Unmatched("location", name, f"map {vassal_map!r}", reason,
                                        tuple(box for box, _ in ranked), tuple(why for _, why in ranked),
                                        vassal_map=vassal_map))
        return None

    def calibrations(self, pieces: list[dict[str, Any]], saves: list[object],
                     hexes: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
        """Calibrations for boards without a grid, fitted to the saves' pieces whose counter a
        scenario sets up at a hex or whose hex `hexes` gives (vlog.calibration); what cannot be
        fitted is noted."""
        by_gpid = {r["gpid"]["value"]: r["counter"]["value"] for r in pieces if r.get("gpid", {}).get("value")}
        by_name = {r["piece_name"]["value"]: r["counter"]["value"] for r in pieces
                   if r.get("piece_name", {}).get("value")}
        records = self.index.records

        def counter_of(piece: Any) -> str | None:
            for prop in COUNTER_ID_PROPERTIES:
                if piece.properties.get(prop) in records:
                    return piece.properties[prop]
            return by_gpid.get(piece.piece.gpid or "") or by_name.get(piece.name)

        def board_map(vassal_map: str, board: str) -> str | None:
            map_def = self.module.find_map(vassal_map)
            return _data_map_for(dataclasses.replace(map_def, boards=[map_def.board(board)]), self.data)

        found = propose(self.module, self.data, saves, counter_of, origin=self.origin, board_map=board_map,
                        hexes=hexes)
        self.to_confirm.extend(found.proposed)
        self.notes.extend(found.refused)
        return found.records

    def turn_track(self) -> list[dict[str, Any]]:
        """A record per turn tracker level whose values are the game's turns (counter 1, 2 ...; turn
        labels) or phases (names of the sequence of play)."""
        scenarios = self.data.documents["scenarios"]["scenarios"]
        phases = next((s["phases"]["value"] for s in scenarios if s.get("phases", {}).get("value")), []) or []
        labels: dict[str, int] = {}
        max_turns = 0
        for scenario in scenarios:
            for number, row in (scenario.get("turn_track") or {}).items():
                label = row.get("label", {}).get("value")
                if isinstance(label, str) and number.isdigit():
                    labels.setdefault(normalise(label), int(number))
            turns = scenario.get("turns", {}).get("value")
            if isinstance(turns, int):
                max_turns = max(max_turns, turns)
        records: list[dict[str, Any]] = []
        for tracker in self.module.turn_trackers:
            for level in _levels(tracker.levels):
                self.seen["turn"] += 1
                where = f"turn tracker {tracker.name!r} level {level.name!r}"
                if not level.property:
                    self.unmatched.append(Unmatched("turn", level.name, where, "the level sets no property"))
                    continue
                turns_map: dict[str, int] = {}
                phases_map: dict[str, str] = {}
                ordered: list[str] = []
                if level.kind == "counter":
                    if level.start == 1 and level.incr == 1 and max_turns:
                        turns_map = {str(n): n for n in range(1, max_turns + 1)}
                else:
                    items = list(level.items or [])
                    by_order = len(items) == len(phases)
                    for position, item in enumerate(items):
                        if normalise(item) in labels:
                            turns_map[item] = labels[normalise(item)]
                        elif (key := _phase_key(item, phases)) is not None:
                            phases_map[item] = key
                        elif by_order and phases[position] not in phases_map.values():
                            phases_map[item] = phases[position]
                            ordered.append(f"{item!r} = {phases[position]}")
                        else:
                            self.unmatched.append(Unmatched("turn", item, where, "no turn label or phase of the "
                                                            "game has this name", tuple(phases)))
                if not turns_map and not phases_map:
                    reason = (f"a counter from {level.start} by {level.incr}: not the game's turns 1 to {max_turns}"
                              if level.kind == "counter" else "none of its items is a turn label or phase")
                    self.unmatched.append(Unmatched("turn", level.name, where, reason))
                    continue
                self.matched["turn"] += 1
                source = _src(f"{self.origin}: {where} (property {level.property!r})")
                rec = {"id": _record_id("turn", f"{tracker.name} {level.property}", self.used_ids),
                       "source_kind": {"value": "property", "source": source},
                       "name": {"value": level.property, "source": source}}
                if turns_map:
                    rec["turns"] = {"value": turns_map, "source": source}
                if phases_map:
                    rec["phases"] = {"value": phases_map, "source": source}
                    if ordered:
                        rec["phases"]["note"] = (f"{UNCONFIRMED_NOTE}: {len(ordered)} items taken as the phases in "
                                                 "the order of the sequence of play; confirm")
                        self.to_confirm.append(f"{where}: phases taken from their order: " + ", ".join(ordered))
                records.append(rec)
        return records
