"""`savedata` / `moduledata` / `extensiondata` metadata members, read safely, bytes kept.

VASSAL writes these with the JDK Transformer (SaveMetaData, ModuleMetaData); they are not needed
to load a game, so vlog reads them for display and keeps the original bytes to write back
unchanged. `build_savedata` makes a fresh member the way VASSAL 3.7 writes one.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from vlog.vassal.xmlsafe import parse_xml

__all__ = ["MetaData", "parse_metadata", "build_savedata", "version_tuple"]


@dataclass
class MetaData:
    """One metadata member: the values VASSAL reads, and the exact bytes."""

    member: str
    raw: bytes
    version: str | None = None
    """savedata: the module version the save was made with; moduledata: the module version."""
    vassal_version: str | None = None
    date_saved: str | None = None
    """Milliseconds since 1970 as written (text, not converted)."""
    description: str | None = None
    descriptions: dict[str, str] = field(default_factory=dict)
    """Translated descriptions by `lang` attribute."""
    name: str | None = None
    """moduledata only: the module's name."""
    names: dict[str, str] = field(default_factory=dict)
    extra1: str | None = None
    extra2: str | None = None

    @property
    def date_saved_ms(self) -> int | None:
        d = (self.date_saved or "").strip()
        return int(d) if d.isascii() and d.isdigit() else None


def parse_metadata(data: bytes, *, file: str | None = None, member: str = "savedata") -> MetaData:
    """Read a metadata member; hostile or broken XML raises ModuleError (from xmlsafe)."""
    root = parse_xml(data, file=file, member=member)
    md = MetaData(member=member, raw=bytes(data))
    for el in root:
        if not isinstance(el.tag, str):
            continue
        text = el.text or ""
        lang = el.get("lang")
        if el.tag == "version":
            md.version = text
        elif el.tag == "VassalVersion":
            md.vassal_version = text
        elif el.tag == "dateSaved":
            md.date_saved = text
        elif el.tag == "description":
            if lang:
                md.descriptions[lang] = text
            else:
                md.description = text
        elif el.tag == "name":
            if lang:
                md.names[lang] = text
            else:
                md.name = text
        elif el.tag == "extra1":
            md.extra1 = text
        elif el.tag == "extra2":
            md.extra2 = text
    return md


def _escape(text: str) -> str:
    """Text content as the JDK Transformer writes it (what `xml.sax.saxutils.escape` does,
    without importing urllib and http with it)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _el(name: str, value: str | None) -> str:
    return f"  <{name}/>\n" if not value else f"  <{name}>{_escape(value)}</{name}>\n"


def build_savedata(*, module_version: str = "", vassal_version: str, date_saved_ms: int,
                   description: str = "", extras: bool = True) -> bytes:
    """A `savedata` member as SaveMetaData writes it (3.7: standalone="no", extra1/extra2)."""
    head = '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' if extras else \
        '<?xml version="1.0" encoding="UTF-8"?>\n'
    body = _el("version", module_version)
    if extras:
        body += "  <extra1/>\n  <extra2/>\n"
    body += _el("VassalVersion", vassal_version) + _el("dateSaved", str(date_saved_ms))
    body += _el("description", description)
    return (head + '<data version="1">\n' + body + "</data>\n").encode("utf-8")


def version_tuple(v: str | None) -> tuple[int, ...]:
    """`3.2.17` -> (3, 2, 17); leading digits of each part only, () when unknown."""
    out: list[int] = []
    for part in (v or "").strip().split("."):
        digits = ""
        for ch in part:
            if ch.isascii() and ch.isdigit():
                digits += ch
            else:
                break
        if not digits:
            break
        out.append(int(digits))
        if len(digits) != len(part):
            break
    return tuple(out)
