"""Request rates as the settings write them ('120/minute'), read by the settings (federation/env.py)
and by the rate limiter (toolkit/ratelimit.py); pure, so the settings can import it before Django is set up."""

from __future__ import annotations

_RATE_PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}


def parse_rate(text: str) -> tuple[int, int] | None:
    """'120/minute' -> (120, 60): so many requests per second, minute, hour or day; 'off' -> None.

    Raises ValueError naming what is wrong."""
    text = text.strip().lower()
    if text == "off":
        return None
    count, _, period = text.partition("/")
    if not count.isdigit() or int(count) < 1 or period not in _RATE_PERIODS:
        raise ValueError(f"{text!r} is not a rate; write it as 120/minute (second, minute, hour or day) or off")
    return int(count), _RATE_PERIODS[period]
