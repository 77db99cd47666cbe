"""The preview's prediction: each player's rating in each system if the tournament were confirmed now.

The previewed file becomes the tournament event a rating run would read after confirmation (the
same entrants, games and settings as tournament_confirm saves), and ratings.whatif rates it with
the rating run's own code on the current lists, writing nothing. Players the preview found are
rated with their standings; new players (and those still to choose) as newcomers, under the id
`-start number` here and `new:<start number>` in what is shown.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db.models import Max
from django.utils import timezone

from players.matching import MATCHED
from players.models import Player
from ratings.engines.common import Game as EngineGame
from ratings.timeline.sources import Entrant, Facts, TournamentEvent
from ratings.whatif.predict import PREDICTED_TOURNAMENT_ID, Prediction, predict
from tournaments.models import Tournament
from tournaments.timeline import HISTORY

SYSTEMS = ("orr", "mchess", "playchess")


def preview_event(preview: dict, details) -> tuple[TournamentEvent, dict[int, Facts], dict[int, str]]:
    """The event, the players' facts and each player id's key as shown (federation id or new:N)."""
    file, matches = preview["file"], preview["matches"]
    ids: dict[int, int] = {}
    for player in file["players"]:
        number = player["start_number"]
        match = matches[str(number)]
        ids[number] = match["player_id"] if match["status"] == MATCHED and match["player_id"] else -number
    known = Player.objects.in_bulk([pid for pid in ids.values() if pid > 0])
    facts: dict[int, Facts] = {}
    keys: dict[int, str] = {}
    entrants = []
    for player in file["players"]:
        number = player["start_number"]
        pid = ids[number]
        birth = datetime.date.fromisoformat(player["birth_date"]) if player.get("birth_date") else None
        precision = player.get("birth_precision") or "unknown"
        if birth is None or precision == "unknown":
            birth, precision = None, Player.BirthPrecision.UNKNOWN
        found = known.get(pid)
        if found is not None:
            keys[pid] = str(found.federation_id)
            if found.birth_date is not None:  # confirmation fills only a missing birth date
                birth, precision = found.birth_date, found.birth_precision
            facts[pid] = Facts(found.kind, birth, precision)
        else:
            keys[pid] = f"new:{number}"
            facts[pid] = Facts(Player.Kind.HUMAN, birth, precision)
        rating = player.get("rating")
        entrants.append(Entrant(pid, rating if rating is not None else None, False))
    games = [
        EngineGame(g["round"], ids[g["white"]], ids[g["black"]], g["result"], g["kind"])
        for g in file["games"]
        if g["black"] is not None
    ]
    event = TournamentEvent(
        PREDICTED_TOURNAMENT_ID,
        details.end_date,
        details.start_date,
        details.fide_rated,
        details.rate_mchess,
        details.rate_playchess,
        details.mchess_weight or settings.MCHESS_DEFAULT_WEIGHT,
        entrants,
        games,
    )
    return event, facts, keys


def preview_prediction(preview: dict, details) -> tuple[Prediction, dict[int, str]]:
    """The prediction of a previewed tournament confirmed with `details` (dates: today if none)."""
    event, facts, keys = preview_event(preview, details)
    return predict(event, facts), keys


def predicted_lists(prediction: Prediction, keys: dict[int, str]) -> dict[str, dict[str, int | None]]:
    """{"<federation id>": {"orr": R, "mchess": R, "playchess": R}}: the ratings as the lists would show them."""
    return {
        keys[pid]: {system: listed[system][0] for system in SYSTEMS}
        for pid, listed in sorted(prediction.listed.items(), key=lambda item: keys[item[0]])
    }


def _shown(rating: int | None, provisional: bool) -> str:
    if rating is None:
        return "–"
    return f"{rating}*" if provisional else str(rating)


def preview_rows(preview: dict, details) -> dict:
    """The preview page's prediction section: per player, per system, now → after (change), and
    whether the tournament ends before the last one rated (then the prediction is of a later place)."""
    if details.start_date is None:
        details.start_date = details.end_date = timezone.localdate()
    prediction, keys = preview_prediction(preview, details)
    by_number = {p["start_number"]: p for p in preview["file"]["players"]}
    rows = []
    for number in sorted(by_number):
        player = by_number[number]
        match = preview["matches"][str(number)]
        pid = match["player_id"] if match["status"] == MATCHED and match["player_id"] else -number
        cells = []
        for system in SYSTEMS:
            after, provisional = prediction.listed.get(pid, {}).get(system, (None, False))
            change = prediction.changes.get(pid, {}).get(system)
            before = _shown(change.before, change.provisional_before) if change else _shown(after, provisional)
            cells.append(
                {
                    "before": before,
                    "after": _shown(after, provisional) if change and not change.guest else None,
                    "delta": change.delta if change else None,
                    "details": change.details if change else {},
                }
            )
        name = f"{player['family_name']}, {player['given_names']}" if player["given_names"] else player["family_name"]
        rows.append({"start_number": number, "name": name, "key": keys[pid], "cells": cells})
    latest = Tournament.objects.filter(status__in=HISTORY).aggregate(latest=Max("end_date"))["latest"]
    return {"rows": rows, "earlier_than": latest if latest and details.end_date < latest else None}
