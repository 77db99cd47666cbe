"""Invisible and direction-changing characters: `players.names.strip_invisible`, the one cleaner."""

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from players.names import character_name, is_invisible, strip_invisible

# The characters the issue names and their friends: bidi embeddings and overrides, isolates,
# zero-width space, non-joiner, joiner, the direction marks, the byte-order mark, the soft hyphen.
NAMED = [chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A), *range(0x200B, 0x2010), 0xFEFF, 0x00AD]]
OTHERS = ["\u061c", "\u2060", "\u2028", "\u2029", "\u3164", "\ufe0f", "\U000e0041", "\x00", "\x1b", "\x7f", "\x85"]
INVISIBLE = NAMED + OTHERS

# Visible text of every script: letters, marks, digits, punctuation, symbols and spaces.
visible_text = st.text(
    alphabet=st.characters(
        whitelist_categories=("Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Nd", "Nl", "No", "P", "S", "Zs")
    ).filter(lambda char: not is_invisible(char)),
    max_size=40,
)


def test_it_removes_every_character_the_issue_names():
    for char in INVISIBLE:
        assert is_invisible(char), character_name(char)
        assert strip_invisible(f"Iva{char}nov") == ("Ivanov", [char])


def test_it_keeps_letters_of_every_script_and_spaces():
    for name in ("Иванов Пётр", "Müller-Łukasz", "Ωμέγα", "محمد", "אברהם", "王伟", "김민준", "देवनागरी", "Nguyễn Thị"):
        assert strip_invisible(name) == (name, [])
    assert strip_invisible("two\twords\nand\rlines") == ("two\twords\nand\rlines", [])
    assert strip_invisible("non\u00a0breaking") == ("non\u00a0breaking", [])


def test_it_names_the_removed_character():
    assert character_name("\u202e") == "RIGHT-TO-LEFT OVERRIDE (U+202E)"
    assert character_name("\u200b") == "ZERO WIDTH SPACE (U+200B)"
    assert character_name("\x1b") == "CONTROL CHARACTER (U+001B)"


@given(visible_text)
def test_it_leaves_visible_text_alone(text):
    assert strip_invisible(text) == (text, [])


@given(visible_text, st.lists(st.tuples(st.integers(min_value=0), st.sampled_from(INVISIBLE)), max_size=8))
def test_it_gives_back_the_text_without_what_was_slipped_in(text, insertions):
    dirty = text
    for position, char in insertions:
        cut = position % (len(dirty) + 1)
        dirty = dirty[:cut] + char + dirty[cut:]
    cleaned, removed = strip_invisible(dirty)
    assert cleaned == text
    assert removed == list(dict.fromkeys(char for char in dirty if char in INVISIBLE))


@given(st.text(max_size=60))
def test_it_leaves_nothing_invisible_and_is_idempotent(text):
    cleaned, removed = strip_invisible(text)
    assert not any(is_invisible(char) for char in cleaned)
    assert not any(unicodedata.category(char) == "Cf" for char in cleaned)
    assert strip_invisible(cleaned) == (cleaned, [])
    assert len(cleaned) + sum(text.count(char) for char in removed) == len(text)


def test_it_strips_the_names_typed_into_a_fide_rating_application():
    from players.forms import ApplicationForm

    form = ApplicationForm(
        {
            "new_family_name": "\u202eIvanov\u200b",
            "new_given_names": "Pe\u2066tr\u00ad",
            "new_birth_date": "2012-05-01",
            "fide_id": "24101234",
            "fide_rating": "1650",
            "rating_list_month": "2025-01",
        }
    )
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["new_family_name"], form.cleaned_data["new_given_names"]) == ("Ivanov", "Petr")


def test_it_finds_a_name_of_nothing_but_invisible_characters_empty():
    from players.forms import ApplicationForm

    form = ApplicationForm({"new_family_name": "\u202e\u200b", "fide_id": "1", "fide_rating": "1650"})
    assert not form.is_valid()
    assert "new_family_name" in form.errors


def test_it_never_stores_an_invisible_character_in_a_players_name(db):
    from tests.players.factories import PlayerFactory

    player = PlayerFactory(family_name="Ivanov\u202e", given_names="\u200bPetr", family_name_latin="Iva\u2066nov")
    player.refresh_from_db()
    assert (player.family_name, player.given_names, player.family_name_latin) == ("Ivanov", "Petr", "Ivanov")
