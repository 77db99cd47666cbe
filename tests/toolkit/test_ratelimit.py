"""The shared limiter (toolkit/ratelimit.py): a sliding-window counter. With the API's spec-like
numbers (120 a minute), the old fixed window let 2 × 120 through across a window's edge; the
sliding window lets through what is left of the limit, and a steady client gets exactly the limit."""

import pytest
from django.core.cache import cache

from toolkit import ratelimit

LIMIT, PERIOD = 120, 60
EDGE = 1_000_020.0  # the start of a window (16667 × 60)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def burst(key, at, n, *, sliding=True):
    return sum(ratelimit.hit(key, LIMIT, PERIOD, now=at, sliding=sliding).allowed for _ in range(n))


def test_a_fixed_window_lets_twice_the_limit_through_across_its_edge():
    """The old limiters' behaviour (fixed windows, still available as sliding=False)."""
    passed = burst("old", EDGE - 1, 200, sliding=False) + burst("old", EDGE + 1, 200, sliding=False)
    assert passed == 2 * LIMIT  # 240 in two seconds


def test_the_sliding_window_does_not():
    before = burst("new", EDGE - 1, 200)
    after = burst("new", EDGE + 1, 200)
    assert before == LIMIT
    assert after == 2  # 120 × (1 − 1/60) = 118 of the last window still weigh
    assert before + after < 2 * LIMIT
    # Half a window later half the last one has faded.
    assert burst("new", EDGE + 30, 200) == 60 - 2


def test_never_twice_the_limit_in_any_period():
    """A client that tries 10 a second for ten minutes: at most 2 × limit − 1 in any 60 s, and the
    limit on average."""
    times = []
    for tenth in range(6000):
        now = EDGE + tenth / 10
        if ratelimit.hit("steady", LIMIT, PERIOD, now=now).allowed:
            times.append(now)
    worst = max(sum(1 for t in times if start <= t < start + PERIOD) for start in times)
    assert worst < 2 * LIMIT
    assert abs(len(times) - 10 * LIMIT) <= LIMIT // 10


def test_a_refused_request_is_not_counted_and_says_how_long_to_wait():
    assert burst("wait", EDGE + 15, LIMIT) == LIMIT
    refused = ratelimit.hit("wait", LIMIT, PERIOD, now=EDGE + 15)
    assert (refused.allowed, refused.remaining, refused.reset) == (False, 0, 45)
    # In the next window, once 120 × (1 − f) + 1 ≤ 120: f ≥ 1/120, half a second in.
    assert refused.retry_after == 46
    for _ in range(50):
        ratelimit.hit("wait", LIMIT, PERIOD, now=EDGE + 20)  # refused, not counted
    assert not ratelimit.hit("wait", LIMIT, PERIOD, now=EDGE + PERIOD + 0.4).allowed
    assert ratelimit.hit("wait", LIMIT, PERIOD, now=EDGE + PERIOD + 0.6).allowed


def test_it_tells_what_is_left():
    decisions = [ratelimit.hit("left", 3, PERIOD, now=EDGE + 7) for _ in range(4)]
    assert [d.remaining for d in decisions] == [2, 1, 0, 0]
    assert [d.allowed for d in decisions] == [True, True, True, False]
    assert decisions[0].reset == 53 and decisions[0].retry_after == 0
    assert decisions[3].retry_after == 53 + 20  # 3 × (1 − f) + 1 ≤ 3 at f = 1/3 of the next window


def test_the_cache_down_is_an_error_for_hit_and_an_open_door_for_hit_or_open(caplog, monkeypatch):
    def down(*args, **kwargs):
        raise ConnectionError("redis down")

    monkeypatch.setattr(cache, "get", down)
    with pytest.raises(ConnectionError):
        ratelimit.hit("down", 1, PERIOD, now=EDGE)
    with caplog.at_level("WARNING", logger="toolkit.ratelimit"):
        decision = ratelimit.hit_or_open("down", 1, PERIOD, now=EDGE)
    assert decision.allowed
    assert "cache unavailable, rate limit not applied" in caplog.text


def test_the_counter_counts_atomically_from_one():
    assert [ratelimit.count("counter", 60) for _ in range(3)] == [1, 2, 3]
