"""The rating run's own COPY text lines are what the generic writer makes of the same rows."""

import datetime
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from ratings.replay import CHANGE_COLUMNS, change_line
from toolkit.bulk import CopyStream

CREATED = datetime.datetime(2026, 11, 21, 12, 0, tzinfo=datetime.UTC)
STREAM = CopyStream([CHANGE_COLUMNS.index("details")], (CREATED,))
TAIL = STREAM.line_end

texts = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)
ratings = st.none() | st.integers(0, 3000)


def row(before, after, details, flags=(False, True, False, True), score=Decimal("6.5"), anchor=(4242, None)):
    was_provisional, provisional, guest, enters = flags
    return (17, *anchor, "orr", before, after, was_provisional, provisional, 9, score, guest, enters, details)


def test_it_writes_a_plain_row_as_the_generic_writer_does():
    details = {"category": "newcomer", "games": [[1, 10687, 841, 2, 51, False]], "state": {"stored": []}}
    line = change_line(row(1200, 1215, details), TAIL)
    assert line == STREAM.text_line(row(1200, 1215, details))
    assert line.startswith("17\t4242\t\\N\torr\t1200\t1215\tf\tt\t9\t6.5\tf\tt\t{")
    assert line.endswith("\t2026-11-21T12:00:00+00:00\n")


def test_it_writes_a_mobile_game_change_with_no_tournament():
    details = {"W": 250, "games": [[1, 2, 3]], "state": {}}
    line = change_line(row(0, 125, details, anchor=(None, 31)), TAIL)
    assert line == STREAM.text_line(row(0, 125, details, anchor=(None, 31)))
    assert line.startswith("17\t\\N\t31\torr\t0\t125\t")


def test_it_escapes_what_copy_text_escapes():
    details = {"note": 'tab\there, "quoted", back\\slash, new\nline, Юникод'}
    line = change_line(row(None, None, details, score=Decimal(0)), TAIL)
    assert line == STREAM.text_line(row(None, None, details, score=Decimal(0)))
    assert "\t\\N\t\\N\t" in line
    assert line.count("\n") == 1 and line.count("\t") == len(CHANGE_COLUMNS)


@given(
    before=ratings,
    after=ratings,
    details=st.dictionaries(texts, json_values, max_size=4),  # a run's details are always an object
    flags=st.tuples(*[st.booleans()] * 4),
)
def test_it_always_agrees_with_the_generic_writer(before, after, details, flags):
    assert change_line(row(before, after, details, flags), TAIL) == STREAM.text_line(row(before, after, details, flags))
