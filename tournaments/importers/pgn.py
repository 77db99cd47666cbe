"""PGN game collections (python-chess): one tournament's games with their moves.

Rounds come from the Round tag ("5" or "5.12": round 5, board 12); players are
told apart by their FIDE id tags (WhiteFideId, BlackFideId) where present, and
otherwise by name. PGN knows nothing of byes, absences or points tables: the
preview says so. Start numbers are given by rating, highest first, as a starting
rank would.
"""

from __future__ import annotations

import io
import re

import chess.pgn
from django.utils.translation import gettext_noop

from players.names import name_key, split_full_name
from tournaments.importers.base import (
    BLACK_WINS,
    DRAW,
    PLAYED,
    WHITE_WINS,
    ParsedFile,
    ParsedGame,
    ParsedPlayer,
    Place,
    Text,
    refusal,
)
from tournaments.importers.dates import parse_date
from tournaments.importers.trf import decode

RESULTS = {"1-0": WHITE_WINS, "0-1": BLACK_WINS, "1/2-1/2": DRAW}
ROUND = re.compile(r"^\s*(\d+)(?:\.(\d+))?")
MAX_GAMES = 20_000
PROGRESS_EVERY = 250  # games between two reports to `progress` (each is a database write on a worker)


def looks_like_pgn(text: str) -> bool:
    head = text.lstrip("\ufeff \t\r\n")[:2000]
    return head.startswith("[") and bool(re.search(r'^\[\w+\s+"', head, re.M))


def _int(text: str | None) -> int | None:
    text = (text or "").strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


def parse(data: bytes, file_name: str, progress=None) -> ParsedFile:
    text = decode(data)
    parsed = ParsedFile(file_name, "pgn", view="PGN")
    parsed.note(
        gettext_noop(
            "PGN has no byes, forfeits or absences and no points table: only the games in the file are imported."
        )
    )
    handle = io.StringIO(text)
    players: dict[tuple, ParsedPlayer] = {}
    seen_order: list[tuple] = []
    raw_games = []
    dates = []
    line_of_game = _game_lines(text)
    lines = len(text.splitlines())
    count = 0
    while True:
        try:
            game = chess.pgn.read_game(handle)
        except Exception as exc:  # python-chess raises for badly broken files
            raise refusal(
                gettext_noop("the PGN cannot be read (%(reason)s)"), Place(file_name), "bad_pgn", reason=str(exc)
            ) from None
        if game is None:
            break
        count += 1
        if count > MAX_GAMES:
            raise refusal(gettext_noop("more games than any tournament has"), Place(file_name), "too_large")
        line = line_of_game[count - 1] if count - 1 < len(line_of_game) else None
        if progress is not None and count % PROGRESS_EVERY == 0:
            progress(games=count, line=line, lines=lines)
        place = Place(file_name, line=line, detail=Text.of(gettext_noop("game %(number)s"), number=count))
        headers = game.headers
        if not parsed.name and headers.get("Event", "?") not in ("?", ""):
            parsed.name = headers["Event"]
            parsed.places["name"] = place
        if not parsed.city and headers.get("Site", "?") not in ("?", ""):
            parsed.city = headers["Site"]
            parsed.places["city"] = place
        event_date, _ = parse_date(headers.get("EventDate"))
        if event_date:
            dates.append(event_date)
        game_date, precision = parse_date(headers.get("Date"))
        round_match = ROUND.match(headers.get("Round", ""))
        if not round_match:
            parsed.error(
                gettext_noop("the Round tag '%(text)s' has no round number"),
                place,
                "bad_round",
                text=headers.get("Round", ""),
            )
            continue
        rnd = int(round_match.group(1))
        board = int(round_match.group(2)) if round_match.group(2) else None
        if game_date and precision == "day":
            dates.append(game_date)
            parsed.round_dates.setdefault(rnd, game_date)
        sides = []
        for colour in ("White", "Black"):
            name = headers.get(colour, "").strip()
            fide_id = _int(headers.get(f"{colour}FideId"))
            if not name or name == "?":
                parsed.error(gettext_noop("the %(tag)s tag is empty"), place, "no_name", tag=colour)
                break
            key = ("fide", fide_id) if fide_id else ("name", name_key(name))
            if key not in players:
                family, given = split_full_name(name)
                players[key] = ParsedPlayer(
                    start_number=0,
                    family_name=family,
                    given_names=given,
                    fide_id=fide_id,
                    rating=_int(headers.get(f"{colour}Elo")),
                    title=headers.get(f"{colour}Title", "").strip().upper()[:4],
                    country=headers.get(f"{colour}Team", "").strip().upper()[:3]
                    if len(headers.get(f"{colour}Team", "")) == 3
                    else "",
                    place=place,
                )
                seen_order.append(key)
            sides.append(key)
        if len(sides) != 2:
            continue
        if sides[0] == sides[1]:
            parsed.error(gettext_noop("a player is paired with himself"), place, "self_pairing")
            continue
        result = headers.get("Result", "*")
        if result not in RESULTS:
            parsed.warn(
                gettext_noop("round %(round)s: the game has no result ('%(result)s'); it is left out"),
                place,
                "unfinished",
                round=rnd,
                result=result,
            )
            continue
        if game.errors:
            parsed.warn(
                gettext_noop("the moves have errors (%(reason)s); the result is kept"),
                place,
                "bad_moves",
                reason=str(game.errors[0]),
            )
        moves = game.accept(chess.pgn.StringExporter(headers=False, variations=False, comments=False)).strip()
        raw_games.append((rnd, board, sides[0], sides[1], RESULTS[result], moves, place))

    if count == 0:
        raise refusal(gettext_noop("no game found in the PGN"), Place(file_name), "no_games")
    # Start numbers by rating, then name, as a starting-rank list orders them.
    ordered = sorted(seen_order, key=lambda k: (-(players[k].rating or 0), players[k].display_name))
    for number, key in enumerate(ordered, start=1):
        players[key].start_number = number
    parsed.players = [players[key] for key in ordered]
    seen: dict[tuple[int, int], Place] = {}
    for rnd, board, white, black, result, moves, place in raw_games:
        w, b = players[white].start_number, players[black].start_number
        for number in (w, b):
            if (number, rnd) in seen:
                parsed.error(
                    gettext_noop("round %(round)s: %(name)s has a second game (the first at %(where)s)"),
                    place,
                    "double_game",
                    round=rnd,
                    name=players[white if number == w else black].display_name,
                    where=seen[(number, rnd)],
                )
            seen[(number, rnd)] = place
        parsed.games.append(ParsedGame(rnd, w, b, result, PLAYED, board=board, moves=moves, place=place))
    parsed.rounds = max((g.round for g in parsed.games), default=0)
    if dates:
        parsed.start_date, parsed.end_date = min(dates), max(dates)
    return parsed


def _game_lines(text: str) -> list[int]:
    """The line where each game's first tag stands, for messages."""
    lines = []
    previous_blank = True
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("[Event ") or (line.startswith("[") and previous_blank and not lines):
            lines.append(number)
        previous_blank = not line.strip()
    return lines
