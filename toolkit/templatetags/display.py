"""How the public pages show scores, ORR categories and time controls, in the visitor's language.

Scores are halves of a point: shown as `4½`, `½`, `5` (never `9/2` nor `4.5`); downloads and the
API keep plain numbers and do not use these filters.
"""

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from django import template
from django.utils.translation import gettext, pgettext

register = template.Library()


def score_text(value) -> str:
    """4.5, Decimal("4.5"), Fraction(9, 2) or "9/2" -> "4½"; 0.5 -> "½"; 5 -> "5"; None -> ""."""
    if value is None or value == "":
        return ""
    try:
        number = Fraction(str(value)) if isinstance(value, str) else Fraction(value)
    except (ValueError, TypeError, InvalidOperation, ZeroDivisionError):
        return str(value)
    halves = number * 2
    if halves.denominator != 1:
        return str(Decimal(number.numerator) / Decimal(number.denominator))  # not a score: shown as it is
    sign = "−" if halves < 0 else ""
    whole, half = divmod(abs(halves.numerator), 2)
    if not half:
        return f"{sign}{whole}"
    return f"{sign}{whole or ''}½"


@register.filter
def score(value) -> str:
    return score_text(value)


def orr_category_label(category: str) -> str:
    """The engine's category codes (ratings/engines/orr.py) as the visitor reads them."""
    labels = {
        "established": pgettext("ORR category", "established"),
        "provisional": pgettext("ORR category", "provisional"),
        "newcomer": pgettext("ORR category", "newcomer"),
        "fide": pgettext("ORR category", "FIDE rating"),
        "no_games": pgettext("ORR category", "no rated games"),
    }
    return labels.get(category, category or "")


@register.filter
def orr_category(value) -> str:
    return orr_category_label(value)


# The units arbiters write in a time control ("90 min + 30 s", "40 moves in 2 hours"), longest first
# so that "minutes" is not read as "min" + "utes".
_UNITS = re.compile(
    r"(?<![^\W\d_])"  # not inside a word
    r"(per move|minutes|minute|mins|min|seconds|second|secs|sec|hours|hour|hrs|moves|move|s|h)"
    r"(?![^\W\d_])",
    re.IGNORECASE,
)


def time_control_text(text: str) -> str:
    """An announced time control with its English units in the visitor's language: the numbers and
    the arbiter's own words stay as written."""
    if not text:
        return ""
    units = {
        "minutes": gettext("min"), "minute": gettext("min"), "mins": gettext("min"), "min": gettext("min"),
        "seconds": gettext("s"), "second": gettext("s"), "secs": gettext("s"),
        "sec": gettext("s"), "s": gettext("s"), "hours": gettext("h"), "hour": gettext("h"), "hrs": gettext("h"),
        "h": gettext("h"), "moves": gettext("moves"), "move": gettext("move"), "per move": gettext("per move"),
    }  # fmt: skip
    return _UNITS.sub(lambda match: units[match.group(1).lower()], text)


@register.filter
def time_control(value) -> str:
    return time_control_text(value)
