"""The tie-breaks' names in the reader's language, and which list a tournament uses."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from tournaments.tiebreaks import rules

NAMES = {
    "BH": _("Buchholz"),
    "BH-C1": _("Buchholz cut 1"),
    "BH-C2": _("Buchholz cut 2"),
    "BH-M1": _("median Buchholz"),
    "SB": _("Sonneborn-Berger"),
    "PS": _("progressive score"),
    "DE": _("direct encounter"),
    "WIN": _("number of wins"),
    "WON": _("games won over the board"),
    "BPG": _("games played with black"),
    "BWG": _("games won with black"),
    "KS": _("Koya"),
    "ARO": _("average rating of opponents"),
    "TPR": _("tournament performance rating"),
}


def is_round_robin(games, players) -> bool:
    """Every pair of players met over the board: an all-play-all (single or double)."""
    met = {frozenset((white, black)) for _, white, black, _, kind in games if black is not None and kind != "forfeit"}
    count = len(players)
    return count > 1 and len(met) == count * (count - 1) // 2


def order_for(stored: list[str], games, players) -> list[str]:
    """The tournament's own order, or the regulations' defaults for a Swiss or a round robin."""
    if stored:
        return [code for code in stored if code in rules.NAMES]
    return list(rules.ROUND_ROBIN_DEFAULT if is_round_robin(games, players) else rules.SWISS_DEFAULT)
