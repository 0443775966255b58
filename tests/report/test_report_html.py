"""The HTML report: one self-contained page (no script, nothing fetched), player text escaped,
findings grouped by log and turn, a map excerpt drawn from the game data's map wherever the
evidence names hexes (route, hex attacked, units), dice charts and the table of checks. The
page is opened in headless Chromium when Debian's `chromium` is installed (skipped otherwise)."""
from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from vlog.gamedata import load_game_data
from vlog.report import html
from vlog.report.svg import MapView, hexes_in_evidence, map_excerpt

from .sample import HOSTILE_CHAT

ROOT = Path(__file__).resolve().parents[2]


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.open: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _tags(page: str) -> list[tuple[str, dict]]:
    parser = _Tags()
    parser.feed(page)
    return parser.tags


def self_contained(page: str) -> None:
    tags = _tags(page)
    assert not [t for t, _ in tags if t in ("script", "link", "iframe", "img", "object", "embed")]
    for _, attrs in tags:
        for key in ("src", "href"):
            value = attrs.get(key)
            assert value is None or value.startswith("#"), value
    assert not re.search(r"url\((?!#)", page) and "@import" not in page   # url(#marker) stays in the page
    # the only address in the page is the SVG namespace name, which is never fetched
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) <= {"http://www.w3.org/2000/svg"}


def test_sample_report_page_is_self_contained_and_escapes_player_text(report):
    page = html.render(report)
    self_contained(page)
    assert page.startswith("<!DOCTYPE html>") and 'name="viewport"' in page
    assert "<x &amp; &quot;y&quot;>" not in page and "&lt;x &amp; &quot;y&quot;&gt;" in page
    assert "\x1b" not in page and "\\x1b[31mred" in page
    assert "<h4>Turn 3</h4>" in page                 # grouped by turn
    assert "Checks:" in page and "<table>" in page   # the table of checks, judged or not


@pytest.fixture(scope="module")
def view() -> MapView:
    return MapView(load_game_data("lion-of-judah"))


def test_evidence_hexes_by_role(view):
    roles = hexes_in_evidence(view, {"unit": "x", "from": "1213", "to": "1313", "target": "1106",
                                     "turn": 1935, "zoc_from": ["1312"]})
    assert roles == {"route": ["1213", "1313"], "target": ["1106"], "unit": ["1313"],
                     "named": ["1213", "1313", "1106", "1312"]}
    assert hexes_in_evidence(view, {"path": ["0203", "0304", "0405"]})["route"] == ["0203", "0304", "0405"]
    assert map_excerpt(view, {"turn": 3, "note": "no hex"}) is None


def test_map_excerpt_shows_hexes_route_target_and_units(view):
    svg = map_excerpt(view, {"from": "1009", "to": "1010", "target": "1110"}, ["Ras Kassa <&>"])
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('class="hex named"') == 3 and 'class="target"' in svg and 'class="route"' in svg
    assert "Gondar" in svg                               # 1009's name in the shipped map data
    assert "<title>Ras Kassa &lt;&amp;&gt;</title>" in svg and 'class="counter"' in svg
    # a hex the data gives no terrain for says so
    assert re.search(r"<title>1110: terrain not in the data", svg)


@pytest.fixture(scope="module")
def cb19_page(tmp_path_factory) -> str:
    from vlog.cli import main

    out = tmp_path_factory.mktemp("html") / "cb19.html"
    main(["check", str(ROOT / "fixtures/lion-of-judah/rules/CB-19.vlog"), "--game", "lion-of-judah",
          "--format", "html", "-o", str(out)])
    return out.read_text()


def test_check_html_has_the_map_of_the_finding_and_the_dice(cb19_page):
    self_contained(cb19_page)
    finding = cb19_page[cb19_page.index('<article class="finding error">'):]
    finding = finding[:finding.index("</article>")]
    assert "lion-of-judah/CB-19" in finding and '<svg xmlns="http://www.w3.org/2000/svg" class="map"' in finding
    assert "<title>1107: clear" in finding           # terrain from the synthetic data the module carries
    assert '<dl class="evidence">' in finding          # the numbers behind the verdict beside the map
    assert 'class="dice"' in cb19_page and "Holm" in cb19_page


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")


def open_in_chromium(text: str, tmp_path: Path, width: int = 412) -> tuple[str, Path]:
    """The page as headless Chromium parsed it (its DOM), and a screenshot of it at a phone's width."""
    page = tmp_path / "page.html"
    page.write_text(text, encoding="utf-8")
    shot = tmp_path / "phone.png"
    base = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND", f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run([*base, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    run = subprocess.run([*base, f"--window-size={width},1400", f"--screenshot={shot}", page.as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
    return dom.stdout, shot


@needs_chromium
def test_page_loads_in_headless_chromium(cb19_page, tmp_path):
    dom, _ = open_in_chromium(cb19_page, tmp_path)
    assert dom.count("<svg") == cb19_page.count("<svg") > 0     # the whole page was parsed


def test_defenders_stand_on_the_hex_attacked_and_others_where_the_evidence_puts_them(view):
    from vlog.report.svg import _unit_hexes

    evidence = {"target": "1107", "defense_factors": {"Ras Seyum": 0}, "attack_factors": {"21A": 4}}
    roles = hexes_in_evidence(view, evidence)
    assert _unit_hexes(evidence, ["21A", "Ras Seyum"], roles) == [("21A", None), ("Ras Seyum", "1107")]
    moved = {"from": "1009", "to": "1010"}
    assert _unit_hexes(moved, ["Negus"], hexes_in_evidence(view, moved)) == [("Negus", "1010")]
    svg = map_excerpt(view, evidence, ["21A", "Ras Seyum"])
    assert svg.count('class="counter"') == 2
