"""Numbers as evidence and messages show them: factors and costs are whole numbers, Fractions
or `Unknown` ranges, and every finding prints them the same way."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from vlog.engine.judge import Unknown

__all__ = ["plain_number", "show_number"]


def plain_number(value: Any) -> Any:
    """A cost or factor as evidence shows it: whole Fractions as int, others as float, an
    unknown as None."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    if isinstance(value, Unknown):
        return None
    return value


def show_number(value: Any) -> str:
    """A cost or factor as a message shows it: '3', '1.5', or '2-4' for a range vlog cannot narrow."""
    if isinstance(value, Unknown):
        return f"{show_number(value.at_least)}-{show_number(value.at_most)}"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
    return str(value)
