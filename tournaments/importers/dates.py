"""Dates as real result files write them.

    2005/07/28  2005.07.28  2005-07-28  28.07.2005  28. 07. 2005  28/07/2005
    25/09/01 (TRF26 round dates, YY/MM/DD)  1969  1969/00/00  0000/00/00

Four-digit years are found wherever they stand; with two-digit years the caller
says the order. An impossible date is None, never a guess.
"""

from __future__ import annotations

import datetime
import re

_NUMBERS = re.compile(r"\d+")
DAY, YEAR, UNKNOWN = "day", "year", "unknown"


def _year(value: int, two_digit: bool) -> int:
    if not two_digit:
        return value
    # 25 -> 2025, 95 -> 1995: a two-digit year within the last century from now.
    return 2000 + value if value <= datetime.date.today().year % 100 + 1 else 1900 + value  # noqa: DTZ011


def parse_date(text: str | None, *, two_digit_order: str = "dmy") -> tuple[datetime.date | None, str]:
    """(date, precision): precision 'day' for a full date, 'year' when only the year is known."""
    if text is None:
        return None, UNKNOWN
    text = str(text).strip()
    if not text:
        return None, UNKNOWN
    parts = _NUMBERS.findall(text)
    numbers = [int(p) for p in parts]
    if not numbers or all(n == 0 for n in numbers):
        return None, UNKNOWN
    if len(numbers) == 1:
        if len(parts[0]) == 4 and 1900 <= numbers[0] <= 2100:
            return datetime.date(numbers[0], 7, 1), YEAR
        if len(parts[0]) == 8:  # 19691206
            return parse_date(f"{parts[0][:4]}/{parts[0][4:6]}/{parts[0][6:]}")
        return None, UNKNOWN
    if len(numbers) != 3:
        return None, UNKNOWN
    if len(parts[0]) == 4:
        year, month, day = numbers
    elif len(parts[2]) == 4:
        day, month, year = numbers
    elif two_digit_order == "ymd":
        year, month, day = _year(numbers[0], True), numbers[1], numbers[2]
    else:
        day, month, year = numbers[0], numbers[1], _year(numbers[2], True)
    if not 1900 <= year <= 2100:
        return None, UNKNOWN
    if month == 0 or day == 0:
        # "1969/00/00": the year alone is known.
        return datetime.date(year, 7, 1), YEAR
    try:
        return datetime.date(year, month, day), DAY
    except ValueError:
        return None, UNKNOWN
