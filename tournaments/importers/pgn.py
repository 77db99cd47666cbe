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

from players.names import name_key
from tournaments.importers.base import (
    BLACK_WINS,
    BYE,
    DRAW,
    HALF_BYE,
    NO_RESULT,
    PLAYED,
    UNPLAYED,
    WHITE_WINS,
    ParsedFile,
    ParsedGame,
    ParsedPlayer,
    Place,
    Text,
    refusal,
)
from tournaments.importers.dates import parse_date
from tournaments.importers.naming import split_name, warn_guessed
from tournaments.importers.pairing import BYE_PLACEHOLDERS
from tournaments.importers.trf import decode

RESULTS = {"1-0": WHITE_WINS, "0-1": BLACK_WINS, "1/2-1/2": DRAW}
ROUND = re.compile(r"^\s*(\d+)(?:\.(\d+))?")
UNKNOWN_ROUND = ("?", "", "-")  # the PGN standard's "not known"
MAX_GAMES = 20_000
BYE_SIDE = ("bye",)  # stands for Vega's pseudo-player in a game's two sides
PROGRESS_EVERY = 250  # games between two reports to `progress` (each is a database write on a worker)


LEADING_COMMENT = re.compile(r"\A(?:\s*(?:\{[^}]*\}|;[^\n]*))*\s*")


BLANK_TAGS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?", "Result": "*"}


class _Game(chess.pgn.StringExporter):
    """One game read in one pass: its tags, its errors and its main line's moves as python-chess's
    exporter writes them (SAN with move numbers, no comments nor variations, the Result tag last).

    python-chess's own reader checks every move, as it does for a game built as a tree; the tree and
    a second replay of the moves to export them are spared (the 594 games of the demo's Grand Swiss
    took twice as long). What it keeps is what the tree gave: the Seven Tag Roster's defaults for
    missing tags, a "*" result tag taken from the move text's result, the errors of sidelines too."""

    def __init__(self):
        super().__init__(headers=False, comments=False, variations=False)
        self.headers = chess.pgn.Headers()
        self.errors: list[Exception] = []
        self.moves = 0

    def begin_headers(self) -> chess.pgn.Headers:
        return self.headers  # the reader takes the variant and the starting position from them

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.headers[tagname] = tagvalue

    def end_headers(self) -> None:
        pass

    def begin_variation(self) -> None:
        self.variation_depth += 1  # read and checked, as a tree's sidelines are, but not written

    def visit_move(self, board: chess.Board, move: chess.Move) -> None:
        if not self.variation_depth:
            self.moves += 1
            super().visit_move(board, move)

    def visit_result(self, result: str) -> None:
        if self.headers.get("Result", "*") == "*":
            self.headers["Result"] = result

    def handle_error(self, error: Exception) -> None:
        self.errors.append(error)

    def end_game(self) -> None:
        super().visit_result(self.headers.get("Result", "*"))
        super().end_game()

    def result(self) -> _Game:
        self.text = super().result()
        return self


def _is_blank(game: _Game) -> bool:
    """No tag of its own and no move: not a game."""
    return game.moves == 0 and dict(game.headers) == BLANK_TAGS


def looks_like_pgn(text: str) -> bool:
    # PGN allows a comment before the first game ("{ collected by ... }"), as pgn-extract writes.
    head = LEADING_COMMENT.sub("", text.lstrip("\ufeff"), count=1)[:2000]
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
    guessed: list[str] = []
    raw_games = []
    dates = []
    line_of_game = _game_lines(text)
    lines = len(text.splitlines())
    count = 0
    while True:
        try:
            game = chess.pgn.read_game(handle, Visitor=_Game)
        except Exception as exc:  # python-chess raises for badly broken files
            raise refusal(
                gettext_noop("the PGN cannot be read (%(reason)s)"), Place(file_name), "bad_pgn", reason=str(exc)
            ) from None
        if game is None:
            break
        if _is_blank(game):
            continue  # a comment before the first game (or between games): python-chess reads it as one
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
        round_text = headers.get("Round", "").strip()
        round_match = ROUND.match(round_text)
        if not round_match and round_text not in UNKNOWN_ROUND:
            parsed.error(
                gettext_noop("the Round tag '%(text)s' has no round number"), place, "bad_round", text=round_text
            )
            continue
        # Round "?": the round is found from the date once every game is read (see _rounds_from_dates).
        rnd = int(round_match.group(1)) if round_match else None
        board = int(round_match.group(2)) if round_match and round_match.group(2) else None
        day = game_date if game_date and precision == "day" else None
        if day:
            dates.append(day)
            if rnd is not None:
                parsed.round_dates.setdefault(rnd, day)
        sides = []
        for colour in ("White", "Black"):
            name = headers.get(colour, "").strip()
            if name.lower() in BYE_PLACEHOLDERS and not _int(headers.get(f"{colour}FideId")):
                sides.append(BYE_SIDE)  # Vega writes the bye as a game against a pseudo-player "BYE"
                continue
            fide_id = _int(headers.get(f"{colour}FideId"))
            if not name or name == "?":
                parsed.error(gettext_noop("the %(tag)s tag is empty"), place, "no_name", tag=colour)
                break
            key = ("fide", fide_id) if fide_id else ("name", name_key(name))
            if key not in players:
                family, given = split_name(name, guessed)
                players[key] = ParsedPlayer(
                    start_number=0,
                    family_name=family,
                    given_names=given,
                    fide_id=fide_id,
                    rating=_int(headers.get(f"{colour}Elo")),
                    title=headers.get(f"{colour}Title", "").strip().upper()[:4],
                    # WhiteTeam is a federation code in FIDE's broadcasts ("NOR") and a club or team
                    # elsewhere; ChessBase writes the team's country in WhiteTeamCountry.
                    country=team.upper()
                    if len(team := headers.get(f"{colour}Team", "").strip()) == 3
                    else headers.get(f"{colour}TeamCountry", "").strip().upper()[:3],
                    club="" if len(team) == 3 else team,
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
        if BYE_SIDE in sides:
            raw_games.append((rnd, day, board, sides[0], sides[1], result, "", place))
            continue
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
        moves = game.text.strip()
        raw_games.append((rnd, day, board, sides[0], sides[1], RESULTS[result], moves, place))

    if count == 0:
        raise refusal(gettext_noop("no game found in the PGN"), Place(file_name), "no_games")
    if not players and {p.code for p in parsed.errors} == {"no_name"}:
        # Not one game names its players: an opening book or a collection of positions, whose
        # thousands of "the White tag is empty" would hide what the file is.
        raise refusal(
            gettext_noop(
                "none of the %(count)s games in the PGN names its players (White and Black tags): it is not a "
                "tournament's games (an opening book or a collection of positions?)"
            ),
            Place(file_name),
            "no_players",
            count=count,
        )
    raw_games = _rounds_from_dates(parsed, raw_games)
    warn_guessed(parsed, guessed)
    # Start numbers by rating, then name, as a starting-rank list orders them.
    ordered = sorted(seen_order, key=lambda k: (-(players[k].rating or 0), players[k].display_name))
    for number, key in enumerate(ordered, start=1):
        players[key].start_number = number
    parsed.players = [players[key] for key in ordered]
    seen: dict[tuple[int, int], Place] = {}
    for rnd, _day, board, white, black, result, moves, place in raw_games:
        if BYE_SIDE in (white, black):
            _bye_game(parsed, players, rnd, white, black, result, place, seen)
            continue
        w, b = players[white].start_number, players[black].start_number
        for key in (white, black):
            _once_a_round(parsed, players[key], rnd, place, seen)
        parsed.games.append(ParsedGame(rnd, w, b, result, PLAYED, board=board, moves=moves, place=place))
    parsed.rounds = max((g.round for g in parsed.games), default=0)
    if dates:
        parsed.start_date, parsed.end_date = min(dates), max(dates)
    return parsed


def _rounds_from_dates(parsed: ParsedFile, raw_games: list) -> list:
    """Games whose Round tag is "?" get their round from the date: one round per distinct date, in order.

    Only when no game of the file has a round and every one has a full date; otherwise each such game
    is an error, as a round cannot be guessed."""
    unknown = [game for game in raw_games if game[0] is None]
    if not unknown:
        return raw_games
    if len(unknown) == len(raw_games) and all(game[1] for game in raw_games):
        days = sorted({game[1] for game in raw_games})
        rounds = {day: number for number, day in enumerate(days, start=1)}
        parsed.round_dates = {number: day for day, number in rounds.items()}
        parsed.warn(
            gettext_noop(
                'no game has a round number (Round "?"): the rounds are taken from the dates, one round per '
                "day (%(dates)s); check that no day had two rounds"
            ),
            Place(parsed.file_name),
            "rounds_from_dates",
            dates=", ".join(f"{number}: {day.isoformat()}" for day, number in rounds.items()),
        )
        return [(rounds[game[1]], *game[1:]) for game in raw_games]
    for game in unknown:
        parsed.error(gettext_noop("the Round tag '%(text)s' has no round number"), game[-1], "bad_round", text="?")
    return [game for game in raw_games if game[0] is not None]


def _bye_game(parsed: ParsedFile, players: dict, rnd: int, white, black, result: str, place: Place, seen) -> None:
    """A game against Vega's "BYE": a bye for the real player, worth what the result gives him."""
    key = black if white == BYE_SIDE else white
    mine = {"1-0": "1", "0-1": "0", "1/2-1/2": "="} if key == white else {"1-0": "0", "0-1": "1", "1/2-1/2": "="}
    score = mine.get(result, "")
    kind, points = {"1": (BYE, WHITE_WINS), "=": (HALF_BYE, DRAW)}.get(score, (UNPLAYED, NO_RESULT))
    _once_a_round(parsed, players[key], rnd, place, seen)
    parsed.games.append(ParsedGame(rnd, players[key].start_number, None, points, kind, place=place))


def _once_a_round(parsed: ParsedFile, player: ParsedPlayer, rnd: int, place: Place, seen: dict) -> None:
    """Note the player's game (or bye) of round `rnd` at `place`; a second one is an error naming the first."""
    if (player.start_number, rnd) in seen:
        parsed.error(
            gettext_noop("round %(round)s: %(name)s has a second game (the first at %(where)s)"),
            place,
            "double_game",
            round=rnd,
            name=player.display_name,
            where=seen[(player.start_number, rnd)],
        )
    seen[(player.start_number, rnd)] = place


def _game_lines(text: str) -> list[int]:
    """The line where each game's first tag stands, for messages."""
    lines = []
    previous_blank = True
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("[Event ") or (line.startswith("[") and previous_blank and not lines):
            lines.append(number)
        previous_blank = not line.strip()
    return lines
