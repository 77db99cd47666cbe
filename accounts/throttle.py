"""Slowing down password guessing without letting strangers lock anyone out.

Everything is counted in the shared cache (Redis in production), so every web process sees the
same numbers. Three counters, each answering a different attack:

* **Per account**: the first five failures are free; after that each try must wait twice as long
  as the last (1 s, 2 s, 4 s ... at most 15 minutes) before it is even checked. A guesser gets a
  few dozen tries a day; a stranger who hammers `admin` only ever imposes a delay, never a lock,
  and the owner can reset his password meanwhile (which clears the count).
* **Per known device**: a browser that has logged in to the account before carries a signed
  cookie naming it. Its tries are counted apart from the strangers' ones, so the owner is not
  slowed down by an attack on his name, and the per-address limit does not apply to it.
* **Per client address** (toolkit/clients.py, proxy-aware): many failures across accounts
  from one address stop that address for a while, so it cannot try one password on every
  account; other addresses are not affected.

Keys (and the device cookie) hold digests, not user names or addresses: neither the cache nor a
shared computer's cookies tell who tried what.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import secrets
import time
from dataclasses import dataclass

from django.core import signing
from django.core.cache import cache

from toolkit import ratelimit

FREE_FAILURES = 5
MAX_DELAY = 15 * 60
# An account's count is forgotten a day after its last failure.
ACCOUNT_MEMORY = 24 * 3600
ADDRESS_FAILURES = 50
ADDRESS_WINDOW = 3600
# One checked try at a time while an account is under delay: parallel requests cannot all slip
# through the same open moment.
ATTEMPT_LEASE = 10

DEVICE_COOKIE = "known_device"
# The module's old path: a new salt would void every device cookie already given.
DEVICE_SALT = "federation.throttle.device"
DEVICE_MAX_AGE = 365 * 24 * 3600
DEVICES_PER_BROWSER = 5


def _now() -> float:
    return time.time()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _subject(username: str, device: str | None) -> str:
    name = _digest(username.strip().lower())
    return f"{name}:{device}" if device else name


def _network(address: str) -> str:
    """An IPv6 client owns a whole /64: counting single addresses would let it rotate freely."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6:
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _incr(key: str, timeout: int) -> int:
    return ratelimit.count(key, timeout)  # the shared limiter's atomic counter


def delay_after(failures: int) -> int:
    """Seconds the next try waits after this many failures in a row."""
    if failures < FREE_FAILURES:
        return 0
    return min(2 ** (failures - FREE_FAILURES), MAX_DELAY)


@dataclass
class Verdict:
    """Whether a login try may be checked now; `wait` in whole seconds when not."""

    wait: int = 0
    reason: str = ""
    _lease: str | None = None

    @property
    def allowed(self) -> bool:
        return self.wait == 0

    def release(self) -> None:
        if self._lease:
            cache.delete(self._lease)


def begin(username: str, address: str, device: str | None = None) -> Verdict:
    """May this try be checked? A device is the nonce of a known-device cookie for this account."""
    subject = _subject(username, device)
    if device is None:
        address_until = cache.get(f"login:address-wait:{_digest(_network(address))}")
        if address_until and address_until > _now():
            return Verdict(wait=math.ceil(address_until - _now()), reason="address")
    until = cache.get(f"login:wait:{subject}")
    if until and until > _now():
        return Verdict(wait=math.ceil(until - _now()), reason="account")
    if (cache.get(f"login:failures:{subject}") or 0) < FREE_FAILURES:
        return Verdict()
    lease = f"login:attempt:{subject}"
    if not cache.add(lease, 1, ATTEMPT_LEASE):
        return Verdict(wait=1, reason="account")
    return Verdict(_lease=lease)


def record_failure(username: str, address: str, device: str | None = None) -> None:
    subject = _subject(username, device)
    failures = _incr(f"login:failures:{subject}", ACCOUNT_MEMORY)
    cache.touch(f"login:failures:{subject}", ACCOUNT_MEMORY)
    delay = delay_after(failures)
    if delay:
        cache.set(f"login:wait:{subject}", _now() + delay, delay + 60)
    if device is None:
        network = _digest(_network(address))
        if _incr(f"login:address-failures:{network}", ADDRESS_WINDOW) >= ADDRESS_FAILURES:
            cache.set(f"login:address-wait:{network}", _now() + ADDRESS_WINDOW, ADDRESS_WINDOW + 60)
            cache.delete(f"login:address-failures:{network}")


def record_success(username: str, device: str | None = None) -> None:
    subject = _subject(username, device)
    cache.delete_many([f"login:failures:{subject}", f"login:wait:{subject}"])


def forget_account(username: str) -> None:
    """The owner proved he holds the account's mail (password reset): strangers' failures go."""
    record_success(username)


def allow(action: str, subject: str, limit: int, window: int) -> bool:
    """A plain rate limit for mail-sending forms: at most `limit` per `window` seconds per subject
    (the shared sliding window, toolkit/ratelimit.py; the cache's errors pass through, as before)."""
    return ratelimit.hit(f"limit:{action}:{_digest(subject.strip().lower())}", limit, window, now=_now()).allowed


# --- Known devices --------------------------------------------------------------------------


def known_device(cookie: str | None, username: str) -> str | None:
    """The device nonce this browser holds for this account, if it logged in to it before."""
    name = _digest(username.strip().lower())
    for entry in _devices(cookie):
        if entry.get("u") == name:
            return entry.get("n")
    return None


def remember_device(cookie: str | None, username: str) -> str:
    """The new cookie value after a successful login: this account first, at most a few accounts."""
    name = _digest(username.strip().lower())
    kept = [entry for entry in _devices(cookie) if entry.get("u") != name]
    nonce = known_device(cookie, username) or secrets.token_urlsafe(12)
    entries = [{"u": name, "n": nonce}, *kept][:DEVICES_PER_BROWSER]
    return signing.dumps(entries, salt=DEVICE_SALT, compress=True)


def _devices(cookie: str | None) -> list[dict]:
    if not cookie:
        return []
    try:
        entries = signing.loads(cookie, salt=DEVICE_SALT, max_age=DEVICE_MAX_AGE)
    except signing.BadSignature:
        return []
    return [entry for entry in entries if isinstance(entry, dict)] if isinstance(entries, list) else []
