"""A rating change's stored game lines (details["games"]: arrays in the engine's field order) as the
pages show them: the tournament's calculation page, the API and the what-if calculator."""

from __future__ import annotations

from ratings.engines.mchess import lrp_text
from ratings.models import System

RESULT_TEXT = {2: "1", 1: "½", 0: "0"}
SCORE_TEXT = {2: "1", 1: "0.5", 0: "0"}


def stored_game_lines(change) -> list | None:
    """A rating change's game lines as stored (arrays in the engine's field order), or None for a
    tournament rated before they were kept that way (objects then)."""
    lines = change.details.get("games") or []
    return lines if all(isinstance(line, list) for line in lines) else None


def calculation_lines(system: str, lines: list, opponent) -> list[dict]:
    """A rating change's stored game lines (details["games"], arrays in the engine's field order)
    as named values; `opponent(player_id)` says how to show an opponent (None: no opponent)."""

    def game(rnd, other, rating, hp) -> dict:
        return {
            "round": rnd,
            "opponent": opponent(other),
            "opponent_rating": rating,
            "result": RESULT_TEXT.get(hp, hp),
            "score": SCORE_TEXT.get(hp, hp),
        }

    if system == System.ORR:
        return [
            {
                **game(rnd, other, rating, hp),
                "pd": hundredths(pd),
                "dr": hundredths(50 * hp - pd),
                "earlier": bool(rest and rest[0]),
            }
            for rnd, other, rating, hp, pd, *rest in lines
        ]
    if system == System.MCHESS:
        return [
            {**game(rnd, other, rating, hp), "rating_before": before, "lrp": lrp_text(before - rating), "delta": delta}
            for rnd, other, before, rating, hp, delta in lines
        ]
    return [game(rnd, other, rating, hp) for rnd, other, rating, hp, *_ in lines]


def hundredths(cents: int) -> str:
    """12 -> "0.12", -5 -> "-0.05": exact, from integer hundredths."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"
