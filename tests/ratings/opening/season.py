"""Helpers of the round-trip tests: a site's lists by federation id, its later tournaments as plain
data, and an empty site."""

from __future__ import annotations

import io

from django.core.management import call_command

from players.models import Club, Player, Region, Sequence
from ratings import selectors
from ratings.models import GcrRun, InactivityPenalty, OpeningList, PlayerRating, ProvisionalGame, RatingChange
from tournaments.models import Game, Participant, Tournament, Upload

SYSTEMS = ("orr", "mchess", "playchess")


def lists() -> dict[str, list[dict]]:
    """Every engine system's public list, every column it shows, in list order."""
    return {system: selectors.list_export_rows(system=system) for system in SYSTEMS}


def states() -> dict:
    """Every player's standing (rating, mark, counts, last game, stored games without the old
    site's tournament and opponent ids) by federation id."""
    found = {}
    rows = PlayerRating.objects.filter(system__in=SYSTEMS).values_list(
        "player__federation_id", "system", "rating", "provisional", "games", "tournaments", "last_played", "state"
    )
    for fid, system, rating, provisional, games, tournaments, last, state in rows:
        stored = [tuple(game[:2]) for game in state.get("stored", [])]
        found[(fid, system)] = (rating, provisional, games, tournaments, last, stored)
    return found


def export_all() -> bytes:
    out = io.StringIO()
    call_command("export_list", "--system", "all", "--format", "csv", stdout=out)
    return ("\ufeff" + out.getvalue()).encode()


def write(data: bytes):
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp()) / "opening.csv"
    path.write_bytes(data)
    return path


def capture(tournaments) -> list[dict]:
    """Tournaments as data that outlives their site: players by federation id."""
    captured = []
    for tournament in tournaments:
        fid = dict(Player.objects.values_list("id", "federation_id"))
        captured.append(
            {
                "fields": {
                    name: getattr(tournament, name)
                    for name in (
                        "name",
                        "city",
                        "start_date",
                        "end_date",
                        "rounds",
                        "time_control",
                        "fide_rated",
                        "rate_mchess",
                        "rate_playchess",
                        "mchess_weight",
                    )
                },
                "participants": [
                    (
                        fid[p.player_id],
                        p.start_number,
                        p.rank,
                        p.points_in_file,
                        p.rating_in_file,
                        p.fide_rating_in_file,
                        p.is_guest,
                    )
                    for p in Participant.objects.filter(tournament=tournament).order_by("start_number")
                ],
                "games": [
                    (g.round, g.board, fid[g.white_id], fid.get(g.black_id), g.result, g.kind)
                    for g in Game.objects.filter(tournament=tournament).order_by("id")
                ],
            }
        )
    return captured


def recreate(captured: list[dict]) -> list[Tournament]:
    made = []
    for item in captured:
        ids = dict(Player.objects.values_list("federation_id", "id"))
        tournament = Tournament.objects.create(status=Tournament.Status.CONFIRMED, **item["fields"])
        Participant.objects.bulk_create(
            Participant(
                tournament=tournament,
                player_id=ids[f],
                start_number=n,
                rank=rank,
                points_in_file=points,
                rating_in_file=rating,
                fide_rating_in_file=fide,
                is_guest=guest,
            )
            for f, n, rank, points, rating, fide, guest in item["participants"]
        )
        Game.objects.bulk_create(
            Game(
                tournament=tournament,
                round=rnd,
                board=board,
                white_id=ids[w],
                black_id=ids.get(b),
                result=result,
                kind=kind,
            )
            for rnd, board, w, b, result, kind in item["games"]
        )
        made.append(tournament)
    return made


def empty_site() -> None:
    """Everything the round trip carries goes: a new site's database as far as ratings go."""
    for model in (
        RatingChange,
        ProvisionalGame,
        PlayerRating,
        InactivityPenalty,
        GcrRun,
        Game,
        Participant,
        Upload,
        Tournament,
        OpeningList,
        Player,
        Club,
        Region,
        Sequence,
    ):
        model.objects.all().delete()
