"""Hardened XML parsing for buildFile(.xml), moduledata, extensiondata and savedata.

Modules are downloaded from strangers, so their XML is parsed with no network, no DTD loading, no
entity expansion and libxml2's default size limits; any document type declaration that declares
entities or names an external DTD is refused outright (VASSAL never writes one). Every failure is a
`ModuleError` naming the file, member, line and column.
"""
from __future__ import annotations

import re
import threading

from lxml import etree

from vlog.errors import ModuleError

__all__ = ["parse_xml", "text_of", "DEFAULT_MAX_XML", "MAX_XML_ELEMENTS"]

DEFAULT_MAX_XML = 64 << 20
MAX_XML_ELEMENTS = 1_000_000
"""Most elements a document may hold: the largest real buildFiles hold tens of thousands, and
each parsed element costs lxml over a hundred bytes (64 MiB of `<a/>` would take gigabytes)."""

# Java String.trim() removes every character <= U+0020, not Python's notion of whitespace.
_JAVA_TRIM = "".join(chr(c) for c in range(0x21))

_DOCTYPE = re.compile(rb"<!DOCTYPE\b")
_ELEMENT_START = re.compile(rb"<[A-Za-z_:]")
_LXML_POSITION = re.compile(r"\s*,?\s*line \d+, column \d+$")
_DANGEROUS_IN_DOCTYPE = re.compile(rb"<!ENTITY\b|\bSYSTEM\b|\bPUBLIC\b|%")


_PARSERS = threading.local()


def _parser() -> etree.XMLParser:
    """This thread's hardened parser (an lxml parser serves one thread; making one took a third
    of the time a small module's XML takes to parse)."""
    parser = getattr(_PARSERS, "parser", None)
    if parser is None:
        parser = _PARSERS.parser = etree.XMLParser(
            resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
            huge_tree=False, remove_comments=False)
    return parser


def _where(member: str | None, line: int | None, column: int | None) -> str:
    parts = [member] if member else []
    if line is not None:
        parts.append(f"line {line}")
    if column is not None:
        parts.append(f"column {column}")
    return ", ".join(parts)


def _line_col(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return line, column


def _doctype_end(data: bytes, start: int) -> int:
    """Index just past the DOCTYPE declaration starting at `start` (its internal subset included)."""
    bracket = data.find(b"[", start)
    close = data.find(b">", start)
    if bracket != -1 and (close == -1 or bracket < close):
        end = data.find(b"]", bracket)
        close = data.find(b">", end if end != -1 else bracket)
    return len(data) if close == -1 else close + 1


def _refuse_entities(data: bytes, file: str | None, member: str | None) -> None:
    """Refuse a DOCTYPE that declares entities or points at an external DTD, before parsing."""
    root_start = _ELEMENT_START.search(data)
    found = _DOCTYPE.search(data, 0, root_start.start() if root_start else len(data))
    if not found:
        return
    end = _doctype_end(data, found.start())
    bad = _DANGEROUS_IN_DOCTYPE.search(data, found.start(), end)
    if bad:
        line, column = _line_col(data, bad.start())
        what = ("external DTDs are refused" if bad.group() in (b"SYSTEM", b"PUBLIC")
                else "entity declarations are refused")
        raise ModuleError(f"hostile XML: {what}", file=file, where=_where(member, line, column))


def _bound_elements(data: bytes, file: str | None, member: str | None) -> None:
    """Refuse a document of more than MAX_XML_ELEMENTS elements before lxml builds its tree.

    Each element opens with `<` not followed by `/`, `!` or `?` (a literal `<` elsewhere must be
    escaped): counting those bounds the tree. A document of no more bytes than the limit cannot
    hold more `<` than that, so it is not counted (the count is a tenth of a small module's parse).
    """
    if len(data) <= MAX_XML_ELEMENTS:
        return
    elements = data.count(b"<")             # a bound on the elements: exact only when over the limit
    if elements > MAX_XML_ELEMENTS:
        elements -= data.count(b"</") + data.count(b"<!") + data.count(b"<?")
    if elements > MAX_XML_ELEMENTS:
        raise ModuleError(f"XML holds about {elements} elements, more than the limit of "
                          f"{MAX_XML_ELEMENTS}", file=file, where=member)


def parse_xml(data: bytes, *, file: str | None = None, member: str | None = None,
              max_bytes: int = DEFAULT_MAX_XML) -> etree._Element:
    """Parse `data` safely and return the root element."""
    if len(data) > max_bytes:
        raise ModuleError(f"XML is {len(data)} bytes, more than the limit of {max_bytes}",
                          file=file, where=member)
    _refuse_entities(data, file, member)
    _bound_elements(data, file, member)
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        line, column = exc.position if exc.position else (exc.lineno, None)
        # lxml appends its own ", line L, column C"; the position goes in `where` instead.
        message = _LXML_POSITION.sub("", (exc.msg or str(exc)).strip()).strip()
        raise ModuleError(f"XML syntax error: {message}", file=file,
                          where=_where(member, line, column)) from None
    except (ValueError, MemoryError) as exc:  # e.g. "can only parse strings", out of memory
        raise ModuleError(f"XML cannot be parsed ({exc})", file=file, where=member) from None
    if root is None:
        raise ModuleError("XML document is empty", file=file, where=member)
    # Backstop for encodings the byte scan cannot see (UTF-16): the parsed DOCTYPE itself.
    docinfo = root.getroottree().docinfo
    dtd = docinfo.internalDTD
    line = root.sourceline
    if docinfo.system_url or docinfo.public_id or docinfo.externalDTD is not None:
        raise ModuleError("hostile XML: external DTDs are refused", file=file,
                          where=_where(member, line, None))
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise ModuleError("hostile XML: entity declarations are refused", file=file,
                          where=_where(member, line, None))
    return root


def text_of(el: etree._Element) -> str:
    """VASSAL's `Builder.getText`: the element's own text nodes joined, Java-trimmed.

    One difference: lxml merges CDATA sections into the text, while VASSAL's DOM keeps them as
    separate nodes that getText skips. VASSAL never writes CDATA, so only hand-made files differ.
    """
    if not len(el):
        return (el.text or "").strip(_JAVA_TRIM)
    parts = [el.text or ""]
    parts.extend(child.tail or "" for child in el)
    return "".join(parts).strip(_JAVA_TRIM)
