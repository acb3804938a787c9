"""One number style for everything a player reads, queries and studies alike.

- A figure with a standard error shows the error with two significant digits and the
  value rounded to the same place: `8.462 ± 0.022`, `57.78% ± 0.05`.
- A figure without one (exact) shows four significant digits: `3.333`, `16.67%`.
- Scientific notation only for a figure below 0.00001 (a percentage below 0.0001%) or from
  10^15 up that has no error: `0.0015%` and `12345` stay, `0.00007606%` reads `7.606e-5%`,
  `1e308` reads `1e308`; no figure shown starts with more than four zeros.
- What is shown rounds half up, as a player checks by hand: 5/32 is `15.63%` (JSON and
  CSV keep every digit).
- Exact floats written for machines (JSON, CSV) are cleaned of float noise at 15
  significant digits: 6.999999999999999 is 7.0.
"""

from __future__ import annotations

from typing import Iterable

import math

DIGITS = 4  # significant digits of a figure without an error
ERROR_DIGITS = 2  # significant digits of a standard error
CLEAN_DIGITS = 15


def _decimals(value: float, digits: int) -> int:
    """Decimals that show `value` with `digits` significant digits (none for the integer part)."""
    if value == 0 or not math.isfinite(value):
        return 0
    return max(digits - 1 - math.floor(math.log10(abs(value))), 0)


TINY = 1e-5  # below this (and not 0), a figure without an error is shown in scientific notation
PERCENT_TINY = 1e-4  # a percentage below this (0.0001%) too: 0.00007606% reads 7.606e-5%
HUGE = 1e15  # from this up too (no dice total comes near: only a goal of a sweep could ask for one)


def _fixed(value: float, decimals: int, trim: bool) -> str:
    from decimal import ROUND_HALF_UP, Decimal

    if not math.isfinite(value):
        return str(value)
    exact = Decimal(repr(float(value)))  # the shortest decimal that is this float: 2.675, not 2.67499999...
    text = f"{exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP):f}"
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    if text.startswith("-") and float(text) == 0:  # -0.00 is 0.00
        text = text[1:]
    return text


def _scientific(value: float) -> str:
    """`9.095e-11`: DIGITS significant digits, rounded half up like every figure shown."""
    from decimal import ROUND_HALF_UP, Decimal

    exact = Decimal(repr(float(value)))
    exponent = exact.adjusted()
    mantissa = exact.scaleb(-exponent).quantize(Decimal(1).scaleb(1 - DIGITS), rounding=ROUND_HALF_UP)
    if abs(mantissa) >= 10:  # 9.9995 rounds to 10.000
        mantissa, exponent = mantissa / 10, exponent + 1
    text = f"{mantissa:f}".rstrip("0").rstrip(".")
    return f"{text}e{exponent}"


def number(value: float, stderr: float | None = None, tiny: float = TINY) -> str:
    """A figure in the one style: `8.462 ± 0.022` sampled, `3.333` exact (scientific below `tiny`)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if not stderr:
        shown = abs(float(f"{value:.{DIGITS}g}")) if math.isfinite(value) else 0  # 100 · 1e-6 is 0.0001
        if value and (shown < tiny or shown >= HUGE) and math.isfinite(value):
            return _scientific(value)
        return _fixed(value, _decimals(value, DIGITS), trim=True)
    decimals = _decimals(stderr, ERROR_DIGITS)
    return f"{_fixed(value, decimals, trim=False)} ± {_fixed(stderr, decimals, trim=False)}"


def percent(p: float, stderr: float | None = None) -> str:
    """A probability as a percentage in the one style: `57.78% ± 0.05`, `16.67%`, `0.0015%`."""
    if not stderr:
        return number(100 * p, tiny=PERCENT_TINY) + "%"
    decimals = _decimals(100 * stderr, ERROR_DIGITS)
    return f"{_fixed(100 * p, decimals, trim=False)}% ± {_fixed(100 * stderr, decimals, trim=False)}"


def clean(value: float) -> float:
    """An exact float without its float noise (15 significant digits): 0.9999999999999999 is 1.0."""
    if not math.isfinite(value) or value == 0:
        return value
    return float(f"{value:.{CLEAN_DIGITS}g}")


def is_probability(column: str) -> bool:
    """Whether a study column holds a probability (shown as a percentage)."""
    head = column.split(".")[-1]
    return head.startswith(("at_least_", "at_most_", "exactly_", "P(", "p_")) or head == "probability"


def plural(count: object, word: str) -> str:
    """`1 unit`, `3 units`, `2d6 attacks`: the word in the plural unless the count is exactly 1."""
    return f"{count} {word}{'s' * (str(count) != '1')}"


def listed(words: Iterable[str]) -> str:
    """Words as a sentence lists them: `a`, `a and b`, `a, b and c`."""
    words = list(words)
    return str(words[0]) if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
