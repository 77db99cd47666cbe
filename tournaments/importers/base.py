"""What every importer returns: one plain description of a result file.

Importers do not touch the database. They read a file into `ParsedFile` (the
tournament's header, its players and its games) and collect `Problem`s, each of
which names the place in the file a person must look at: file, sheet, row and
column for spreadsheets, line and columns for TRF and PGN. Messages are msgids with
their values (`Text`), turned into words in the reader's language where they are shown.
"""

from __future__ import annotations

import datetime
from dataclasses import asdict, dataclass, field
from decimal import Decimal

from django.utils.translation import gettext, gettext_noop

from players.names import strip_invisible

ERROR = "error"
WARNING = "warning"

# Game kinds and results, the same strings as tournaments.models.Game.
PLAYED, FORFEIT, BYE, HALF_BYE, UNPLAYED, SHORT = "played", "forfeit", "bye", "half_bye", "unplayed", "short"
WHITE_WINS, DRAW, BLACK_WINS, NO_RESULT = "1-0", "1/2-1/2", "0-1", "0-0"

RESULTS = "results"  # a crosstable, TRF or PGN: players and games
PLAYER_LIST = "player_list"  # a starting-rank list: players only


def _shown(value, translate: bool):
    if isinstance(value, Text | Place):
        return value.render(translate)
    return value


@dataclass(frozen=True)
class Text:
    """Words for a person, turned into his language only where they are shown.

    Importers run in a request, a worker or a command, and a stored preview is read later by an
    arbiter whose language the importer cannot know. So a message is kept as its English msgid
    (with named %(placeholders)s) and the values, and translated by `str()` in the language
    active where it is shown. Values may be Texts or Places themselves.
    """

    msgid: str
    params: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, msgid: str, **params) -> Text:
        return cls(msgid, _params(params))

    def render(self, translate: bool = True) -> str:
        template = gettext(self.msgid) if translate else self.msgid
        if not self.params:
            return template
        return template % {key: _shown(value, translate) for key, value in self.params}

    def __str__(self) -> str:
        return self.render()

    def as_dict(self) -> dict:
        return {"msgid": self.msgid, "params": {key: _plain_param(value) for key, value in self.params}}

    @classmethod
    def from_dict(cls, data: dict) -> Text:
        return cls.of(data["msgid"], **{key: _param_from_plain(value) for key, value in data["params"].items()})


def _params(params: dict) -> tuple[tuple[str, object], ...]:
    # Values quote the file (names, cells): a direction override there would turn the message around.
    return tuple((key, strip_invisible(value)[0] if isinstance(value, str) else value) for key, value in params.items())


def _plain_param(value):
    if isinstance(value, Text):
        return {"text": value.as_dict()}
    if isinstance(value, Place):
        return {"place": value.as_dict()}
    if isinstance(value, int | str | float | None):
        return value
    return str(value)  # Decimal points, dates: as the English message would show them


def _param_from_plain(value):
    if isinstance(value, dict) and "text" in value:
        return Text.from_dict(value["text"])
    if isinstance(value, dict) and "place" in value:
        return Place.from_dict(value["place"])
    return value


@dataclass(frozen=True)
class Place:
    """Where in the file something is."""

    file: str
    sheet: str | None = None
    row: int | None = None  # 1-based, as spreadsheet programs and editors show it
    column: str | None = None  # a spreadsheet letter ("I") or a TRF column range ("92-95")
    line: int | None = None
    detail: Text | None = None  # e.g. "round 3"

    def render(self, translate: bool = True) -> str:
        def say(msgid, **params):
            return Text.of(msgid, **params).render(translate)

        parts = [strip_invisible(self.file)[0]]
        if self.sheet is not None:
            parts.append(say(gettext_noop("sheet '%(sheet)s'"), sheet=self.sheet))
        if self.row is not None:
            parts.append(say(gettext_noop("row %(row)s"), row=self.row))
        if self.line is not None:
            parts.append(say(gettext_noop("line %(line)s"), line=self.line))
        if self.column is not None:
            parts.append(say(gettext_noop("column %(column)s"), column=self.column))
        if self.detail:
            parts.append(_shown(self.detail, translate))
        return ", ".join(parts)

    def __str__(self) -> str:
        return self.render()

    def as_dict(self) -> dict:
        data = {key: getattr(self, key) for key in ("file", "sheet", "row", "column", "line")}
        data["detail"] = self.detail.as_dict() if isinstance(self.detail, Text) else self.detail
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Place:
        detail = data.get("detail")
        return cls(
            data["file"],
            sheet=data.get("sheet"),
            row=data.get("row"),
            column=data.get("column"),
            line=data.get("line"),
            detail=Text.from_dict(detail) if isinstance(detail, dict) else detail,
        )


def at_round(rnd: int) -> Text:
    return Text.of(gettext_noop("round %(round)s"), round=rnd)


@dataclass(frozen=True)
class Problem:
    severity: str  # ERROR stops the import; WARNING is shown and may be accepted
    msgid: str  # English, with %(name)s placeholders: see Text
    place: Place
    code: str = ""  # a stable name for tests and for grouping in the preview
    params: tuple[tuple[str, object], ...] = ()
    link: str = ""  # a page of this site the reader may open (his own earlier upload, say)

    @classmethod
    def of(cls, severity: str, msgid: str, place: Place, code: str = "", /, *, link: str = "", **params) -> Problem:
        return cls(severity, msgid, place, code, _params(params), link)

    @property
    def text(self) -> Text:
        return Text(self.msgid, self.params)

    @property
    def message(self) -> str:
        """In the language of the reader (the active one)."""
        return str(self.text)

    def __str__(self) -> str:
        return f"{self.place}: {self.message}"

    def as_dict(self) -> dict:
        """JSON-ready: the English words for people reading the stored JSON, what `shown` needs to translate."""
        return {
            "severity": self.severity,
            "message": self.text.render(translate=False),
            "where": self.place.render(translate=False),
            "code": self.code,
            "msgid": self.msgid,
            "params": self.text.as_dict()["params"],
            "place": self.place.as_dict(),
            "link": self.link,
        }


def shown(problem: dict) -> dict:
    """A stored problem in the reader's language: severity, code, message, where, link.

    Problems stored before messages were kept as msgid and values have only their English words."""
    if "msgid" not in problem:
        return {**problem, "link": problem.get("link", "")}
    text = Text.from_dict(problem)
    return {
        "severity": problem["severity"],
        "code": problem.get("code", ""),
        "message": str(text),
        "where": str(Place.from_dict(problem["place"])),
        "link": problem.get("link", ""),
    }


def shown_note(note) -> str:
    return str(Text.from_dict(note)) if isinstance(note, dict) else note


class ResultFileError(Exception):
    """The file cannot be read at all, or has errors; nothing may be saved."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(p.place.render(False) + ": " + p.text.render(False) for p in problems))


def refusal(msgid: str, place: Place, code: str, **params) -> ResultFileError:
    """The file cannot be read: one error."""
    return ResultFileError([Problem.of(ERROR, msgid, place, code, **params)])


@dataclass
class ParsedPlayer:
    start_number: int
    family_name: str
    given_names: str = ""
    fide_id: int | None = None
    national_id: str | None = None  # the federation's own id, when the file carries one
    # Another federation's id for the player, as the file gives it ("IND 70100010001" of a TRF26 national
    # record): kept and shown, never matched as this site's federation id.
    local_id: str = ""
    rating: int | None = None  # the rating column of the file (FIDE rating in FIDE exports)
    national_rating: int | None = None
    country: str = ""
    club: str = ""
    birth_date: datetime.date | None = None
    birth_precision: str = "unknown"  # "day", "year" or "unknown"
    sex: str = ""  # "M", "F" or ""
    title: str = ""
    points: Decimal | None = None  # as printed in the file
    rank: int | None = None
    place: Place | None = None  # the row or line of the player

    @property
    def display_name(self) -> str:
        return f"{self.family_name}, {self.given_names}" if self.given_names else self.family_name


@dataclass
class ParsedGame:
    round: int
    white: int  # start number
    black: int | None  # None for byes and unplayed rounds
    result: str
    kind: str = PLAYED
    board: int | None = None
    moves: str = ""
    place: Place | None = None

    def points(self, start_number: int) -> Decimal:
        if start_number == self.white:
            return {WHITE_WINS: Decimal(1), DRAW: Decimal("0.5")}.get(self.result, Decimal(0))
        return {BLACK_WINS: Decimal(1), DRAW: Decimal("0.5")}.get(self.result, Decimal(0))


@dataclass
class ParsedFile:
    file_name: str
    format: str  # xlsx, xls, trf, pgn
    content: str = RESULTS
    view: str = ""  # e.g. "ranking crosstable", "starting-rank crosstable", "TRF16"
    name: str = ""
    city: str = ""
    federation: str = ""
    start_date: datetime.date | None = None
    end_date: datetime.date | None = None
    rounds: int = 0
    round_dates: dict[int, datetime.date] = field(default_factory=dict)
    chief_arbiter: str = ""
    deputy_arbiters: list[str] = field(default_factory=list)
    time_control: str = ""
    details: dict[str, str] = field(default_factory=dict)  # other "Label : value" lines of the header
    players: list[ParsedPlayer] = field(default_factory=list)
    games: list[ParsedGame] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notes: list[Text] = field(default_factory=list)  # facts about the format worth telling the arbiter
    # The tie-breaks in the file's order (codes of tournaments.tiebreaks.rules.NAMES), where it names them.
    tiebreaks: list[str] = field(default_factory=list)
    # Where the header fields stand ("name" -> the line or row of the tournament's name), and the
    # column of each player field in tables (spreadsheet letters, TRF ranges): for messages.
    places: dict[str, Place] = field(default_factory=dict)
    columns: dict[str, str] = field(default_factory=dict)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == WARNING]

    def error(self, msgid: str, place: Place, code: str = "", /, **params) -> None:
        self.problems.append(Problem.of(ERROR, msgid, place, code, **params))

    def warn(self, msgid: str, place: Place, code: str = "", /, **params) -> None:
        self.problems.append(Problem.of(WARNING, msgid, place, code, **params))

    def note(self, msgid: str, **params) -> None:
        self.notes.append(Text.of(msgid, **params))

    def player(self, start_number: int) -> ParsedPlayer | None:
        for player in self.players:
            if player.start_number == start_number:
                return player
        return None

    def as_dict(self) -> dict:
        """JSON-ready, for the stored preview."""

        def plain(value):
            if isinstance(value, datetime.date):
                return value.isoformat()
            if isinstance(value, Decimal):
                return str(value)
            if isinstance(value, dict):
                return {str(k): plain(v) for k, v in value.items()}
            if isinstance(value, list | tuple):
                return [plain(v) for v in value]
            return value

        data = asdict(self)
        data["problems"] = [p.as_dict() for p in self.problems]
        data["notes"] = [note.as_dict() for note in self.notes]
        del data["places"], data["columns"]
        for item in data["players"] + data["games"]:
            item["place"] = None
        return plain(data)
