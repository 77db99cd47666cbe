"""The lists' age groups, the one statement of the rule (pure: no Django).

A player is "under N" in a year when born on 1 January of year - N or later, and belongs to every
group from his youngest up; "adults" are born before 1 January of year - 18. The rating lists'
filter (ratings.filters), the GCR filter (ratings.gcrquery) and the accuracy page's groups
(ratings.accuracy) all ask this module, so the three cannot drift apart.
"""

from __future__ import annotations

import datetime

LIMITS = (8, 10, 12, 14, 16, 18)
ADULTS = "adults"
UNKNOWN = "unknown"  # no birth date: in no group
KEYS = (*(f"u{limit}" for limit in LIMITS), ADULTS)


def birth_years(group: str, year: int) -> tuple[int | None, int | None]:
    """The first and last birth year of `group` in `year` (None: open on that side)."""
    if group == ADULTS:
        return None, year - LIMITS[-1] - 1
    if group not in KEYS:
        raise ValueError(f"no age group {group!r}: one of {', '.join(KEYS)}")
    return year - int(group[1:]), None


def age_group(birth_date: datetime.date | None, year: int) -> str:
    """The youngest group a player belongs to in `year`; UNKNOWN without a birth date."""
    if birth_date is None:
        return UNKNOWN
    for limit in LIMITS:
        if birth_date.year >= year - limit:
            return f"u{limit}"
    return ADULTS
