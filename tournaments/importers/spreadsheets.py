"""Spreadsheets to plain grids of values, refusing what is unsafe or unreadable.

An .xlsx file is a zip archive: before openpyxl opens it, its members are checked
so that a small upload cannot unpack into gigabytes (a zip bomb). Cells with
formulas are refused: result files are exports of values, and a formula means the
sheet was edited by hand (its value may not even be stored).
"""

from __future__ import annotations

import io
import warnings
import zipfile
from dataclasses import dataclass, field

from django.utils.translation import gettext_noop

from tournaments.importers.base import ERROR, Place, Problem, ResultFileError, refusal

MAX_UNPACKED_BYTES = 64 * 1024 * 1024
MAX_RATIO = 100  # uncompressed / compressed, per member above 1 MiB
MAX_MEMBERS = 2000
MAX_ROWS = 20_000
MAX_COLUMNS = 400
TOO_LARGE = gettext_noop("the sheet is far larger than a tournament can be")


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = chr(65 + remainder) + letters
    return letters


@dataclass
class Grid:
    file_name: str
    sheet: str
    rows: list[tuple[int, list]] = field(default_factory=list)  # (1-based row number, values)

    def place(self, row: int | None = None, column: int | None = None, detail=None) -> Place:
        return Place(
            self.file_name,
            sheet=self.sheet,
            row=row,
            column=column_letter(column) if column is not None else None,
            detail=detail,
        )

    @property
    def is_empty(self) -> bool:
        return not any(_filled(v) for _, values in self.rows for v in values)


def _filled(value) -> bool:
    return value is not None and not (isinstance(value, str) and not value.strip())


def _fail(file_name: str, msgid: str, code: str, sheet: str | None = None, **params) -> ResultFileError:
    return refusal(msgid, Place(file_name, sheet=sheet), code, **params)


def check_zip(data: bytes, file_name: str) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise _fail(
            file_name, gettext_noop("the file is damaged or incomplete: it is not a readable .xlsx"), "damaged"
        ) from None
    with archive:
        members = archive.infolist()
        names = {m.filename for m in members}
        if "[Content_Types].xml" not in names or "xl/workbook.xml" not in names:
            raise _fail(file_name, gettext_noop("the archive is not an Excel workbook (.xlsx)"), "not_xlsx")
        if len(members) > MAX_MEMBERS:
            raise _fail(
                file_name,
                gettext_noop("the workbook has %(count)s parts; refused as unsafe"),
                "zip_bomb",
                count=len(members),
            )
        total = 0
        for member in members:
            total += member.file_size
            ratio = member.file_size / max(member.compress_size, 1)
            if member.file_size > 1024 * 1024 and ratio > MAX_RATIO:
                raise _fail(
                    file_name,
                    gettext_noop("'%(part)s' would unpack %(ratio)s times its size; refused as unsafe (a zip bomb)"),
                    "zip_bomb",
                    part=member.filename,
                    ratio=f"{ratio:.0f}",
                )
        if total > MAX_UNPACKED_BYTES:
            raise _fail(
                file_name,
                gettext_noop("the workbook unpacks to %(size)s MiB, more than a result file can be; refused"),
                "zip_bomb",
                size=total // (1024 * 1024),
            )
        bad = archive.testzip()
        if bad is not None:
            raise _fail(
                file_name, gettext_noop("the file is damaged: its part '%(part)s' cannot be read"), "damaged", part=bad
            )


def read_xlsx(data: bytes, file_name: str) -> list[Grid]:
    import openpyxl

    check_zip(data, file_name)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # openpyxl's complaints about styles are not the arbiter's business
            workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except Exception as exc:  # any failure here means a damaged workbook
        raise _fail(
            file_name, gettext_noop("the workbook cannot be opened (%(reason)s)"), "damaged", reason=type(exc).__name__
        ) from None
    grids = []
    problems = []
    try:
        for sheet in workbook.worksheets:
            grid = Grid(file_name, sheet.title)
            number = 0
            for row in sheet.iter_rows():
                # Empty cells carry no coordinates; a row without any follows the previous one.
                number = next((cell.row for cell in row if getattr(cell, "row", None)), number + 1)
                values = []
                for cell in row:
                    if cell.data_type == "f":
                        problems.append(
                            Problem.of(
                                ERROR,
                                gettext_noop("the cell holds a formula (%(formula)s); export the results as values"),
                                Place(file_name, sheet=sheet.title, row=cell.row, column=cell.column_letter),
                                "formula",
                                formula=str(cell.value)[:40],
                            )
                        )
                    values.append(cell.value)
                if len(values) > MAX_COLUMNS or len(grid.rows) >= MAX_ROWS:
                    raise _fail(file_name, TOO_LARGE, "too_large", sheet.title)
                while values and not _filled(values[-1]):
                    values.pop()
                grid.rows.append((number, values))
            grids.append(grid)
    except ResultFileError:
        raise
    except Exception as exc:
        raise _fail(
            file_name, gettext_noop("the workbook is damaged (%(reason)s)"), "damaged", reason=type(exc).__name__
        ) from None
    finally:
        workbook.close()
    if problems:
        raise ResultFileError(problems[:20])
    return grids


def read_xls(data: bytes, file_name: str) -> list[Grid]:
    import xlrd

    try:
        book = xlrd.open_workbook(file_contents=data, on_demand=True)
    except Exception as exc:  # xlrd raises many kinds for damaged files
        raise _fail(
            file_name, gettext_noop("the .xls file cannot be opened (%(reason)s)"), "damaged", reason=str(exc)
        ) from None
    grids = []
    try:
        for index in range(book.nsheets):
            sheet = book.sheet_by_index(index)
            if sheet.nrows > MAX_ROWS or sheet.ncols > MAX_COLUMNS:
                raise _fail(file_name, TOO_LARGE, "too_large", sheet.name)
            grid = Grid(file_name, sheet.name)
            for r in range(sheet.nrows):
                values = []
                for c in range(sheet.ncols):
                    kind = sheet.cell_type(r, c)
                    value = sheet.cell_value(r, c)
                    if kind in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK):
                        value = None
                    elif kind == xlrd.XL_CELL_NUMBER and float(value).is_integer():
                        value = int(value)
                    elif kind == xlrd.XL_CELL_ERROR:
                        value = None
                    values.append(value)
                while values and not _filled(values[-1]):
                    values.pop()
                grid.rows.append((r + 1, values))
            grids.append(grid)
            book.unload_sheet(index)
    finally:
        book.release_resources()
    return grids
