"""The clock rules of docs/rules/mobile-chess.md ("Clocks", "Time claims", "Edge cases"), one test
per rule with the specification's own numbers. Pure: no database."""

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from play.rules import clock
from play.rules.clock import BLACK, WHITE, ControlError, TimeControl
from tests.play import examples

UTC = datetime.UTC
DEFAULT = TimeControl()


def at(hms: str, day: str = "2026-05-01") -> datetime.datetime:
    return datetime.datetime.fromisoformat(f"{day}T{hms}+00:00")


# --- the time control ---------------------------------------------------------------------


def test_it_defaults_to_three_hours_for_thirty_moves_then_twenty_minutes_per_ten_norm_sixty():
    assert (DEFAULT.base, DEFAULT.moves, DEFAULT.extra, DEFAULT.every, DEFAULT.norm) == (10800, 30, 1200, 10, 60)
    assert TimeControl.parse() == DEFAULT
    assert TimeControl.parse("10800/30+1200/10") == DEFAULT
    assert str(DEFAULT) == "10800/30+1200/10"


def test_it_parses_an_event_control_and_norm():
    control = TimeControl.parse("7200/25+600/5", norm=120)
    assert (control.base, control.moves, control.extra, control.every, control.norm) == (7200, 25, 600, 5, 120)
    assert TimeControl.parse(" 5400 / 20 + 900 / 10 ", norm=30) == TimeControl(5400, 20, 900, 10, 30)


@pytest.mark.parametrize(
    "text",
    ["", "3h/30", "10800/30", "10800/30+1200", "10800/0+1200/10", "0/30+1200/10", "10800/30+1200/0", "-1/30+1/1", None],
)
def test_it_refuses_a_bad_control_with_a_clear_message(text):
    with pytest.raises(ControlError, match="control"):
        TimeControl.parse(text)


def test_it_refuses_a_negative_or_fractional_norm():
    with pytest.raises(ControlError, match="norm"):
        TimeControl.parse("10800/30+1200/10", norm=-1)
    with pytest.raises(ControlError, match="norm"):
        TimeControl.parse("10800/30+1200/10", norm=60.5)


def test_it_gives_the_spec_allowance_table():
    assert {DEFAULT.allowance(k) for k in range(1, 31)} == {10800}
    assert {DEFAULT.allowance(k) for k in range(31, 41)} == {12000}
    assert {DEFAULT.allowance(k) for k in range(41, 51)} == {13200}
    assert DEFAULT.allowance(51) == 14400


def test_it_counts_control_periods_as_moves_one_to_m_then_each_x():
    assert [DEFAULT.period(k) for k in (1, 30, 31, 40, 41, 50, 51)] == [0, 0, 1, 1, 2, 2, 3]
    assert DEFAULT.period_moves(0) == (1, 30)
    assert DEFAULT.period_moves(1) == (31, 40)
    assert DEFAULT.period_moves(2) == (41, 50)
    with pytest.raises(ValueError, match="move number"):
        DEFAULT.allowance(0)


# --- instants -----------------------------------------------------------------------------


def test_it_truncates_instants_to_the_whole_second_in_utc():
    moscow = datetime.timezone(datetime.timedelta(hours=3))
    assert clock.whole_second(datetime.datetime(2026, 2, 9, 3, 6, 23, 999_999, tzinfo=moscow)) == at(
        "00:06:23", "2026-02-09"
    )
    # a start at .208 s counts from the whole second: receipt start + N
    start = datetime.datetime(2026, 2, 9, 0, 4, 49, 208_000, tzinfo=UTC)
    assert clock.first_receipt(start, 60) == at("00:05:49", "2026-02-09")


def test_it_refuses_naive_datetimes():
    with pytest.raises(ValueError, match="time zone"):
        clock.whole_second(datetime.datetime(2026, 5, 1, 10))


def test_it_deems_a_message_received_at_dispatch_plus_norm_and_white_at_start_plus_norm():
    assert clock.first_receipt(at("10:00:00"), 60) == at("10:01:00")
    assert clock.receipt(at("10:05:30"), 60) == at("10:06:30")


def test_it_clamps_the_reported_sending_time_into_the_norm_before_arrival():
    arrival = at("10:16:30")
    assert clock.sending_time(arrival, None, 60) == arrival
    assert clock.sending_time(arrival, at("10:16:25"), 60) == at("10:16:25")
    assert clock.sending_time(arrival, at("10:10:00"), 60) == at("10:15:30")  # a phone clock far behind
    assert clock.sending_time(arrival, at("10:20:00"), 60) == arrival  # a phone clock ahead
    assert clock.sending_time(arrival, at("10:15:30"), 60) == at("10:15:30")  # the edge itself


def test_it_never_counts_negative_time_used():
    assert clock.time_used(at("10:05:30"), at("10:01:00")) == 270
    assert clock.time_used(at("08:28:41"), at("08:29:38")) == 0


# --- the worked example -------------------------------------------------------------------


def test_it_reproduces_the_worked_example():
    state = clock.start(DEFAULT, at("10:00:00"))
    assert state.receipt == at("10:01:00") and state.on_move == WHITE

    state, e4, events = clock.apply_move(state, at("10:05:30"))
    assert (e4.ply, e4.sent, e4.receipt, e4.used, e4.total) == (1, at("10:05:30"), at("10:01:00"), 270, 270)
    assert state.receipt == at("10:06:30") and state.on_move == BLACK

    state, c5, _ = clock.apply_move(state, at("10:16:30"))
    assert (c5.used, c5.total) == (600, 600)
    assert state.receipt == at("10:17:30")

    # the illegal "1... c5 2. Nf6" at 10:17:40 is referred back: the clock is not touched,
    # so receipt_k stays 10:17:30 for the accepted "2. Nf3" at 10:17:45
    state, nf3, events = clock.apply_move(state, at("10:17:45"))
    assert (nf3.receipt, nf3.used, nf3.total) == (at("10:17:30"), 15, 285)
    assert (state.white_total, state.black_total) == (285, 600)
    assert events == []


# --- time exceeded ------------------------------------------------------------------------


def _white_on_move_30(total_29=10700, receipt_at=None):
    """White on move 30 with T_29 = 10700, receipt 12:00:00 (the spec's flag example)."""
    return clock.ClockState(control=DEFAULT, ply=59, receipt=receipt_at or at("12:00:00"), white_total=total_29)


def test_it_finds_the_flag_second_of_the_spec():
    assert clock.flag_second(at("12:00:00"), 10800, 10700) == at("12:01:41")
    assert clock.no_reply_filing(at("12:00:00"), 10800, 10700, 60) == at("12:02:41")


def test_it_accepts_a_move_exactly_at_the_allowance_as_in_time():
    _state, timing, events = clock.apply_move(_white_on_move_30(), at("12:01:40"))
    assert (timing.used, timing.total, timing.allowance, timing.in_time) == (100, 10800, 10800, True)
    assert events == []


def test_it_files_a_claim_at_the_arrival_of_a_move_over_the_allowance():
    _state, timing, events = clock.apply_move(_white_on_move_30(), at("12:02:00"))
    assert (timing.total, timing.in_time) == (10820, False)
    [claim] = events
    assert (claim.against, claim.ply, claim.filed, claim.kind) == (WHITE, 59, at("12:02:00"), clock.EXCEEDED_BY_MOVE)
    assert (claim.total, claim.allowance) == (10820, 10800)


def test_it_files_a_failure_to_reply_claim_at_s_plus_n():
    state = _white_on_move_30()
    assert state.filing_at == at("12:02:41")
    _, events = clock.advance(state, at("12:02:41"))  # the deadline's own second is before it
    assert [e for e in events if isinstance(e, clock.Claim)] == []
    state, events = clock.advance(state, at("12:02:42"))
    [claim] = [e for e in events if isinstance(e, clock.Claim)]
    assert (claim.against, claim.ply, claim.filed, claim.kind) == (WHITE, 59, at("12:02:41"), clock.EXCEEDED_NO_REPLY)
    assert claim.total == 10800 + 61


def test_it_counts_a_move_in_the_filing_second_as_before_the_deadline():
    # the move arriving at s + N is applied first; it is itself over the allowance (T = 10861),
    # so its claim is filed at its arrival, the same instant: one claim, not two
    _state, _timing, events = clock.apply_move(_white_on_move_30(), at("12:02:41"))
    [claim] = events
    assert (claim.kind, claim.filed) == (clock.EXCEEDED_BY_MOVE, at("12:02:41"))


def test_it_files_the_failure_claim_before_a_later_move_and_no_second_claim_in_that_period():
    state, timing, events = clock.apply_move(_white_on_move_30(), at("12:05:00"))
    [claim] = [e for e in events if isinstance(e, clock.Claim)]
    assert (claim.kind, claim.filed) == (clock.EXCEEDED_NO_REPLY, at("12:02:41"))
    assert not timing.in_time  # the late move is still played: play goes on while a claim is open
    assert state.ply == 60


def test_it_files_at_most_one_claim_per_player_per_control_period():
    control = TimeControl(base=100, moves=2, extra=50, every=2)
    state = clock.start(control, at("10:00:00"))  # White's receipt 10:01:00
    state, _, events = clock.apply_move(state, at("10:03:00"))  # white 120 > 100: claim
    assert [e.ply for e in events] == [1]
    state, _, _ = clock.apply_move(state, at("10:03:30"))  # black
    state, _, events = clock.apply_move(state, at("10:04:40"))  # white move 2, still period 0
    assert events == [] and state.white_total == 130
    assert state.filing_at is not None  # Black's flag can still fall: only White's period is closed
    state, _, _ = clock.apply_move(state, at("10:04:50"))
    assert state.on_move == WHITE and state.can_claim  # move 3 is in period 1
    # White's move 3 opens period 1 with A(3) = 150: a further excess is a new claim
    state, timing, events = clock.apply_move(state, at("10:06:15"))  # receipt 10:05:50, T = 155
    assert (timing.allowance, timing.total) == (150, 155) and [(e.ply, e.period) for e in events] == [(5, 1)]


def test_it_files_no_claim_in_a_period_the_td_has_closed():
    state = clock.close_period(_white_on_move_30(), WHITE)
    assert state.filing_at is None
    _, timing, events = clock.apply_move(state, at("12:03:00"))
    assert not timing.in_time and events == []


def test_it_counts_td_credits_and_charges_in_the_total():
    state = clock.adjust(_white_on_move_30(), WHITE, -300)  # credit for a declared delay
    assert state.white_total == 10400 and state.filing_at == at("12:07:41")
    state = clock.adjust(state, WHITE, 60)  # a penalty
    assert state.white_total == 10460


# --- protests and concession --------------------------------------------------------------


def test_it_ends_the_protest_window_at_the_notice_receipt_plus_a_day():
    assert clock.protest_deadline(at("12:02:41"), 60) == at("12:03:41", "2026-05-02")


def _filed_claim():
    state, events = clock.advance(_white_on_move_30(), at("12:03:00"))
    return state, events[0]


def test_it_accepts_a_protest_arriving_in_the_window_last_second():
    state, claim = _filed_claim()
    state, protested = clock.protest(state, WHITE, at("12:03:41", "2026-05-02"))
    assert protested == claim and state.windows == ()


def test_it_refuses_a_protest_one_second_late_and_concedes_at_the_window_end():
    state, claim = _filed_claim()
    late = at("12:03:42", "2026-05-02")
    assert clock.protest(state, WHITE, late) == (state, None)
    assert clock.advance(state, at("12:03:41", "2026-05-02"))[1] == []
    state, events = clock.advance(state, late)
    assert events == [clock.Conceded(claim=claim, at=at("12:03:41", "2026-05-02"))]
    assert state.windows == ()


def test_it_takes_a_protest_only_from_the_player_claimed_against():
    state, _ = _filed_claim()
    assert clock.protest(state, BLACK, at("13:00:00"))[1] is None


# --- the 80 % reminder and the next due moment --------------------------------------------


def test_it_reminds_when_eighty_percent_of_the_time_left_is_gone_rounding_up():
    # move 1: R = 10800, 80 % = 8640 s after receipt
    assert clock.reminder_instant(at("10:01:00"), 10800, 0) == at("12:25:00")
    # R = 101: 80.8 s rounds up to 81 s
    assert clock.reminder_instant(at("12:00:00"), 10800, 10699) == at("12:01:21")
    assert clock.reminder_instant(at("12:00:00"), 10800, 10800) is None


def test_it_sends_the_reminder_once_per_move():
    state = clock.start(DEFAULT, at("10:00:00"))
    assert state.next_due == at("12:25:00")
    state, events = clock.advance(state, at("12:25:01"))
    assert events == [clock.Reminder(to=WHITE, ply=1, at=at("12:25:00"))]
    assert state.next_due == at("13:02:01")  # now the flag: 10:01:00 + 10801 s + N
    assert clock.advance(state, at("12:30:00"))[1] == []
    state, _, _ = clock.apply_move(state, at("12:40:00"))
    assert state.reminded is False and state.next_due == clock.reminder_instant(at("12:41:00"), 10800, 0)


def test_it_sends_no_reminder_after_the_flag_has_fallen():
    _state, events = clock.advance(_white_on_move_30(), at("13:00:00"))
    assert [type(e) for e in events] == [clock.Claim]


def test_it_gives_the_next_due_moment_as_the_earliest_of_flag_reminder_and_window_end():
    state, claim = _filed_claim()
    state, _, _ = clock.apply_move(state, at("12:04:00"))  # Black on move 30, T = 0
    reminder = clock.reminder_instant(at("12:05:00"), 10800, 0)
    assert state.next_due == reminder
    state = clock.finish(state)
    assert state.next_due == claim.protest_deadline  # the window runs on after the game ended
    state, _ = clock.protest(state, WHITE, at("12:10:00"))
    assert state.next_due is None


def test_it_refuses_a_move_before_the_previous_one_was_dispatched():
    state = clock.start(DEFAULT, at("10:00:00"))
    with pytest.raises(ValueError, match="cannot answer"):
        clock.apply_move(state, at("09:59:59"))


def test_it_takes_no_move_after_the_game_ended():
    with pytest.raises(ValueError, match="ended"):
        clock.apply_move(clock.finish(clock.start(DEFAULT, at("10:00:00"))), at("10:05:00"))


def test_it_gives_a_conditional_reply_zero_time():
    state, _, _ = clock.apply_move(clock.start(DEFAULT, at("10:00:00")), at("10:05:30"))
    state, _, _ = clock.apply_move(state, at("10:16:30"))
    # White's registered reply is played at the arrival of Black's move, sent at that arrival
    state, timing, _ = clock.apply_move(state, at("10:16:30"), reported=at("10:16:30"))
    assert timing.used == 0 and state.receipt == at("10:17:30")


# --- properties ---------------------------------------------------------------------------

controls = st.builds(
    TimeControl,
    base=st.integers(1, 20_000),
    moves=st.integers(1, 60),
    extra=st.integers(0, 3_000),
    every=st.integers(1, 20),
    norm=st.integers(0, 600),
)
START = at("10:00:00")


@given(controls, st.lists(st.tuples(st.integers(0, 4_000), st.none() | st.integers(-200, 200)), max_size=40))
def test_it_keeps_each_total_the_sum_of_that_players_uses(control, replies):
    state = clock.start(control, START)
    arrival = START
    uses = {WHITE: 0, BLACK: 0}
    for delay, offset in replies:
        arrival = arrival + datetime.timedelta(seconds=delay)
        reported = None if offset is None else arrival + datetime.timedelta(seconds=offset)
        state, timing, _ = clock.apply_move(state, arrival, reported)
        assert arrival - datetime.timedelta(seconds=control.norm) <= timing.sent <= arrival
        uses[timing.color] += timing.used
        assert timing.total == uses[timing.color]
    assert (state.white_total, state.black_total) == (uses[WHITE], uses[BLACK])


@given(controls, st.integers(1, 200), st.integers(0, 30_000))
def test_it_is_in_time_exactly_at_the_allowance_and_late_one_second_more(control, move, before):
    allowance = control.allowance(move)
    receipt_at = at("12:00:00")
    state = clock.ClockState(control=control, ply=2 * move - 1, receipt=receipt_at, white_total=before)
    left = allowance - before
    if left >= 0:
        _, timing, events = clock.apply_move(state, receipt_at + datetime.timedelta(seconds=left))
        assert timing.total == allowance and timing.in_time and events == []
    _, timing, events = clock.apply_move(state, receipt_at + datetime.timedelta(seconds=max(left, 0) + 1))
    assert not timing.in_time and [e.ply for e in events] == [2 * move - 1]


@given(controls, st.integers(1, 200), st.integers(0, 30_000), st.integers(0, 40_000))
def test_it_never_files_before_the_allowance_is_exceeded(control, move, before, wait):
    receipt_at = at("12:00:00")
    state = clock.ClockState(control=control, ply=2 * move, receipt=receipt_at, black_total=before)
    _, events = clock.advance(state, receipt_at + datetime.timedelta(seconds=wait))
    for claim in events:
        if isinstance(claim, clock.Claim):
            elapsed = max(0, clock.seconds(claim.filed, receipt_at))
            assert before + elapsed > control.allowance(move)
            assert claim.filed >= clock.flag_second(receipt_at, control.allowance(move), before)


# --- the sample transcripts ---------------------------------------------------------------


def test_it_has_sample_transcripts_with_claims_of_both_kinds_and_every_status():
    claims = [claim for name in examples.names() for claim in examples.expected(name)["claims"]]
    assert {claim["status"] for claim in claims} == {"open", "protested", "conceded"}
    assert len(examples.names()) == 12


def test_it_shows_each_clock_live_with_the_time_left_to_the_next_control():
    state = _white_on_move_30()  # White on move 30 since 12:00:00 with T = 10700; Black T = 0
    assert state.shown(WHITE, at("11:59:00")) == (10700, 100)  # nothing runs before the receipt
    assert state.shown(WHITE, at("12:01:00")) == (10760, 40)
    assert state.shown(WHITE, at("12:02:00")) == (10820, -20)
    assert state.shown(BLACK, at("12:02:00")) == (0, 10800)  # Black's move 30 comes next
    state, _, _ = clock.apply_move(state, at("12:01:40"))
    assert state.shown(WHITE, at("13:00:00")) == (10800, 1200)  # White's next is move 31: A = 12000


def test_it_ends_the_appeal_window_at_the_decision_receipt_plus_a_day():
    assert clock.appeal_deadline(at("12:00:00"), 60) == at("12:01:00", "2026-05-02")


def test_it_opens_the_period_again_when_the_td_dismisses_a_claim_unless_he_rules_no_further_claim():
    state, claim = _filed_claim()  # White's failure to reply, move 30, filed 12:02:41
    state, _ = clock.protest(state, WHITE, at("12:10:00"))
    assert state.filing_at is None
    credited = clock.adjust(clock.dismiss(state, claim), WHITE, -600)  # the TD credits a delay
    assert credited.filing_at == at("12:12:41") and credited.next_due == at("12:12:41")
    closed = clock.dismiss(state, claim, no_further=True)
    assert closed.filing_at is None and closed.next_due is None


@given(
    controls,
    st.integers(1, 120),
    st.integers(0, 20_000),
    st.integers(0, 20_000),
    st.booleans(),
    st.booleans(),
)
def test_it_makes_next_due_the_first_second_after_which_a_sweep_has_work(control, ply, white, black, reminded, running):
    state = clock.ClockState(
        control=control,
        ply=ply,
        receipt=at("12:00:00"),
        white_total=white,
        black_total=black,
        reminded=reminded,
        running=running,
    )
    if not running:
        state, _ = clock.advance(clock.ClockState(control=control, ply=ply, receipt=at("12:00:00")), at("23:00:00"))
        state = clock.finish(state)
    due = state.next_due
    if due is None:
        assert clock.advance(state, at("12:00:00", "2026-06-01"))[1] == []
        return
    assert clock.advance(state, due)[1] == []
    assert clock.advance(state, due + datetime.timedelta(seconds=1))[1] != []
