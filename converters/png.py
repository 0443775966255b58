"""A minimal PNG encoder (8-bit RGB, zlib), and a tiny canvas to draw boards and counters on.

Written modules need board and counter images VASSAL can open; vlog has no image library
dependency, so this draws with integer pixel operations only and writes the bytes itself.
Output depends only on the pixels, so images are reproducible byte for byte.
"""
from __future__ import annotations

import struct
import zlib

__all__ = ["Canvas", "encode_png", "FONT", "GLYPH_W", "GLYPH_H"]

RGB = tuple[int, int, int]

MAX_PIXELS = 64 * 1024 * 1024
"""Largest canvas accepted (pixels); a board bigger than this is refused, not drawn."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(width: int, height: int, rows: bytes | bytearray) -> bytes:
    """PNG bytes for `rows`: `height` rows of `width` RGB triplets, top row first."""
    if width <= 0 or height <= 0:
        raise ValueError(f"image size {width}x{height} is empty")
    stride = width * 3
    if len(rows) != stride * height:
        raise ValueError(f"{len(rows)} bytes of pixels for a {width}x{height} RGB image")
    raw = bytearray()
    for y in range(height):
        raw.append(0)  # filter type None: simple, and deflate still compresses flat colours well
        raw += rows[y * stride:(y + 1) * stride]
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr)
            + _chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + _chunk(b"IEND", b""))


# 3x5 bitmap font: each glyph is 5 rows of 3 bits (left pixel = 4). Enough for hex numbers,
# unit designations and factors; characters without a glyph are drawn as '?'.
GLYPH_W, GLYPH_H = 3, 5
_GLYPHS = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111", "3": "111001111001111",
    "4": "101101111001001", "5": "111100111001111", "6": "111100111101111", "7": "111001010010010",
    "8": "111101111101111", "9": "111101111001111",
    "A": "010101111101101", "B": "110101110101110", "C": "011100100100011", "D": "110101101101110",
    "E": "111100110100111", "F": "111100110100100", "G": "011100101101011", "H": "101101111101101",
    "I": "111010010010111", "J": "001001001101010", "K": "101101110101101", "L": "100100100100111",
    "M": "101111111101101", "N": "110101101101101", "O": "010101101101010", "P": "110101110100100",
    "Q": "010101101110011", "R": "110101110101101", "S": "011100010001110", "T": "111010010010010",
    "U": "101101101101111", "V": "101101101101010", "W": "101101111111101", "X": "101101010101101",
    "Y": "101101010010010", "Z": "111001010100111",
    "-": "000000111000000", "+": "000010111010000", "/": "001001010100100", ".": "000000000000010",
    "(": "010100100100010", ")": "010001001001010", "?": "111001010000010", " ": "000000000000000",
    "*": "000101010101000", ":": "000010000010000", "'": "010010000000000", "&": "010101010101011",
}
FONT: dict[str, tuple[int, ...]] = {
    ch: tuple(int(bits[r * 3:(r + 1) * 3], 2) for r in range(GLYPH_H)) for ch, bits in _GLYPHS.items()
}


class Canvas:
    """An RGB pixel grid with the few drawing operations boards and counters need."""

    def __init__(self, width: int, height: int, background: RGB = (255, 255, 255)):
        if width <= 0 or height <= 0 or width * height > MAX_PIXELS:
            raise ValueError(f"canvas size {width}x{height} is empty or larger than {MAX_PIXELS} pixels")
        self.width, self.height = width, height
        self.pixels = bytearray(bytes(background) * (width * height))

    def set(self, x: int, y: int, colour: RGB) -> None:
        if 0 <= x < self.width and 0 <= y < self.height:
            i = (y * self.width + x) * 3
            self.pixels[i:i + 3] = bytes(colour)

    def get(self, x: int, y: int) -> RGB:
        i = (y * self.width + x) * 3
        return self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]

    def fill_rect(self, x0: int, y0: int, x1: int, y1: int, colour: RGB) -> None:
        """Fill [x0, x1) x [y0, y1), clipped to the canvas."""
        x0, x1 = max(0, x0), min(self.width, x1)
        if x0 >= x1:
            return
        row = bytes(colour) * (x1 - x0)
        for y in range(max(0, y0), min(self.height, y1)):
            i = (y * self.width + x0) * 3
            self.pixels[i:i + len(row)] = row

    def fill_polygon(self, points: list[tuple[float, float]], colour: RGB) -> None:
        """Even-odd scanline fill, sampling pixel centres (a pixel is in when its centre is)."""
        if len(points) < 3:
            return
        ys = [p[1] for p in points]
        for y in range(max(0, int(min(ys))), min(self.height, int(max(ys)) + 1)):
            sy = y + 0.5
            xs = []
            n = len(points)
            for i in range(n):
                (ax, ay), (bx, by) = points[i], points[(i + 1) % n]
                if (ay <= sy < by) or (by <= sy < ay):
                    xs.append(ax + (sy - ay) * (bx - ax) / (by - ay))
            xs.sort()
            for a, b in zip(xs[0::2], xs[1::2]):
                # pixels whose centre x + 0.5 lies in [a, b)
                self.fill_rect(int(-(-(a - 0.5) // 1)), y, int(-(-(b - 0.5) // 1)), y + 1, colour)

    def line(self, x0: float, y0: float, x1: float, y1: float, colour: RGB, width: int = 1) -> None:
        """A line of square dots `width` pixels across (integer DDA, no anti-aliasing)."""
        steps = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
        half = width // 2
        for i in range(steps + 1):
            t = i / steps
            x = int(round(x0 + (x1 - x0) * t))
            y = int(round(y0 + (y1 - y0) * t))
            if width == 1:
                self.set(x, y, colour)
            else:
                self.fill_rect(x - half, y - half, x - half + width, y - half + width, colour)

    def text(self, x: int, y: int, s: str, colour: RGB, scale: int = 1) -> None:
        """Draw `s` with the 3x5 font, top-left at (x, y), one blank column between glyphs."""
        for k, ch in enumerate(s.upper()):
            glyph = FONT.get(ch, FONT["?"])
            gx = x + k * (GLYPH_W + 1) * scale
            for r, bits in enumerate(glyph):
                for c in range(GLYPH_W):
                    if bits & (4 >> c):
                        self.fill_rect(gx + c * scale, y + r * scale, gx + (c + 1) * scale,
                                       y + (r + 1) * scale, colour)

    @staticmethod
    def text_width(s: str, scale: int = 1) -> int:
        return max(0, len(s) * (GLYPH_W + 1) * scale - scale)

    def png(self) -> bytes:
        return encode_png(self.width, self.height, self.pixels)
