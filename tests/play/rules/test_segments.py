"""SMS segments (GSM 03.38, 3GPP TS 23.040 concatenation) and the compact SMS texts, pure: the
numbers are the standard's (160/153 septets, 70/67 UTF-16 code units)."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from play.rules import segments
from play.rules.segments import encoding, segment_count, split_numbered
from play.rules.sms_texts import move_forms, render_sms, sms_parts

CYRILLIC = "Ход"  # 3 characters outside the GSM alphabet


class TestEncoding:
    def test_it_keeps_the_default_alphabet_and_its_extension_in_gsm7(self):
        assert encoding("12. Nf3 @£$¥ èéù ÄÖÑÜ§¿ äöñüà ΔΦΓΛΩΠΨΣΘΞ\n") == "GSM-7"
        assert encoding("€ [ ] { } \\ | ^ ~") == "GSM-7"

    def test_it_needs_ucs2_for_cyrillic_an_em_dash_and_an_emoji(self):
        assert encoding("Кf3") == "UCS-2"
        assert encoding("1. e4 — Black to play") == "UCS-2"
        assert encoding("ok 👍") == "UCS-2"
        assert encoding("ç") == "UCS-2"  # the alphabet has only the capital Ç

    def test_it_counts_extension_characters_as_two_septets(self):
        assert segments.length("€") == 2
        assert segments.length("a€[") == 5
        assert segments.length("abc") == 3

    def test_it_counts_an_emoji_as_two_utf16_code_units(self):
        assert segments.length("👍") == 2
        assert segments.length("Ход👍") == 5


class TestSegmentCount:
    def test_it_sends_160_gsm_characters_in_one_sms_and_161_in_two(self):
        assert segment_count("a" * 160) == 1
        assert segment_count("a" * 161) == 2

    def test_it_packs_153_septets_a_part_when_concatenated(self):
        assert segment_count("a" * 306) == 2
        assert segment_count("a" * 307) == 3
        assert segment_count("a" * 459) == 3

    def test_it_counts_the_euro_sign_twice(self):
        assert segment_count("€" * 80) == 1
        assert segment_count("a" * 159 + "€") == 2
        assert segment_count("a" * 158 + "€") == 1

    def test_it_never_cuts_an_escape_from_its_character(self):
        # 152 septets then a 2-septet €: the € goes whole into the second part.
        assert segment_count("a" * 152 + "€" + "a" * 152) == 3
        assert segment_count("a" * 151 + "€" + "a" * 153) == 2

    def test_it_sends_70_cyrillic_characters_in_one_sms_and_71_in_two(self):
        assert segment_count("ж" * 70) == 1
        assert segment_count("ж" * 71) == 2
        assert segment_count("ж" * 134) == 2
        assert segment_count("ж" * 135) == 3

    def test_it_turns_a_whole_latin_text_into_ucs2_with_one_cyrillic_letter(self):
        assert segment_count("a" * 69 + "ж") == 1
        assert segment_count("a" * 70 + "ж") == 2

    def test_it_counts_an_emoji_as_two_units_and_never_splits_it(self):
        assert segment_count("👍" * 35) == 1
        assert segment_count("a" * 69 + "👍") == 2
        # 66 units then an emoji: 68 would exceed 67, so the emoji opens the second part.
        assert segment_count("a" * 66 + "👍" + "a" * 66) == 3

    def test_it_counts_an_empty_text_as_one_sms(self):
        assert segment_count("") == 1


class TestSplitNumbered:
    def test_it_leaves_a_text_of_one_sms_whole_and_unnumbered(self):
        assert split_numbered("12. Nf3", prefix="#K7QX2M ") == ["#K7QX2M 12. Nf3"]

    def test_it_numbers_the_parts_of_a_long_text(self):
        text = " ".join(["word"] * 50)  # 249 characters
        parts = split_numbered(text, prefix="#K7QX2M ")
        assert [p[:14] for p in parts] == ["#K7QX2M (1/2) ", "#K7QX2M (2/2) "]
        assert all(segment_count(p) == 1 for p in parts)
        # 160 - 14 = 146 room: 29 words of 4 and 28 spaces are 144, a 30th would need 149.
        assert len(parts[0]) == 14 + 144 and len(parts[1]) == 14 + 21 * 5 - 1

    def test_it_widens_the_numbering_for_ten_parts_or_more(self):
        parts = split_numbered(" ".join(["abcdefghi"] * 200), prefix="#K7QX2M ")
        assert len(parts) >= 10
        assert parts[0].startswith("#K7QX2M (1/") and parts[-1].startswith(f"#K7QX2M ({len(parts)}/{len(parts)}) ")
        assert all(segment_count(p) == 1 for p in parts)

    def test_it_decides_each_parts_encoding_on_its_own_text(self):
        latin = " ".join(["move"] * 20)
        parts = split_numbered(f"{latin} {CYRILLIC} {latin}")
        assert [encoding(p) for p in parts] == ["GSM-7", "UCS-2", "GSM-7"]
        assert all(segment_count(p) == 1 for p in parts)
        ucs2 = parts[1]
        assert len(ucs2) <= 70 and CYRILLIC in ucs2

    def test_it_cuts_a_word_longer_than_a_part_between_characters(self):
        word = "x" * 400
        parts = split_numbered(word)
        chunks = [re.sub(r"^\(\d+/\d+\) ", "", p) for p in parts]
        assert "".join(chunks) == word
        assert [len(p) for p in parts] == [160, 160, 98]

    def test_it_sends_a_text_made_long_by_blanks_alone_as_one_sms(self):
        assert split_numbered("  draw?" + " " * 200, prefix="#K7QX2M ") == ["#K7QX2M draw?"]
        assert split_numbered(" " * 200) == [""]

    def test_it_refuses_a_prefix_that_leaves_no_room(self):
        with pytest.raises(ValueError, match="no room"):
            split_numbered("a b", prefix="#" * 160)


LABEL = re.compile(r"^\((\d+)/(\d+)\) ")
words = st.text(
    alphabet=st.sampled_from("abcxyz09.+#=€[]жЖй👍ÅΔ"), min_size=1, max_size=25
)  # GSM, extension, Cyrillic, emoji


@settings(max_examples=300, deadline=None)
@given(st.lists(words, min_size=1, max_size=120), st.sampled_from(["", "#K7QX2M ", "#ABCDEFGHJKLMNPQRSTUVWXYZ "]))
def test_it_cuts_any_text_into_single_sms_that_give_it_back_word_for_word(items, prefix):
    text = " ".join(items)
    parts = split_numbered(text, prefix=prefix)
    assert all(segment_count(p) == 1 for p in parts)
    assert all(p.startswith(prefix) for p in parts)
    if len(parts) == 1:
        assert parts == [prefix + text]
        return
    chunks = []
    for index, part in enumerate(parts, 1):
        label = LABEL.match(part.removeprefix(prefix))
        assert label and (int(label[1]), int(label[2])) == (index, len(parts))
        chunks.append(part.removeprefix(prefix)[label.end() :])
    assert " ".join(chunks).split() == text.split()


SAN = st.from_regex(r"(O-O(-O)?|[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|([a-h]x)?[a-h][1-8](=[QRBN])?)[+#]?", fullmatch=True)


def iso(day, hour, minute, second):
    return f"2026-{1 + day % 12:02d}-{1 + day % 28:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"


moments = st.builds(iso, st.integers(0, 400), st.integers(0, 23), st.integers(0, 59), st.integers(0, 59))
# Clocks of correspondence-like controls: up to 9999 hours (416 days) used, left or overdrawn.
seconds = st.integers(0, 9999 * 3600 + 3599)


@st.composite
def move_data(draw):
    ply = draw(st.integers(1, 1998))
    number = f"{(ply + 1) // 2}." if ply % 2 else f"{ply // 2}..."
    conditional = draw(st.booleans())
    return {
        "ply": ply,
        "move": f"{number} {draw(SAN)}",
        "conditional": conditional,
        "draw_offer": not conditional and draw(st.booleans()),  # a conditional reply offers nothing
        "previous_receipt": draw(st.none() | moments),
        "sent": draw(moments),
        "used": draw(seconds),
        "clocks": {
            color: {"used": draw(seconds), "left": draw(seconds) * draw(st.sampled_from([1, -1]))}
            for color in ("white", "black")
        },
    }


@settings(max_examples=400, deadline=None)
@given(move_data(), st.sampled_from(["acknowledgement", "move"]))
def test_it_fits_every_acknowledgement_and_notice_in_one_gsm7_sms(data, kind):
    text = sms_parts(kind, data, prefix="#K7QX2M ")
    assert len(text) == 1
    assert encoding(text[0]) == "GSM-7" and segment_count(text[0]) == 1


def data_of(**overrides):
    data = {
        "ply": 23,
        "move": "12. Nf3",
        "conditional": False,
        "draw_offer": False,
        "previous_receipt": "2026-11-24T11:57:03Z",
        "sent": "2026-11-24T12:00:03Z",
        "used": 180,
        "clocks": {"white": {"used": 7197, "left": 3603}, "black": {"used": 180, "left": 10620}},
    }
    return {**data, **overrides}


class TestCompactMoveTexts:
    def test_it_says_everything_a_move_carries_in_the_most_worded_form_that_fits(self):
        text = render_sms("acknowledgement", data_of(), prefix="#K7QX2M ")
        assert text == (
            "OK 12. Nf3 sent 24.11 12:00:03 used 0:03:00, prev move rcvd 24.11 11:57:03. "
            "W used 1:59:57 left 1:00:03; B used 0:03:00 left 2:57:00"
        )
        assert len("#K7QX2M " + text) == 140

    def test_it_drops_words_not_facts_when_the_clocks_run_to_days(self):
        data = data_of(
            move="123... Qa1xh8+",
            draw_offer=True,
            previous_receipt="2026-11-21T11:57:03Z",
            used=260000,
            clocks={"white": {"used": 3599999, "left": -3599999}, "black": {"used": 3599999, "left": 3599999}},
        )
        text = "#K7QX2M " + render_sms("move", data, prefix="#K7QX2M ")
        assert text == (
            "#K7QX2M Opp 123... Qa1xh8+ draw? sent 24.11 12:00:03 used 72:13:20, prev rcvd 21.11 11:57:03. "
            "Used/left W 999:59:59/-999:59:59 B 999:59:59/999:59:59"
        )
        assert segment_count(text) == 1

    def test_it_leaves_out_the_receipts_date_only_when_it_is_the_sending_date(self):
        forms = move_forms("move", data_of())
        assert "prev rcvd 11:57:03." in forms[-1]
        other_day = move_forms("move", data_of(previous_receipt="2026-11-23T11:57:03Z"))
        assert "prev rcvd 23.11 11:57:03." in other_day[-1]

    def test_it_marks_a_conditional_move_and_a_draw_offer(self):
        assert render_sms("move", data_of(conditional=True)).startswith("Opp 12. Nf3 (cond) sent")
        assert render_sms("acknowledgement", data_of(draw_offer=True)).startswith("OK 12. Nf3 draw? sent")

    def test_it_keeps_the_position_of_a_referral_in_gsm7(self):
        data = {"reason": "illegal", "explanation": "'Nf6' is not legal", "position": "1. e4 — Black to play move 1"}
        assert render_sms("referral", data).endswith("Position: 1. e4 - Black to play move 1.")
        assert encoding(render_sms("referral", data)) == "GSM-7"

    def test_it_splits_a_referral_quoting_cyrillic_into_sms_of_70(self):
        data = {
            "reason": "illegal",
            "explanation": "'Кf6' is not a legal move in this position",
            "position": "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 — White to play move 4",
        }
        parts = sms_parts("referral", data, prefix="#K7QX2M ")
        assert len(parts) > 1
        quoting = [p for p in parts if "Кf6" in p]
        assert len(quoting) == 1 and encoding(quoting[0]) == "UCS-2" and len(quoting[0]) <= 70
        assert all(segment_count(p) == 1 for p in parts)


class TestTelegramParts:
    def test_it_sends_4096_characters_as_one_message_and_4097_as_two(self):
        assert segments.split_telegram("a" * 4096) == ["a" * 4096]
        # "(1/2) " and 4,090 a; "(2/2) " and the 7 left.
        assert [len(p) for p in segments.split_telegram("a" * 4097)] == [4096, 13]

    def test_it_counts_the_prefix_and_an_emoji_as_two_units_in_the_4096(self):
        assert len(segments.split_telegram("b" * 4088, prefix="#K7QX2M ")) == 1  # 8 + 4088
        assert len(segments.split_telegram("👍" * 2048)) == 1
        parts = segments.split_telegram("👍" * 2049)
        assert [len(p.encode("utf-16-le")) // 2 for p in parts] == [4096, 14]  # a pair is never cut
        assert parts == ["(1/2) " + "👍" * 2045, "(2/2) " + "👍" * 4]

    def test_it_cuts_at_words_and_numbers_every_part(self):
        text = " ".join(["word"] * 2000)  # 9,999 characters
        parts = segments.split_telegram(text, prefix="#G1 ")
        assert [p[:10] for p in parts] == ["#G1 (1/3) ", "#G1 (2/3) ", "#G1 (3/3) "]
        assert all(len(p) <= 4096 for p in parts)
        assert " ".join(p[10:] for p in parts).split() == text.split()
