"""A leave pauses the game (beyond the draft, as ICCF does): every clock of the game stands still
between two moments; a flag, a failure-to-reply filing and the 80 % reminder move past the
period by its length, and a move's time used leaves it out. Exact seconds, default control
(B = 10 800 s, N = 60 s). Pure: no database."""

import datetime

import pytest

from play.rules import clock
from play.rules import game as machine
from play.rules.clock import BLACK, WHITE, TimeControl


def at(hms: str, day: str = "2026-05-01") -> datetime.datetime:
    return datetime.datetime.fromisoformat(f"{day}T{hms}+00:00")


START = at("12:00:00")  # White's receipt: 12:01:00
LEAVE = (at("13:00:00"), at("15:00:00"))  # 7 200 s


def test_it_moves_the_reminder_and_the_filing_past_the_leave():
    state = clock.start(TimeControl(), START)
    # Without a leave: reminder at 12:01:00 + 8 640 s, filing at s + N = 12:01:00 + 10 801 + 60 s.
    assert (state.reminder_at, state.filing_at) == (at("14:25:00"), at("15:02:01"))
    paused = clock.pause(state, *LEAVE)
    # 3 540 s run before the leave; the rest after 15:00:00: 5 100 s and 7 321 s.
    assert paused.reminder_at == at("16:25:00")
    assert paused.filing_at == at("17:02:01")
    assert paused.next_due == at("16:25:00")


def test_it_files_no_claim_and_sends_no_reminder_for_the_paused_period():
    paused = clock.pause(clock.start(TimeControl(), START), *LEAVE)
    state, events = clock.advance(paused, at("16:24:59"))
    assert events == [] and state.reminded is False
    state, events = clock.advance(state, at("17:02:01"))  # the same second: not yet
    assert [type(e).__name__ for e in events] == ["Reminder"]
    state, events = clock.advance(state, at("17:02:02"))
    (claim,) = events
    assert (claim.filed, claim.against, claim.total, claim.allowance) == (at("17:02:01"), WHITE, 10_861, 10_800)


def test_it_leaves_the_paused_seconds_out_of_a_moves_time_used():
    paused = clock.pause(clock.start(TimeControl(), START), *LEAVE)
    state, timing, events = clock.apply_move(paused, at("15:30:00"))
    # 12:01:00 to 15:30:00 is 12 540 s, of which 7 200 on leave.
    assert (timing.used, timing.total, events) == (5_340, 5_340, [])
    assert state.receipt == at("15:31:00")
    assert clock.pause(clock.start(TimeControl(), START), *LEAVE).shown(WHITE, at("14:00:00")) == (3_540, 7_260)


def test_it_stops_the_opponents_clock_too():
    state, _, _ = clock.apply_move(clock.start(TimeControl(), START), at("12:31:00"))  # White used 1 800 s
    state = clock.pause(state, at("13:00:00"), at("15:00:00"))
    # Black on move from 12:32:00: 28 min before the leave, 31 min after it.
    state, timing, _ = clock.apply_move(state, at("15:31:00"))
    assert (timing.color, timing.used) == (BLACK, 3_540)
    assert state.shown(WHITE, at("15:33:00")) == (1_800 + 60, 10_800 - 1_860)  # receipt 15:32:00


def test_it_reaches_an_instant_at_a_pauses_start_before_the_pause():
    pauses = clock.pause(clock.start(TimeControl(), START), *LEAVE).pauses
    assert clock.run_until(pauses, at("12:01:00"), 3_540) == at("13:00:00")
    assert clock.run_until(pauses, at("12:01:00"), 3_541) == at("15:00:01")
    assert clock.running_seconds(pauses, at("12:01:00"), at("15:00:01")) == 3_541
    assert clock.running_seconds(pauses, at("14:00:00"), at("14:30:00")) == 0


def test_it_counts_overlapping_pauses_once_and_refuses_an_empty_one():
    state = clock.pause(clock.start(TimeControl(), START), at("13:00:00"), at("15:00:00"))
    state = clock.pause(state, at("14:00:00"), at("16:00:00"))
    assert state.pauses == ((at("13:00:00"), at("16:00:00")),)
    assert clock.paused_seconds(state.pauses, at("12:00:00"), at("18:00:00")) == 10_800
    with pytest.raises(ValueError, match="ends after it begins"):
        clock.pause(state, at("15:00:00"), at("15:00:00"))


def test_it_pauses_the_machines_game_and_the_sweeper_waits_for_the_leave():
    game = machine.pause(machine.new_game(START), *LEAVE)
    assert machine.next_due(game) == at("16:25:00")
    game, send = machine.advance(game, at("15:02:02"))  # the unpaused filing instant has passed
    assert send == () and game.claims == ()
    game, received = machine.receive(game, WHITE, "e4", at("15:30:00"))
    assert received.applied == "move" and game.moves[0].timing.used == 5_340


# --- a claim's protest window (rule 7c) and a leave ----------------------------------------------------

FILED = at("17:02:01")  # the failure-to-reply claim of test_it_files_no_claim_and_sends_no_reminder_...


def test_it_moves_the_end_of_a_protest_window_by_the_leave_inside_it():
    # Without a leave: filed + N + 86 400 s = the next day 17:03:01.
    assert clock.protest_deadline(FILED, 60) == at("17:03:01", "2026-05-02")
    # A two-day leave from the next morning: the window stops for 172 800 s of it.
    leave = ((at("08:00:00", "2026-05-02"), at("08:00:00", "2026-05-04")),)
    assert clock.protest_deadline(FILED, 60, leave) == at("17:03:01", "2026-05-04")
    # A leave after the window or before the claim does not move it.
    later = ((at("18:00:00", "2026-05-02"), at("18:00:00", "2026-05-04")),)
    assert clock.protest_deadline(FILED, 60, later) == at("17:03:01", "2026-05-02")
    assert clock.protest_deadline(FILED, 60, (LEAVE,)) == at("17:03:01", "2026-05-02")


def test_it_concedes_a_claim_only_after_the_window_moved_by_a_leave_and_accepts_a_protest_till_then():
    state, (claim,) = clock.advance(clock.start(TimeControl(), START), at("15:02:02"))
    assert claim.filed == at("15:02:01")
    leave = (at("08:00:00", "2026-05-02"), at("08:00:00", "2026-05-03"))  # one day
    paused = clock.pause(state, *leave)
    assert paused.protest_deadline(claim) == at("15:03:01", "2026-05-03")
    assert paused.next_due == at("15:03:01", "2026-05-03")
    # Past the window's end without the leave: not conceded, and a protest is still in time.
    still, events = clock.advance(paused, at("15:03:02", "2026-05-02"))
    assert events == [] and still.windows == (claim,)
    assert clock.protest(still, WHITE, at("12:00:00", "2026-05-03"))[1] == claim
    # Past the moved end: conceded at it.
    done, (conceded,) = clock.advance(paused, at("15:03:02", "2026-05-03"))
    assert (conceded.claim, conceded.at, done.windows) == (claim, at("15:03:01", "2026-05-03"), ())
