"""Hardened XML parsing: VASSAL's files parse, hostile ones are refused with line and column."""
from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from conftest import sample_params
from vlog.errors import ModuleError
from vlog.vassal.xmlsafe import DEFAULT_MAX_XML, parse_xml, text_of

SAVEDATA = b"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<data version="1">
  <version>1.0</version>
  <VassalVersion>3.7.10</VassalVersion>
  <!-- a comment is kept -->
  <description>caf\xc3\xa9 &amp; &lt;tea&gt;</description>
</data>
"""


def test_parses_vassal_metadata():
    root = parse_xml(SAVEDATA, file="g.vsav", member="savedata")
    assert root.tag == "data"
    assert root.findtext("VassalVersion") == "3.7.10"
    assert root.findtext("description") == "caf\u00e9 & <tea>"
    assert any(isinstance(el, etree._Comment) for el in root)


def test_plain_doctype_without_entities_is_allowed():
    assert parse_xml(b"<!DOCTYPE data><data/>").tag == "data"


def test_text_of_is_builder_get_text():
    root = parse_xml(b"<a>\n  +/null/piece;;;x;y\t/\t\n<b>inner</b> tail <!--c-->more\n</a>")
    # Only the element's own text nodes, joined, then Java String.trim (chars <= U+0020).
    assert text_of(root) == "+/null/piece;;;x;y\t/\t\n tail more"
    assert text_of(parse_xml(b"<a/>")) == ""
    assert text_of(parse_xml(b"<a>\x0b</a>".replace(b"\x0b", b" "))) == ""
    assert text_of(parse_xml("<a>\u00a0x\u00a0</a>".encode())) == "\u00a0x\u00a0"


# --- hostile XML -----------------------------------------------------------------------------------

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<lolz>&lol9;</lolz>
"""


def test_billion_laughs_is_refused_with_line_and_column():
    with pytest.raises(ModuleError, match="entity declarations are refused") as info:
        parse_xml(BILLION_LAUGHS, file="m.vmod", member="buildFile.xml")
    assert info.value.where == "buildFile.xml, line 3, column 2"
    assert str(info.value).startswith("m.vmod: buildFile.xml, line 3, column 2: hostile XML")


def test_external_entity_to_a_local_file_is_not_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT-4711")
    doc = (f'<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM "file://{secret}">]>\n'
           "<r>&x;</r>").encode()
    with pytest.raises(ModuleError, match="refused") as info:
        parse_xml(doc, member="buildFile.xml")
    assert "TOP-SECRET" not in str(info.value)
    assert info.value.where.startswith("buildFile.xml, line 2")


def test_external_parameter_entity_is_refused(tmp_path):
    secret = tmp_path / "evil.dtd"
    secret.write_text('<!ENTITY leak "TOP-SECRET-CONTENT-4711">')
    doc = f'<!DOCTYPE r [<!ENTITY % p SYSTEM "file://{secret}"> %p;]><r>&leak;</r>'.encode()
    with pytest.raises(ModuleError, match="refused"):
        parse_xml(doc)


def test_external_dtd_is_refused(tmp_path):
    dtd = tmp_path / "x.dtd"
    dtd.write_text('<!ENTITY e "TOP-SECRET-CONTENT-4711">')
    doc = f'<?xml version="1.0"?>\n<!DOCTYPE r SYSTEM "file://{dtd}">\n<r>&e;</r>'.encode()
    with pytest.raises(ModuleError, match="external DTDs are refused") as info:
        parse_xml(doc, member="moduledata")
    assert info.value.where == "moduledata, line 2, column 13"
    public = b'<!DOCTYPE r PUBLIC "-//X//Y" "http://example.invalid/x.dtd"><r/>'
    with pytest.raises(ModuleError, match="external DTDs are refused"):
        parse_xml(public)


def test_utf16_document_with_entities_is_refused_after_parsing():
    doc = ('<?xml version="1.0" encoding="UTF-16"?>\n<!DOCTYPE r [<!ENTITY a "aaaa">]>\n<r>&a;</r>'
           ).encode("utf-16")
    with pytest.raises(ModuleError, match="entity declarations are refused"):
        parse_xml(doc, member="buildFile.xml")


def test_entity_like_text_after_the_root_start_is_not_a_doctype():
    doc = b"<r><![CDATA[<!DOCTYPE x [<!ENTITY a 'b'>]>]]></r>"
    assert parse_xml(doc).text == "<!DOCTYPE x [<!ENTITY a 'b'>]>"


@pytest.mark.parametrize("doc, line, column, message", [
    (b"<a>\n  <b></a>", 2, 10, "Opening and ending tag mismatch"),
    (b"<a>\n\n<b x='1' x='2'/></a>", 3, 15, "Attribute x redefined"),
    (b"<a>&undefined;</a>", 1, 15, "Entity 'undefined' not defined"),
    (b"", 1, 1, "empty"),
    (b"<a>", 1, 4, "Premature end of data"),
])
def test_syntax_errors_have_line_and_column(doc, line, column, message):
    with pytest.raises(ModuleError, match=message) as info:
        parse_xml(doc, file="m.vmod", member="buildFile.xml")
    assert info.value.where == f"buildFile.xml, line {line}, column {column}"
    assert str(info.value).count(f"line {line}") == 1 + (f"line {line}" in info.value.message)


def test_input_size_cap():
    with pytest.raises(ModuleError, match="more than the limit of 100"):
        parse_xml(b"<a>" + b"x" * 200 + b"</a>", max_bytes=100)
    assert DEFAULT_MAX_XML == 64 << 20


def test_ten_megabyte_attribute_is_refused_in_bounded_memory():
    # Within max_bytes (64 MiB), so libxml2's own 10,000,000-byte limit (huge_tree=False) refuses it.
    doc = b'<a v="' + b"x" * (10 << 20) + b'"/>'
    tracemalloc.start()
    try:
        with pytest.raises(ModuleError, match="line 1"):
            parse_xml(doc, member="buildFile.xml")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20


def test_deep_nesting_is_refused():
    doc = b"<a>" * 300_000 + b"</a>" * 300_000
    with pytest.raises(ModuleError, match="line 1"):
        parse_xml(doc)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_arbitrary_bytes_raise_only_module_error(data):
    try:
        parse_xml(data)
    except ModuleError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(SAVEDATA) - 1), st.integers(0, 255))
def test_mutated_metadata_raises_only_module_error(at, value):
    data = bytearray(SAVEDATA)
    data[at] = value
    try:
        parse_xml(bytes(data))
    except ModuleError:
        pass


# --- real files ------------------------------------------------------------------------------------

@pytest.mark.samples
@pytest.mark.parametrize("path", sample_params("*/buildFile.xml", "*/buildFile", "*/moduledata"))
def test_real_module_xml_parses(path):
    root = parse_xml(path.read_bytes(), file=str(path))
    assert root.tag in ("VASSAL.build.GameModule", "data") or root.tag.startswith("VASSAL.")
