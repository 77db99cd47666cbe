"""Swiss Perfect 98's own files, zipped together: players (.trn), games (.sco), settings (.ini).

The .trn and .sco are dBase III tables. Players: ID (what the games refer to), START_NO,
SURNAME, FIRSTNAME, FEDER, CLUB, INTL_RTG (FIDE rating), LOC_RTG, INTL_ID (FIDE id), LOC_ID, TITLE
(1-6: GM WGM IM WIM FM WFM, 0 none), SEX (1 male, 2 female, 0 not given), BIRTH_DATE (YYYYMMDD),
WITHDRAWAL. Names keep Swiss Perfect's runs of spaces ("Keogh               N M"): one space is
kept. Some arbiters typed the birth date into INTL_ID ("16-02-1944"): only a number there is a FIDE id.
Games: ROUND, WHITE, BLACK (player IDs; BLACK 0 is a bye), W_SCORE and B_SCORE in half points,
W_TYPE and B_TYPE (1 played; 0 not played over the board, the scores say who won by default;
35 white won by forfeit, 34 black did, 36 both lost by forfeit). Records
marked deleted ("*") are left out, as Swiss Perfect itself does. Swiss Perfect leaves text
after a NUL in fields it shortened ("14\\0\\03"): only what stands before the NUL counts.
"""

from __future__ import annotations

import configparser
import io
import struct
import zipfile

from django.utils.translation import gettext_noop

from tournaments.importers.base import (
    BLACK_WINS,
    BYE,
    DRAW,
    FORFEIT,
    HALF_BYE,
    NO_RESULT,
    PLAYED,
    UNPLAYED,
    WHITE_WINS,
    ParsedFile,
    ParsedGame,
    ParsedPlayer,
    Place,
    at_round,
    refusal,
)
from tournaments.importers.dates import UNKNOWN, parse_date
from tournaments.importers.pairing import check_unique_start_numbers

MAX_MEMBER = 20 * 1024 * 1024  # a zip bomb is refused before it is unpacked
FORFEITS = {"35": WHITE_WINS, "34": BLACK_WINS, "36": NO_RESULT}
SEXES = {"1": "M", "2": "F"}
TITLES = {"1": "GM", "2": "WGM", "3": "IM", "4": "WIM", "5": "FM", "6": "WFM"}


def _members(data: bytes) -> dict[str, zipfile.ZipInfo] | None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        return None
    return {info.filename.lower().rsplit(".", 1)[-1]: info for info in archive.infolist() if "." in info.filename}


def is_native_zip(data: bytes) -> bool:
    members = _members(data)
    # Either table (or the settings alone) names the upload as Swiss Perfect's, so a missing one gets
    # its own message rather than "not an Excel workbook".
    return members is not None and bool({"trn", "sco", "ini"} & set(members))


def dbf_fields(data: bytes) -> list[tuple[str, int]]:
    """The (name, length) of each field of a dBase III table's header."""
    header_length = struct.unpack("<H", data[8:10])[0] if len(data) >= 10 else 0
    fields = []
    position = 32
    while position < header_length - 1 and position + 32 <= len(data) and data[position] != 0x0D:
        field_name = data[position : position + 11].split(b"\0")[0].decode("ascii", "replace")
        fields.append((field_name, data[position + 16]))
        position += 32
    return fields


def table_kind(data: bytes) -> str | None:
    """ "trn" (the players) or "sco" (the games) for one of Swiss Perfect's tables, by its fields."""
    if len(data) < 32 or data[0] & 0x07 != 3:
        return None
    names = {name.upper() for name, _ in dbf_fields(data)}
    if {"SURNAME", "START_NO"} <= names:
        return "trn"
    if {"ROUND", "WHITE", "BLACK"} <= names:
        return "sco"
    return None


def read_dbf(data: bytes, name: str, file_name: str) -> list[dict[str, str]]:
    """The live records of a dBase III table, each field's text (cp1252, as Swiss Perfect wrote it)."""
    place = Place(file_name, detail=name)
    if len(data) < 32 or data[0] & 0x07 != 3:
        raise refusal(gettext_noop("%(name)s is not a dBase III table"), place, "bad_dbf", name=name)
    count, header_length, record_length = struct.unpack("<IHH", data[4:12])
    fields = dbf_fields(data)
    if header_length + count * record_length > len(data) or sum(length for _, length in fields) + 1 > record_length:
        raise refusal(gettext_noop("%(name)s is cut short"), place, "bad_dbf", name=name)
    records = []
    for index in range(count):
        record = data[header_length + index * record_length : header_length + (index + 1) * record_length]
        if record[:1] == b"*":
            continue
        offset, row = 1, {}
        for field_name, length in fields:
            raw = record[offset : offset + length].split(b"\0")[0]
            row[field_name] = raw.decode("cp1252", "replace").strip()
            offset += length
        records.append(row)
    return records


def parse(data: bytes, file_name: str) -> ParsedFile:
    members = _members(data)
    if members is None or not {"trn", "sco"} <= set(members):
        raise refusal(
            gettext_noop("a Swiss Perfect zip must hold the .trn and .sco files (and the .ini)"),
            Place(file_name),
            "sp_missing",
        )
    tables = [members[ext] for ext in ("trn", "sco", "ini") if ext in members]
    stems = {info.filename.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower() for info in tables}
    if len(stems) > 1:
        # Swiss Perfect names a tournament's three files alike; a table of another tournament would
        # pair this one's players by the other's player IDs.
        raise refusal(
            gettext_noop(
                "the files in the zip belong to different tournaments (%(names)s): a Swiss Perfect tournament's "
                ".trn, .sco and .ini have the same name"
            ),
            Place(file_name),
            "sp_mixed",
            names=", ".join(sorted(info.filename for info in tables)),
        )
    archive = zipfile.ZipFile(io.BytesIO(data))
    if any(info.file_size > MAX_MEMBER for info in members.values()):
        raise refusal(gettext_noop("a file in the zip is too large"), Place(file_name), "too_large")
    parsed = ParsedFile(file_name, "sp", view="Swiss Perfect 98")
    if "ini" in members:
        _settings(parsed, archive.read(members["ini"]).decode("cp1252", "replace"))
    players = read_dbf(archive.read(members["trn"]), members["trn"].filename, file_name)
    games = read_dbf(archive.read(members["sco"]), members["sco"].filename, file_name)
    by_id, withdrawn = {}, set()
    for row_number, row in enumerate(players, start=1):
        start = row.get("START_NO", "")
        if not start.isdigit():
            continue
        player = _player(parsed, row, Place(file_name, row=row_number, detail=members["trn"].filename))
        if not player.family_name:
            parsed.error(gettext_noop("the name is empty"), player.place, "no_name")
        parsed.players.append(player)
        by_id[row.get("ID")] = player.start_number
        if row.get("WITHDRAWAL", "").strip("0 "):
            withdrawn.add(player.start_number)
    check_unique_start_numbers(parsed)
    for row_number, row in enumerate(games, start=1):
        _game(parsed, row, by_id, withdrawn, Place(file_name, row=row_number, detail=members["sco"].filename))
    parsed.rounds = max(parsed.rounds, max((g.round for g in parsed.games), default=0))
    if not parsed.players:
        raise refusal(gettext_noop("no players in the .trn file"), Place(file_name), "no_players")
    parsed.note(
        gettext_noop(
            "Swiss Perfect stores no points for a bye a player asked for: such byes are read as half-point byes, "
            "and as no points for a player who withdrew."
        )
    )
    return parsed


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() and int(text) > 0 else None


def _player(parsed: ParsedFile, row: dict[str, str], place: Place) -> ParsedPlayer:
    birth_text = row.get("BIRTH_DATE", "")
    birth, precision = parse_date(birth_text)
    if birth_text.strip("0 ") and precision == UNKNOWN:
        parsed.warn(
            gettext_noop("the birth date '%(text)s' cannot be read"),
            Place(place.file, row=place.row, column="BIRTH_DATE", detail=place.detail),
            "bad_date",
            text=birth_text,
        )
    return ParsedPlayer(
        start_number=int(row["START_NO"]),
        family_name=" ".join(row.get("SURNAME", "").split()),
        given_names=" ".join(row.get("FIRSTNAME", "").split()),
        fide_id=_number(row.get("INTL_ID", "")),
        national_id=row.get("LOC_ID") or None,
        rating=_number(row.get("INTL_RTG", "")),
        national_rating=_number(row.get("LOC_RTG", "")),
        country=row.get("FEDER", "").upper()[:3],
        club=" ".join(row.get("CLUB", "").split()),
        birth_date=birth,
        birth_precision=precision,
        sex=SEXES.get(row.get("SEX", ""), ""),
        title=TITLES.get(row.get("TITLE", ""), ""),
        place=place,
    )


def _settings(parsed: ParsedFile, text: str) -> None:
    config = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        config.read_string(text)
    except configparser.Error:
        parsed.warn(gettext_noop("the .ini settings cannot be read"), Place(parsed.file_name), "bad_ini")
        return
    info = config["Tournament Info"] if config.has_section("Tournament Info") else {}
    parsed.name = info.get("Name", "").strip()
    parsed.chief_arbiter = info.get("Arbiter", "").strip()
    rounds = info.get("Rounds", "").strip()
    parsed.rounds = int(rounds) if rounds.isdigit() else 0


def _game(parsed: ParsedFile, row: dict, by_id: dict, withdrawn: set, place: Place) -> None:
    rnd_text, white_id, black_id = row.get("ROUND", ""), row.get("WHITE", "0"), row.get("BLACK", "0")
    if not rnd_text.isdigit() or white_id in ("", "0"):
        return  # an empty pairing row Swiss Perfect leaves behind
    rnd = int(rnd_text)
    cell_place = Place(place.file, row=place.row, detail=at_round(rnd))
    white = by_id.get(white_id)
    black = by_id.get(black_id) if black_id not in ("", "0") else None
    if white is None or (black_id not in ("", "0") and black is None):
        parsed.error(
            gettext_noop("the game refers to a player (ID %(id)s) who is not in the .trn file"),
            cell_place,
            "missing_player",
            id=white_id if white is None else black_id,
        )
        return
    score = row.get("W_SCORE", "0")
    if black is None:
        if score == "2":
            parsed.games.append(ParsedGame(rnd, white, None, WHITE_WINS, BYE, place=cell_place))
        elif white in withdrawn:
            parsed.games.append(ParsedGame(rnd, white, None, NO_RESULT, UNPLAYED, place=cell_place))
        else:
            parsed.games.append(ParsedGame(rnd, white, None, DRAW, HALF_BYE, place=cell_place))
        return
    kind_code = row.get("W_TYPE", "1")
    if kind_code in FORFEITS:
        parsed.games.append(ParsedGame(rnd, white, black, FORFEITS[kind_code], FORFEIT, place=cell_place))
        return
    result = {("2", "0"): WHITE_WINS, ("1", "1"): DRAW, ("0", "2"): BLACK_WINS}.get((score, row.get("B_SCORE", "")))
    if result is not None and "0" in (kind_code, row.get("B_TYPE", "1")):
        # A side's type 0: that side did not play over the board; the scores say who won by default.
        parsed.games.append(ParsedGame(rnd, white, black, result, FORFEIT, place=cell_place))
        return
    if result is None:
        parsed.error(
            gettext_noop("impossible scores %(white)s and %(black)s (in half points)"),
            cell_place,
            "impossible_result",
            white=score,
            black=row.get("B_SCORE", ""),
        )
        return
    parsed.games.append(ParsedGame(rnd, white, black, result, PLAYED, place=cell_place))
