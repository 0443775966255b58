"""Game pieces: the TAB chains of trait types and states, traits read lazily, raw text kept.

A piece's type and state are Decorator chains (outermost trait first, the basic piece last),
each level nested once more with SequenceEncoder(TAB). A `Piece` keeps both strings exactly and
splits them only when asked; a `Trait` keeps its own type and state verbatim and interprets the
common ones (Layer, Marker, Mask, Invisible, Label, Dynamic Property, Rotate, ...) on demand, so
traits vlog does not know (module classes such as VASL's) survive untouched.
"""
from __future__ import annotations

from typing import Iterator

from vlog.vassal.sequence import Decoder, Encoder, split

__all__ = [
    "split_chain", "join_chain", "id_prefix", "Piece", "Trait", "BasicPiece", "Stack", "Deck",
    "Embellishment", "OldEmbellishment", "Marker", "Obscurable", "Hideable", "Label",
    "DynamicProperty", "UsePrototype", "FreeRotator", "ReportState", "Restricted", "TRAIT_TYPES",
    "OWNER_TRAITS", "make_trait", "split_chain_reference",
]


def _unquote(s: str) -> str:
    return s[1:-1] if len(s) > 1 and s[0] == "'" and s[-1] == "'" else s


def split_chain(s: str | None) -> list[str]:
    """Decorator chain -> [outermost, ..., basic] (`Decoder(s, TAB)` repeatedly).

    Element i is closed by the first TAB preceded by exactly i backslashes (each nesting level
    escapes once more), so one pass over the TABs splits the whole chain; this gives the same
    result as decoding level by level, which is kept as the fallback for the odd strings where
    the two could differ (a chain ending in a quote, or TABs escaped fewer times than their level).
    """
    if s is None:
        return []
    if s.endswith("'"):
        return split_chain_reference(s)
    out: list[str] = []
    level = 0
    start = 0
    esc = ""  # `level` backslashes: what precedes this level's separator
    tab = s.find("\t")
    while tab != -1:
        first = tab - level  # where the separator's escapes would begin
        if first < start or not s.startswith(esc, first):
            return split_chain_reference(s)  # a TAB escaped fewer times than its level
        if first > 0 and s[first - 1] == "\\":
            tab = s.find("\t", tab + 1)  # escaped more: a TAB inside the current element
            continue
        out.append(_unquote(s[start:first].replace(esc + "\\\t", "\t")))
        start = tab + 1
        level += 1
        esc += "\\"
        tab = s.find("\t", start)
    out.append(_unquote(s[start:].replace("\\" * (level + 1) + "\t", "\t")))
    return out


def split_chain_reference(s: str | None) -> list[str]:
    """The same with the Decoder port, token by token (kept for tests)."""
    out: list[str] = []
    while s is not None:
        d = Decoder(s, "\t")
        out.append(d.next())
        s = d.next() if d.has_more() else None
    return out


def _quoted(first: str, last: str) -> bool:
    """`SequenceEncoder.append` quotes a token starting with a backslash or quoted already."""
    return first == "\\" or (first == "'" and last == "'")


def join_chain(parts: list[str]) -> str:
    """[outermost, ..., basic] -> chain, as Decorator.getType/getState build it.

    Each level appends its own text and the encoded rest (`SequenceEncoder(mine, TAB).append(
    inner)`), so level k's TABs end up escaped once per enclosing level and every inner level
    the encoder quotes adds a quote before it and one at the very end. This writes that in one
    pass instead of re-escaping the growing string once per trait (quadratic in the chain);
    `join_chain_reference` is the level-by-level version it equals.
    """
    if not parts:
        return ""
    n = len(parts) - 1
    # wrap[k]: the encoder of level k-1 quotes the whole of level k (decided by its raw text's
    # first and last characters, found from the inside out)
    wrap = [False] * (n + 1)
    basic = parts[n]
    first, last = (basic[0], basic[-1]) if basic else ("", "")
    wrap[n] = n > 0 and bool(basic) and _quoted(first, last)
    for k in range(n - 1, 0, -1):
        p = parts[k]
        if p:
            first = "'" if _quoted(p[0], p[-1]) else ("\\" if p[0] == "\t" else p[0])
        else:
            first = "\t"
        inner_empty = k + 1 == n and not basic
        last = "\t" if inner_empty else ("'" if wrap[k + 1] else last)
        wrap[k] = _quoted(first, last)
    out: list[str] = []
    for k, p in enumerate(parts):
        if wrap[k]:
            out.append("'")
        if k < n:
            if p:
                text = p.replace("\t", "\\" * (k + 1) + "\t") if "\t" in p else p
                out.append("'" + text + "'" if _quoted(p[0], p[-1]) else text)
            out.append("\\" * k + "\t")
        else:
            out.append(p.replace("\t", "\\" * n + "\t") if "\t" in p else p)
    out.append("'" * sum(wrap))
    return "".join(out)


def join_chain_reference(parts: list[str]) -> str:
    """The same level by level with the Encoder port (kept for tests)."""
    if not parts:
        return ""
    s = parts[-1]
    for p in reversed(parts[:-1]):
        s = Encoder("\t").append(p).append(s).value() or ""
    return s


def id_prefix(type_: str) -> str:
    """The factory key of a trait or basic piece type: up to and including the first ';'."""
    i = type_.find(";")
    return type_ if i == -1 else type_[: i + 1]


def _int(tok: str | None, default: int) -> int:
    """`Decoder.nextInt`: the default when the token does not parse."""
    if tok is None:
        return default
    t = tok.strip()
    if t[:1] in "+-":
        body = t[1:]
    else:
        body = t
    if body.isascii() and body.isdigit():
        v = int(t)
        if -(2**31) <= v < 2**31:
            return v
    return default


def _null(tok: str | None) -> str | None:
    return None if tok in (None, "", "null") else tok


class Trait:
    """One element of a piece's chain: its type and state text, verbatim."""

    __slots__ = ("type", "state", "id_prefix", "_fields", "_state_fields", "__dict__")
    ID: str = ""

    def __init__(self, type_: str, state: str | None, prefix: str | None = None):
        self.type = type_
        self.state = state
        self._fields: list[str] | None = None
        self._state_fields: list[str] | None = None
        self.id_prefix: str = id_prefix(type_) if prefix is None else prefix
        """The factory key: the type up to and including its first ';' (e.g. `emb2;`)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.type[:60]!r}, {self.state!r})"

    @property
    def fields(self) -> list[str]:
        """The type's fields after the id prefix (split on ';'), computed once."""
        if self._fields is None:
            self._fields = split(self.type[len(self.id_prefix):], ";")
        return self._fields

    def field(self, i: int, default: str = "") -> str:
        f = self.fields
        return f[i] if i < len(f) else default

    @property
    def state_fields(self) -> list[str]:
        """The state split on ';', computed once."""
        if self._state_fields is None:
            self._state_fields = split(self.state or "", ";")
        return self._state_fields

    def with_state(self, state: str) -> "Trait":
        return make_trait(self.type, state)


class _Placed(Trait):
    """A basic piece whose state starts `map;x;y` (BasicPiece, Stack, Deck)."""

    @property
    def map(self) -> str | None:
        """The map id (mapName), None when written `null` (pieces inside a stack say null)."""
        return _null(self.state_fields[0])

    @property
    def x(self) -> int:
        f = self.state_fields
        return _int(f[1] if len(f) > 1 else None, 0)

    @property
    def y(self) -> int:
        f = self.state_fields
        return _int(f[2] if len(f) > 2 else None, 0)


class BasicPiece(_Placed):
    """`piece;cloneKey;deleteKey;image;name` with state `map;x;y;gpid;propCount;k;v...`.

    Older states (`map;x;y` before 3.2, `map;x;y;gpid` before 3.7) are read alike.
    """

    ID = "piece;"

    @property
    def image(self) -> str:
        return self.field(2)

    @property
    def name(self) -> str:
        return self.field(3)


    @property
    def gpid(self) -> str:
        f = self.state_fields
        return f[3] if len(f) > 3 else ""

    @property
    def properties(self) -> dict[str, str]:
        """Persistent properties (3.7+ state), e.g. {'UniqueID': '1736794601263'}."""
        f = self.state_fields
        count = _int(f[4] if len(f) > 4 else None, 0)
        out: dict[str, str] = {}
        for i in range(max(count, 0)):
            k = 5 + 2 * i
            out[f[k] if k < len(f) else ""] = f[k + 1] if k + 1 < len(f) else ""
        return out


class Stack(_Placed):
    """`stack` with state `map;x;y;id...[;@@layer]` (children bottom to top)."""

    ID = "stack"


    @property
    def piece_ids(self) -> list[str]:
        """Child ids bottom to top. (With map `null` VASSAL reads x and y as ids; they never
        resolve, so they are left out here as well.)"""
        return [t for t in self.state_fields[3:] if not t.startswith("@@")]

    @property
    def layer(self) -> int | None:
        for t in self.state_fields[3:]:
            if t.startswith("@@"):
                return _int(t[2:], -1)
        return None


class Deck(_Placed):
    """`deck;...` with state `map;x;y;faceDown;id,id,...`."""

    ID = "deck;"

    @property
    def name(self) -> str:
        return self.field(12)


    @property
    def face_down(self) -> bool:
        f = self.state_fields
        return len(f) > 3 and f[3] == "true"

    @property
    def piece_ids(self) -> list[str]:
        f = self.state_fields
        return [t for t in split(f[4], ",") if t] if len(f) > 4 else []


class Embellishment(Trait):
    """Layer (`emb2;`): state `value`, |value| = 1-based level, value > 0 = shown."""

    ID = "emb2;"

    @property
    def name(self) -> str:
        return self.field(18)

    @property
    def version(self) -> int:
        return _int(self.field(24, "0"), 0)

    @property
    def images(self) -> list[str]:
        return split(self.field(15), ",")

    @property
    def level_names(self) -> list[str]:
        """commonName per level (a leading/trailing `+` marks a prefix/suffix to the name)."""
        return split(self.field(16), ",")

    @property
    def value(self) -> int:
        """`nextInt(-1)` clamped to ±levels, as Embellishment.mySetState."""
        v = _int(self.state_fields[0] if self.state else None, -1)
        n = len(self.images)
        return min(max(-n, v), n)

    @property
    def level(self) -> int:
        return abs(self.value)

    @property
    def active(self) -> bool:
        return self.value > 0

    @property
    def level_name(self) -> str | None:
        names = self.level_names
        return names[self.level - 1] if 0 < self.level <= len(names) else None


class OldEmbellishment(Embellishment):
    """Very old `emb;` layers; only the state (level value) is interpreted."""

    ID = "emb;"

    @property
    def name(self) -> str:
        return ""

    @property
    def version(self) -> int:
        return 0

    @property
    def images(self) -> list[str]:
        return [t.split(",")[0] for t in self.fields[9:]] if len(self.fields) > 9 else []

    @property
    def level_names(self) -> list[str]:
        return [t.split(",", 1)[1] if "," in t else "" for t in self.fields[9:]]


class Marker(Trait):
    """`mark;k1,k2` with state `v1,v2`: fixed piece properties."""

    ID = "mark;"

    @property
    def keys(self) -> list[str]:
        return split(self.type[len(self.ID):], ",")

    @property
    def properties(self) -> dict[str, str]:
        vals = split(self.state or "", ",")
        return {k: (vals[i] if i < len(vals) else "") for i, k in enumerate(self.keys)}


class Obscurable(Trait):
    """Mask (`obs;`): state `owner;options`; owner is the masking player's user id."""

    ID = "obs;"

    @property
    def mask_name(self) -> str:
        return self.field(4)

    @property
    def owner(self) -> str | None:
        return _null(self.state_fields[0]) if self.state else None

    @property
    def masked(self) -> bool:
        return self.owner is not None


class Hideable(Trait):
    """Invisible (`hide;`): state = the hiding player's user id or `null`."""

    ID = "hide;"

    @property
    def owner(self) -> str | None:
        return _null(self.state)

    @property
    def hidden(self) -> bool:
        return self.owner is not None


class Label(Trait):
    """Text Label (`label;`): state = the label text."""

    ID = "label;"

    @property
    def text(self) -> str:
        return self.state or ""

    @property
    def name_format(self) -> str:
        return self.field(11)

    @property
    def property_name(self) -> str:
        return self.field(15)


class DynamicProperty(Trait):
    """`PROP;name;constraints;keyCommands;description`: state = the current value."""

    ID = "PROP;"

    @property
    def name(self) -> str:
        return self.field(0)

    @property
    def value(self) -> str:
        return self.state or ""


class UsePrototype(Trait):
    """`prototype;name[;params]`: an unexpanded prototype reference."""

    ID = "prototype;"

    @property
    def name(self) -> str:
        return self.field(0)


class FreeRotator(Trait):
    """Rotate (`rotate;nAngles;...`): free rotation state = angle, fixed = facing index."""

    ID = "rotate;"

    @property
    def n_angles(self) -> int:
        return _int(self.field(0, "1"), 1)

    @property
    def angle(self) -> float:
        """Degrees as VASSAL draws them (fixed facings: -index*360/n)."""
        if self.n_angles == 1:
            try:
                return float(self.state or "0")
            except ValueError:
                return 0.0
        n = self.n_angles or 1
        return -_int(self.state, 0) * 360.0 / n

    @property
    def facing(self) -> int | None:
        return None if self.n_angles == 1 else _int(self.state, 0)


class ReportState(Trait):
    """Report Action (`report;`): state = cycle index (-1 = none)."""

    ID = "report;"

    @property
    def report_format(self) -> str:
        return self.field(1)

    @property
    def cycle_index(self) -> int:
        return _int(self.state, -1)


class Restricted(Trait):
    """Restricted Access (`restrict;sides;...`): state = the owning player's user id."""

    ID = "restrict;"

    @property
    def sides(self) -> list[str]:
        return split(self.field(0), ",")

    @property
    def owner(self) -> str | None:
        return _null(self.state)


TRAIT_TYPES: dict[str, type[Trait]] = {
    c.ID: c for c in (BasicPiece, Stack, Deck, Embellishment, OldEmbellishment, Marker,
                      Obscurable, Hideable, Label, DynamicProperty, UsePrototype, FreeRotator,
                      ReportState, Restricted)
}
"""Interpreted trait classes by id prefix; anything else is a plain `Trait`."""

OWNER_TRAITS = (Obscurable, Hideable, Restricted)
"""Traits whose state holds a player's user id (a password)."""


def make_trait(type_: str, state: str | None) -> Trait:
    prefix = id_prefix(type_)
    return TRAIT_TYPES.get(prefix, Trait)(type_, state, prefix)


class Piece:
    """A piece as `+/id/type/state` holds it; traits split lazily, outermost first."""

    __slots__ = ("id", "type", "state", "_traits", "__dict__")

    def __init__(self, id: str | None, type: str, state: str):
        self.id = id
        self.type = type
        self.state = state
        self._traits: list[Trait] | None = None

    def __repr__(self) -> str:
        return f"Piece(id={self.id!r}, name={self.name!r}, traits={len(self.traits)})"

    @property
    def traits(self) -> list[Trait]:
        """Outermost first, the basic piece (piece;/stack/deck;) last; split once, on first use."""
        if self._traits is None:
            types = split_chain(self.type)
            states = split_chain(self.state)
            self._traits = [make_trait(t, states[i] if i < len(states) else None)
                            for i, t in enumerate(types)]
        return self._traits

    @property
    def basic(self) -> Trait:
        return self.traits[-1]

    @property
    def kind(self) -> str:
        """`piece`, `stack`, `deck` or the basic id prefix of a module's own piece class."""
        b = self.basic
        return {"piece;": "piece", "stack": "stack", "deck;": "deck"}.get(b.id_prefix, b.id_prefix)

    @property
    def is_stack(self) -> bool:
        return isinstance(self.basic, Stack)

    @property
    def is_deck(self) -> bool:
        return isinstance(self.basic, Deck)

    @property
    def name(self) -> str:
        """BasicPiece name (Deck: deck name; Stack: "")."""
        b = self.basic
        return b.name if isinstance(b, (BasicPiece, Deck)) else ""

    @property
    def image(self) -> str:
        b = self.basic
        return b.image if isinstance(b, BasicPiece) else ""

    @property
    def map(self) -> str | None:
        b = self.basic
        return b.map if isinstance(b, _Placed) else None

    @property
    def x(self) -> int:
        b = self.basic
        return b.x if isinstance(b, _Placed) else 0

    @property
    def y(self) -> int:
        b = self.basic
        return b.y if isinstance(b, _Placed) else 0

    @property
    def gpid(self) -> str:
        b = self.basic
        return b.gpid if isinstance(b, BasicPiece) else ""

    @property
    def properties(self) -> dict[str, str]:
        """BasicPiece persistent properties, Marker values and Dynamic Property values."""
        out: dict[str, str] = {}
        b = self.basic
        if isinstance(b, BasicPiece):
            out.update(b.properties)
        for t in reversed(self.traits[:-1]):
            if isinstance(t, Marker):
                out.update(t.properties)
            elif isinstance(t, DynamicProperty):
                out[t.name] = t.value
        return out

    @property
    def piece_ids(self) -> list[str]:
        b = self.basic
        return b.piece_ids if isinstance(b, (Stack, Deck)) else []

    def traits_of(self, cls: type[Trait]) -> Iterator[Trait]:
        return (t for t in self.traits if isinstance(t, cls))

    def _owner(self, cls: type[Trait]) -> str | None:
        if self.type == "stack":
            return None
        for t in self.traits_of(cls):
            if t.owner is not None:  # type: ignore[attr-defined]
                return t.owner  # type: ignore[attr-defined]
        return None

    @property
    def masked_by(self) -> str | None:
        """The user id (a password) of the player who masked it, None when unmasked."""
        return self._owner(Obscurable)

    @property
    def hidden_by(self) -> str | None:
        """The user id (a password) of the player who made it invisible, None when visible."""
        return self._owner(Hideable)

    @property
    def concealed(self) -> bool:
        """True when masked or invisible: the other side does not see what it is."""
        return self.masked_by is not None or self.hidden_by is not None

    @property
    def mask_name(self) -> str | None:
        for t in self.traits_of(Obscurable):
            if t.owner is not None:  # type: ignore[attr-defined]
                return t.mask_name or None  # type: ignore[attr-defined]
        return None

    def shown_name(self, *, referee: bool = False) -> str:
        """The name the other side sees: the true name only when not concealed (or for a referee)."""
        if referee or not self.concealed:
            return self.name or self.kind
        if self.hidden_by is not None:
            return "an invisible piece"
        return f"a masked piece ({self.mask_name})" if self.mask_name else "a masked piece"

    def with_state(self, state: str) -> "Piece":
        """The same piece with a new state chain (e.g. a ChangePiece's new state)."""
        return Piece(self.id, self.type, state)

    def merge_state(self, new_state: str, old_state: str | None) -> "Piece":
        """This piece after a ChangePiece `D/id/new/old`, exactly as ChangePiece.executeCommand.

        Without an old state the new one replaces the state. With one, VASSAL merges
        (StateMergeable): each trait takes its new state only where the command changed it
        (new != old) and keeps its current state otherwise, so changes made meanwhile by others
        survive; a Stack keeps current children the command did not mention; a Deck and
        module piece classes take the new state whole.
        """
        if old_state is None:
            return self.with_state(new_state)
        merged = _merge_state(self.type, self.state, new_state, old_state)
        return self if merged == self.state else Piece(self.id, self.type, merged)

    def with_trait_states(self, states: list[str]) -> "Piece":
        """The same piece with each trait's state replaced (outermost first)."""
        if len(states) != len(self.traits):
            raise ValueError(f"{len(states)} states for {len(self.traits)} traits")
        return Piece(self.id, self.type, join_chain(states))

    def add_command_text(self) -> str:
        """`+/id/type/state` as BasicCommandEncoder writes it."""
        enc = Encoder("/")
        enc.append("null" if self.id is None else self.id).append(self.type).append(self.state)
        return "+/" + (enc.value() or "")


def _merge_state(type_: str, current: str, new: str, old: str) -> str:
    """`StateMergeable.mergeState` over a whole chain (Decorator, BasicPiece, Stack)."""
    types = split_chain(type_)
    if len(types) == 1:
        return _merge_basic(types[0], current, new, old)
    cur, nw, od = split_chain(current), split_chain(new), split_chain(old)
    if not (len(cur) == len(nw) == len(od) == len(types)):
        return new  # VASSAL stops with an "outdated module" warning; take the new state
    merged = [n if n != o else c for c, n, o in zip(cur[:-1], nw[:-1], od[:-1])]
    merged.append(_merge_basic(types[-1], cur[-1], nw[-1], od[-1]))
    return current if merged == cur else join_chain(merged)


def _merge_basic(type_: str, current: str, new: str, old: str) -> str:
    prefix = id_prefix(type_)
    if prefix == BasicPiece.ID:
        return new if new != old else current
    if prefix == Stack.ID:
        return _merge_stack(current, new, old)
    return new  # not StateMergeable (Deck, module classes): setState(new)


def _merge_stack(current: str, new: str, old: str) -> str:
    """Stack.mergeState: children present now but named in neither state keep their place."""
    if old == current:
        return new
    nw, od = split(new, ";"), split(old, ";")
    if len(nw) < 3 or len(od) < 3:
        return new
    new_contents, old_contents = nw[3:], od[3:]
    here = [t for t in split(current, ";")[3:] if not t.startswith("@@")]
    for i, pid in enumerate(here):
        if pid not in new_contents and pid not in old_contents:
            after = -1 if i == 0 else (new_contents.index(here[i - 1])
                                       if here[i - 1] in new_contents else -1)
            new_contents.insert(after + 1, pid)
    enc = Encoder(";")
    for t in nw[:3] + new_contents:
        enc.append(t)
    return enc.value() or ""
