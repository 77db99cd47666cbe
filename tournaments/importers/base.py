"""What every importer returns: one plain description of a result file.

Importers do not touch the database. They read a file into `ParsedFile` (the
tournament's header, its players and its games) and collect `Problem`s, each of
which names the place in the file a person must look at: file, sheet, row and
column for spreadsheets, line and columns for TRF and PGN.
"""

from __future__ import annotations

import datetime
from dataclasses import asdict, dataclass, field
from decimal import Decimal

ERROR = "error"
WARNING = "warning"

# Game kinds and results, the same strings as tournaments.models.Game.
PLAYED, FORFEIT, BYE, HALF_BYE, UNPLAYED, SHORT = "played", "forfeit", "bye", "half_bye", "unplayed", "short"
WHITE_WINS, DRAW, BLACK_WINS, NO_RESULT = "1-0", "1/2-1/2", "0-1", "0-0"

RESULTS = "results"  # a crosstable, TRF or PGN: players and games
PLAYER_LIST = "player_list"  # a starting-rank list: players only


@dataclass(frozen=True)
class Place:
    """Where in the file something is."""

    file: str
    sheet: str | None = None
    row: int | None = None  # 1-based, as spreadsheet programs and editors show it
    column: str | None = None  # a spreadsheet letter ("I") or a TRF column range ("92-95")
    line: int | None = None
    detail: str | None = None  # e.g. "round 3"

    def __str__(self) -> str:
        parts = [self.file]
        if self.sheet is not None:
            parts.append(f"sheet '{self.sheet}'")
        if self.row is not None:
            parts.append(f"row {self.row}")
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.column is not None:
            parts.append(f"column {self.column}")
        if self.detail:
            parts.append(self.detail)
        return ", ".join(parts)


@dataclass(frozen=True)
class Problem:
    severity: str  # ERROR stops the import; WARNING is shown and may be accepted
    message: str
    place: Place
    code: str = ""  # a stable name for tests and for grouping in the preview

    def __str__(self) -> str:
        return f"{self.place}: {self.message}"

    def as_dict(self) -> dict:
        return {"severity": self.severity, "message": self.message, "where": str(self.place), "code": self.code}


class ResultFileError(Exception):
    """The file cannot be read at all, or has errors; nothing may be saved."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


@dataclass
class ParsedPlayer:
    start_number: int
    family_name: str
    given_names: str = ""
    fide_id: int | None = None
    national_id: str | None = None  # the federation's own id, when the file carries one
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
    notes: list[str] = field(default_factory=list)  # facts about the format worth telling the arbiter

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == WARNING]

    def error(self, message: str, place: Place, code: str = "") -> None:
        self.problems.append(Problem(ERROR, message, place, code))

    def warn(self, message: str, place: Place, code: str = "") -> None:
        self.problems.append(Problem(WARNING, message, place, code))

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
        for item in data["players"] + data["games"]:
            item["place"] = None
        return plain(data)
