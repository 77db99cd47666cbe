"""Dates as real result files write them.

    2005/07/28  2005.07.28  2005-07-28  28.07.2005  28. 07. 2005  28/07/2005
    25/09/01 (TRF26 round dates, YY/MM/DD)  1969  1969/00/00  0000/00/00
    May 29, 2020  29 May 2020 (Lichess TRF)

Four-digit years are found wherever they stand; with two-digit years the caller
says the order. An impossible date is None, never a guess.
"""

from __future__ import annotations

import datetime
import re

_NUMBERS = re.compile(r"\d+")
_MONTH_NAME = re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?", re.I)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
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
    month_name = _MONTH_NAME.search(text)
    if month_name:
        # "May 29, 2020" or "29 May 2020": the month is the name, the four-digit number the year.
        month = _MONTHS.index(month_name.group(1).lower()) + 1
        numbers = _NUMBERS.findall(text)
        years = [n for n in numbers if len(n) == 4]
        days = [n for n in numbers if len(n) <= 2]
        if len(years) != 1 or len(days) != 1:
            return None, UNKNOWN
        try:
            return datetime.date(int(years[0]), month, int(days[0])), DAY
        except ValueError:
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
    elif two_digit_order == "ydm":  # Krause round dates: "11.25.02" is 25 February 2011
        year, day, month = _year(numbers[0], True), numbers[1], numbers[2]
    elif two_digit_order == "mdy":
        month, day, year = numbers[0], numbers[1], _year(numbers[2], True)
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


def has_two_digit_year(text: str) -> bool:
    parts = _NUMBERS.findall(text or "")
    return len(parts) == 3 and not any(len(p) == 4 for p in parts) and not _MONTH_NAME.search(text)


def is_year_first(text: str) -> bool:
    parts = _NUMBERS.findall(text or "")
    return len(parts) == 3 and len(parts[0]) == 4


def two_digit_order(
    texts: list[str], *, year_first: bool, within: tuple[datetime.date, datetime.date] | None = None
) -> str:
    """The order that reads every one of `texts` (dates with two-digit years) as a real date.

    Day first unless the file's other dates are written year first; an order that leaves a date
    impossible ("11.25.02" day first) is passed over, and when the tournament's own dates are known
    (`within`), an order putting the dates inside them (a fortnight either side) is preferred."""
    orders = ["ymd", "ydm", "dmy", "mdy"] if year_first else ["dmy", "ymd", "ydm", "mdy"]
    valid = []
    for order in orders:
        read = [parse_date(text, two_digit_order=order) for text in texts]
        if all(precision == DAY for _, precision in read):
            valid.append((order, [date for date, _ in read]))
    if within:
        low, high = within[0] - datetime.timedelta(days=14), within[1] + datetime.timedelta(days=14)
        for order, read in valid:
            if all(low <= date <= high for date in read):
                return order
    return valid[0][0] if valid else orders[0]
