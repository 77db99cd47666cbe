"""Preview of a 300-player, 11-round Swiss-Manager .TUNX: reading the binary and matching the players.

    python -m benchmarks.swissmanager_preview [--players 300] [--rounds 11] [--runs 5]

No real file that large is in examples/, so one is written here: a Swiss paired by
tournaments.demo.synthetic (real pairing rules, one-point bye for the odd player), laid out byte for
byte as tournaments/importers/swissmanager.py documents the format, then read back and checked
(players, games, points) before anything is timed. Uses a fresh SQLite database of its own
(the federation's players to match against are a few hundred generated ones).
Target: under 1 s per preview.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import struct
import tempfile
import time
from collections import defaultdict
from decimal import Decimal

MAGIC, CONFIG, PLAYERS, PAIRINGS, END = (
    bytes.fromhex(h) for h in ("93ff8944", "95ff8944", "a5ff8944", "b3ff8944", "d3ff8944")
)
GAME_CODE = {"1-0": 1, "1/2-1/2": 2, "0-1": 3}


def _string(text: str) -> bytes:
    return struct.pack("<H", len(text)) + text.encode("utf-16-le")


def write_tunx(name: str, start: datetime.date, rounds: int, players: list[dict], games) -> bytes:
    """A .TUNX file: `players` dicts (family, given, rating, fide_id, country, club, born), `games`
    (round, white, black or None for the bye, result) with 1-based start numbers."""
    out = bytearray(MAGIC + bytes(0x6C - 4))
    texts = [""] * 36
    texts[0], texts[10], texts[20], texts[21] = name, "Kazan", "RUS", "Benchmark Arbiter"
    out += b"".join(_string(t) for t in texts)
    config = bytearray(0x4F)
    struct.pack_into("<H", config, 0x00, rounds)
    config[0x0B], config[0x11] = 0, rounds
    struct.pack_into("<H", config, 0x13, len(players))
    day = int(start.strftime("%Y%m%d"))
    struct.pack_into("<II", config, 0x47, day, day + rounds - 1)
    out += CONFIG + config + PLAYERS
    for player in players:
        strings = [""] * 30
        strings[0], strings[1], strings[9], strings[10] = player["family"], player["given"], player["club"], "RUS"
        out += b"".join(_string(s) for s in strings)
        block = bytearray(110)
        struct.pack_into("<H", block, 0x08, player["rating"])
        struct.pack_into("<I", block, 0x0E, player["born"] * 10000)
        struct.pack_into("<I", block, 0x18, player["fide_id"])
        out += block
    out += PAIRINGS
    for _, white, black, result in sorted(games, key=lambda g: (g[0], g[2] is None)):
        record = struct.pack(
            "<HHH", white, 0xFFFF if black is None else black, 9 if black is None else GAME_CODE[result]
        )
        out += record + bytes(21 - len(record))
    return bytes(out + END + bytes(28))


def build(players: int, rounds: int, seed: int = 7) -> tuple[bytes, list, list]:
    from tournaments.demo import synthetic

    rng = random.Random(seed)
    strengths = [rng.gauss(1600, 300) for _ in range(players)]
    games = [(rnd, w + 1, None if b is None else b + 1, r) for rnd, w, b, r in synthetic.swiss(rng, strengths, rounds)]
    people = [
        {
            "family": f"Бенчмарк{i:03}",
            "given": "Игрок",
            "rating": max(1000, round(strengths[i])),
            "fide_id": 90_000_000 + i if i % 2 else 0,
            "club": f"Club {i % 17}",
            "born": 1960 + i % 50,
        }
        for i in range(players)
    ]
    return write_tunx(f"Benchmark open {seed}", datetime.date(2026, 5, 1), rounds, people, games), people, games


def check(data: bytes, people: list, games: list) -> None:
    """The written file reads back as generated: otherwise the timing would measure something else."""
    from tournaments.importers.registry import read_result_file

    parsed = read_result_file("bench.TUNX", data)
    if parsed.errors or len(parsed.players) != len(people) or len(parsed.games) != len(games):
        raise SystemExit(f"the written file reads back wrong: {parsed.errors[:3]}")
    expected, earned = defaultdict(Decimal), defaultdict(Decimal)
    for _, white, black, result in games:
        expected[white] += {"1-0": 1, "1/2-1/2": Decimal("0.5")}.get(result, 0) if black else 1
        if black:
            expected[black] += {"0-1": 1, "1/2-1/2": Decimal("0.5")}.get(result, 0)
    for game in parsed.games:
        earned[game.white] += game.points(game.white)
        if game.black is not None:
            earned[game.black] += game.points(game.black)
    if earned != expected:
        raise SystemExit("the written file reads back with other points")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="20 players, 3 rounds, the DATABASE_URL given (migrated)")
    args = parser.parse_args()
    if args.smoke:
        args.players, args.rounds, args.runs = 20, 3, 1
    else:
        folder = tempfile.mkdtemp(prefix="bench-sm-")
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
    import django

    django.setup()
    from django.core.management import call_command

    if not args.smoke:
        call_command("migrate", verbosity=0)
    from players.models import Player
    from players.services import allocate_federation_ids
    from tournaments import services

    # Every player with a FIDE id (the odd start indexes) is in the federation already.
    known = range(1, args.players, 2)
    Player.objects.bulk_create(
        Player(federation_id=fid, family_name=f"Бенчмарк{i:03}", given_names="Игрок", fide_id=90_000_000 + i)
        for i, fid in zip(known, allocate_federation_ids(len(known)), strict=True)
    )
    data, people, games = build(args.players, args.rounds)
    check(data, people, games)
    times = []
    for run in range(args.runs):
        began = time.perf_counter()
        preview = services.preview_read(file_name="bench.TUNX", data=data, digest=f"{run:064x}")
        times.append(time.perf_counter() - began)
    matched = sum(1 for match in preview.matches.values() if match.status == "matched")
    print("# Swiss-Manager .TUNX preview\n")
    print(f"{args.players} players, {args.rounds} rounds, {len(games)} games, {len(data)} bytes; SQLite.\n")
    print(f"Players found among the federation's: {matched}.\n")
    print("| runs | median s | max s | target |")
    print("|---|---|---|---|")
    print(f"| {args.runs} | {statistics.median(times):.3f} | {max(times):.3f} | < 1 s |")


if __name__ == "__main__":
    main()
