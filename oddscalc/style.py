"""One number style for everything a player reads, queries and studies alike.

- A figure with a standard error shows the error with two significant digits and the
  value rounded to the same place: `8.462 ± 0.022`, `57.78% ± 0.05`.
- A figure without one (exact) shows four significant digits: `3.333`, `16.67%`.
- Never scientific notation: `0.0015%`, `12345`.
- Exact floats written for machines (JSON, CSV) are cleaned of float noise at 15
  significant digits: 6.999999999999999 is 7.0.
"""

from __future__ import annotations

import math

DIGITS = 4  # significant digits of a figure without an error
ERROR_DIGITS = 2  # significant digits of a standard error
CLEAN_DIGITS = 15


def _decimals(value: float, digits: int) -> int:
    """Decimals that show `value` with `digits` significant digits (none for the integer part)."""
    if value == 0 or not math.isfinite(value):
        return 0
    return max(digits - 1 - math.floor(math.log10(abs(value))), 0)


def _fixed(value: float, decimals: int, trim: bool) -> str:
    text = f"{value:.{decimals}f}"
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    if text.startswith("-") and float(text) == 0:  # -0.00 is 0.00
        text = text[1:]
    return text


def number(value: float, stderr: float | None = None) -> str:
    """A figure in the one style: `8.462 ± 0.022` sampled, `3.333` exact."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if not stderr:
        return _fixed(value, _decimals(value, DIGITS), trim=True)
    decimals = _decimals(stderr, ERROR_DIGITS)
    return f"{_fixed(value, decimals, trim=False)} ± {_fixed(stderr, decimals, trim=False)}"


def percent(p: float, stderr: float | None = None) -> str:
    """A probability as a percentage in the one style: `57.78% ± 0.05`, `16.67%`, `0.0015%`."""
    if not stderr:
        return number(100 * p) + "%"
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
