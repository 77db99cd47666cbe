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
from dataclasses import dataclass, field

from django.utils.translation import gettext_noop

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


ORDER_NAMES = {
    "dmy": gettext_noop("day.month.year"),
    "ymd": gettext_noop("year.month.day"),
    "ydm": gettext_noop("year.day.month"),
    "mdy": gettext_noop("month.day.year"),
}
# A tournament over a year long (first to last date) is the less likely reading: a season runs September
# to May, a two-digit order read wrong stretches the dates over years.
LONGEST_DAYS = 366
_NAME_YEARS = re.compile(r"(?<!\d)((?:19|20)\d\d)(?:\s*[/-]\s*(\d\d(?:\d\d)?))?(?!\d)")


def name_years(name: str | None) -> set[int]:
    """The years a tournament's name gives: "Bunratty 2011" {2011}, "League 2010/11" {2010, 2011}."""
    years: set[int] = set()
    for first, second in _NAME_YEARS.findall(name or ""):
        years.add(int(first))
        if second:
            years.add(int(second) if len(second) == 4 else int(first[:2] + second))
    return years


@dataclass
class DateReading:
    """The file's dates read with one order for the start and end (042, 052) and one for the rounds (132).

    `reason` says why that order: "only" (no other order gives a tournament whose start is no later
    than its rounds and whose end no earlier), "name" (the year in the tournament's name chose among
    those that do), "span" (the only one of them in which the tournament lasts a year at most),
    "ambiguous" (day first kept; `others` are the orders that would do as well)."""

    header_order: str | None
    round_order: str | None
    dates: dict
    reason: str = "only"
    others: list[str] = field(default_factory=list)


def _read(texts: dict, order: str | None) -> dict:
    return {key: parse_date(text, two_digit_order=order or "dmy") for key, text in texts.items()}


# A round dated a little outside the tournament's own dates (a typo, a round played early) is not a
# reason to refuse a file: the reading kept the fortnight either side it has always allowed.
ROUND_SLACK = datetime.timedelta(days=14)


def _fits(header: dict, rounds: dict) -> bool:
    start, end = header.get("042"), header.get("052")
    if start and end and end < start:
        return False
    return all(
        (not start or start - ROUND_SLACK <= day) and (not end or day <= end + ROUND_SLACK) for day in rounds.values()
    )


def _known(read: dict) -> dict:
    return {key: date for key, (date, precision) in read.items() if precision == DAY}


def read_file_dates(header: dict[str, str], rounds: dict[int, str], *, name: str = "") -> DateReading | tuple:
    """Start, end and round dates with two-digit years, in the orders EVERY date of the file allows.

    An order that leaves a two-digit date impossible, or puts a round before the start or after the end
    (or the end before the start), is out. Among the rest, one whose dates all fall in the years of the
    tournament's name wins, then one in which it lasts a year at most; if several still differ, day
    first (year first where the file's four-digit dates are) is kept and the reading says so. With no
    order left, the key ("042", "052" or the round) of the date that does not fit is
    returned in a one-element tuple."""
    year_first = any(is_year_first(text) for text in [*header.values(), *rounds.values()])
    preference = ["ymd", "ydm", "dmy", "mdy"] if year_first else ["dmy", "ymd", "ydm", "mdy"]
    short = {key for key, text in [*header.items(), *rounds.items()] if has_two_digit_year(text)}
    header_orders = preference if short & set(header) else [None]
    round_orders = preference if short & set(rounds) else [None]
    years = name_years(name)
    candidates = []
    for header_order in header_orders:
        for round_order in round_orders:
            read_header, read_rounds = _read(header, header_order), _read(rounds, round_order)
            if any(read_header[key][1] != DAY for key in short & set(header)):
                continue
            if any(read_rounds[key][1] != DAY for key in short & set(rounds)):
                continue
            known_header, known_rounds = _known(read_header), _known(read_rounds)
            if not _fits(known_header, known_rounds):
                continue
            every = [*known_header.values(), *known_rounds.values()]
            named = not years or all(d.year in years for d in every)
            long = bool(every) and (max(every) - min(every)).days > LONGEST_DAYS
            mixed = None not in (header_order, round_order) and header_order != round_order
            rank = (not named, long, mixed, preference.index(header_order or round_order))
            candidates.append((rank, header_order, round_order, {**known_header, **known_rounds}))
    if not candidates:
        return (_misfit(header, rounds, preference),)
    candidates.sort(key=lambda c: c[0])
    best = candidates[0]
    rivals = [c for c in candidates if c[3] != best[3]]
    reading = DateReading(best[1], best[2], best[3])
    if any(c[0][:2] == best[0][:2] for c in rivals):
        reading.reason = "ambiguous"
        for rival in rivals:
            order = rival[1] if rival[1] not in (None, best[1]) else rival[2]
            if rival[0][:2] == best[0][:2] and order not in reading.others:
                reading.others.append(order)
    elif any(c[0][0] == best[0][0] for c in rivals):
        reading.reason = "span"
    elif rivals:
        reading.reason = "name"
    return reading


def _misfit(header: dict, rounds: dict, preference: list[str]):
    """The first date that does not fit, each group read in the first order that makes all its dates real."""

    def order_for(texts: dict) -> str:
        short = [text for text in texts.values() if has_two_digit_year(text)]
        readable = [o for o in preference if all(parse_date(t, two_digit_order=o)[1] == DAY for t in short)]
        return (readable or preference)[0]

    read_header, read_rounds = _read(header, order_for(header)), _read(rounds, order_for(rounds))
    for key, (_, precision) in [*read_header.items(), *sorted(read_rounds.items())]:
        if precision != DAY and has_two_digit_year({**header, **rounds}[key]):
            return key
    known_header, known_rounds = _known(read_header), _known(read_rounds)
    start, end = known_header.get("042"), known_header.get("052")
    if start and end and end < start:
        return "052"
    for key, day in sorted(known_rounds.items()):
        if (start and day < start - ROUND_SLACK) or (end and day > end + ROUND_SLACK):
            return key
    return "052" if "052" in header else next(iter(header or rounds))
