"""The readers of the tabletop spellings of a number: a count written `1000000`, `1e6` or `2_000_000`,
a seed, a decimal (`0.01`). Digits are 0-9: a digit of another script is refused, never read."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Callable

from .refusals import OptionError

WHOLE = "expected a whole number like 1000000, 1e6 or 2_000_000"


def parse_count(text: str, expected: str = WHOLE) -> int:
    """Read a whole number written `1000000`, `1e6` or `2_000_000`, exactly (no float rounding)."""
    cleaned = str(text).strip().replace("_", "").replace(",", "")
    if not cleaned.isascii():  # Decimal reads '٣' and '４' as digits: a player's number is written 0-9
        raise OptionError(text, expected)
    if len(cleaned) > 60:
        raise OptionError(f"{str(text)[:40]}...", expected)
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise OptionError(text, expected) from None
    if not value.is_finite() or value != value.to_integral_value() or abs(value.adjusted()) > 40:
        raise OptionError(text, expected)
    return int(value)


def whole(example: str) -> Callable[[str], int]:
    """The reader of an option's whole number, its error giving `example` ("a port number like 8000")."""
    return lambda text: parse_count(text, f"expected {example}")


def parse_seed(text: str) -> int:
    """Read a seed: a whole number, written as a count may be."""
    return parse_count(text, "expected a whole number like 42 or 20261201")


def parse_number(text: str) -> float:
    """Read a finite decimal number (`0.01`, `2`, `1e-3`)."""
    if not str(text).isascii():  # float reads '٣' and '４' as digits: a player's number is written 0-9
        raise OptionError(text, "expected a number like 0.01")
    try:
        value = float(str(text).strip())
    except ValueError:
        raise OptionError(text, "expected a number like 0.01") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise OptionError(text, "expected a finite number like 0.01")
    return value
