"""Template tags of mobile events: a time control written for people, a result as the site writes
it, and the player page's section of mobile games (`{% load play_tags %}{% mobile_games player %}`).

The player page lives in the players app, which must not import play: it reaches this section
through the template tag library only, so the dependency stays play -> players. Clock figures,
termination words and claim statuses are the game page's filters (mobile_chess).
"""

from __future__ import annotations

from django import template
from django.utils.translation import gettext, ngettext

from play.rules.clock import ControlError, TimeControl

register = template.Library()


def span_text(secs: int) -> str:
    """10800 -> "3 h", 1200 -> "20 min", 5400 -> "1 h 30 min", 90 -> "1 min 30 s", 45 -> "45 s"."""
    secs = int(secs)
    hours, rest = divmod(secs, 3600)
    minutes, seconds = divmod(rest, 60)
    parts = []
    if hours:
        parts.append(gettext("%(n)d h") % {"n": hours})
    if minutes:
        parts.append(gettext("%(n)d min") % {"n": minutes})
    if seconds or not parts:
        parts.append(gettext("%(n)d s") % {"n": seconds})
    return " ".join(parts)


def control_text(control: str, norm: int) -> str:
    """A control in words: 10800/30+1200/10 with N = 60 is "3 h for 30 moves, then 20 min per 10 moves;
    norm 60 s"."""
    try:
        parsed = TimeControl.parse(control, norm=int(norm))
    except (ControlError, TypeError, ValueError):
        return control
    first = ngettext("%(time)s for %(moves)d move", "%(time)s for %(moves)d moves", parsed.moves) % {
        "time": span_text(parsed.base),
        "moves": parsed.moves,
    }
    then = ngettext("then %(time)s per %(moves)d move", "then %(time)s per %(moves)d moves", parsed.every) % {
        "time": span_text(parsed.extra),
        "moves": parsed.every,
    }
    # The norm is set and spoken of in seconds (rule 2i: "N = 60 s"), whatever its size.
    norm_text = gettext("norm %(time)s") % {"time": gettext("%(n)d s") % {"n": parsed.norm}}
    return f"{first}, {then}; {norm_text}"


@register.filter
def control_for_people(obj) -> str:
    """An event or a game: its control and norm in words."""
    return control_text(obj.control, obj.norm)


@register.inclusion_tag("play/events_player_games.html")
def mobile_games(player):
    """The player's latest 20 mobile games, read in one query."""
    from play.events.selectors import player_mobile_games

    return {"player": player, "mobile_games": player_mobile_games(player)}


RESULTS = {"1-0": "1–0", "0-1": "0–1", "1/2-1/2": "½–½", "*": "*"}


@register.filter
def result_text(result: str) -> str:
    """A game's result as the site writes it: 1–0, 0–1, ½–½, *."""
    return RESULTS.get(result, result)
