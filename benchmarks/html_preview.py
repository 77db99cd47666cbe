"""Preview of a 300-player HTML crosstable in chess-results' layout (read, check, match players).

    python -m benchmarks.html_preview [--players 300] [--rounds 11] [--runs 3]

The page is built from a generated Swiss tournament (tournaments.demo.synthetic) the way chess-results
lays out its "Starting rank crosstable" page: the title lines, the details table, navigation rows
naming other views, and the player table (`17w1`, `5b½`, `-1` cells, points and ranks), written
with lxml's builder. The preview (services.preview_build: read, check, match against the
players of the database) runs on a SQLite database of its own, migrated first. Target: under 1 s.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def crosstable_page(seed: int, players: int, rounds: int) -> bytes:
    import lxml.html
    from lxml.html import builder as E

    from tournaments.demo import synthetic

    rng = random.Random(seed)
    strengths = sorted((rng.gauss(1800, 300) for _ in range(players)), reverse=True)
    cells: dict[int, list[str]] = {i: [] for i in range(players)}
    points = [0.0] * players
    for _, white, black, result in synthetic.swiss(rng, strengths, rounds):
        if black is None:
            cells[white].append("-1")
            points[white] += 1
            continue
        shown = {"1-0": ("1", "0"), "1/2-1/2": ("½", "½"), "0-1": ("0", "1")}[result]
        cells[white].append(f"{black + 1}w{shown[0]}")
        cells[black].append(f"{white + 1}b{shown[1]}")
        score = {"1": 1.0, "½": 0.5, "0": 0.0}
        points[white] += score[shown[0]]
        points[black] += score[shown[1]]
    order = sorted(range(players), key=lambda i: -points[i])
    rank = {player: position for position, player in enumerate(order, start=1)}

    def shown_points(value: float) -> str:
        return f"{value:g}".replace(".", ",")

    header = E.TR(
        *[E.TH(text) for text in ("No.", "", "Name", "Rtg", "FED")],
        *[E.TH(f"{r}.Rd") for r in range(1, rounds + 1)],
        E.TH("Pts."),
        E.TH("Rk."),
    )
    rows = [
        E.TR(
            E.TD(str(i + 1)),
            E.TD("GM" if i < 5 else ""),
            E.TD(E.A(f"Player{i:03} Bench", href=f"tnr1.aspx?snr={i + 1}")),
            E.TD(str(round(strengths[i]))),
            E.TD("ROU"),
            *[E.TD(cell) for cell in cells[i]],
            E.TD(shown_points(points[i])),
            E.TD(str(rank[i])),
        )
        for i in range(players)
    ]
    details = E.TABLE(
        *[
            E.TR(E.TD(label), E.TD(value))
            for label, value in (
                ("Chief Arbiter", "IA Bench Arbiter"),
                ("Number of rounds", str(rounds)),
                ("Date", "2026/08/03 to 2026/08/13"),
                ("Location", "Arad"),
            )
        ],
        E.TR(E.TD(""), E.TD("Final Ranking crosstable after 11 Rounds, Starting rank crosstable")),
    )
    page = E.HTML(
        E.HEAD(E.META(charset="utf-8"), E.TITLE("Chess-Results Server Chess-results.com")),
        E.BODY(
            E.H2(f"Benchmark open {seed}"),
            details,
            E.H2("Starting rank crosstable"),
            E.TABLE(header, *rows, **{"class": "CRs1"}),
        ),
    )
    return b"<!DOCTYPE html>\n" + lxml.html.tostring(page, encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="20 players, 3 rounds, the DATABASE_URL given (migrated)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.players, args.rounds, args.runs = 20, 3, 1
        os.environ.update({"DJANGO_SETTINGS_MODULE": "federation.settings", "LOG_LEVEL": "WARNING"})
    else:
        database = Path(tempfile.mkdtemp(prefix="bench-html-")) / "db.sqlite3"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "federation.settings",
            "DATABASE_URL": f"sqlite:///{database}",
            "DEBUG": "false",
            "LOG_LEVEL": "WARNING",
        }
        os.environ.update(env)
        migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
        subprocess.run(migrate, cwd=ROOT, env=env, check=True)  # noqa: S603  (this interpreter, fixed arguments)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from tournaments import services

    rows = []
    for run in range(args.runs):
        data = crosstable_page(1000 + run, args.players, args.rounds)
        began = time.perf_counter()
        preview = services.preview_build(file_name=f"bench-{run}.html", data=data)
        elapsed = time.perf_counter() - began
        parsed = preview.parsed
        if parsed.errors or len(parsed.players) != args.players or parsed.rounds != args.rounds:
            raise SystemExit(f"the page was not read whole: {parsed.errors[:3]}")
        rows.append((len(data), len(parsed.games), elapsed))
    print(f"# Preview of an HTML crosstable: {args.players} players, {args.rounds} rounds, SQLite")
    print()
    print("| run | page size | games | preview | target | met |")
    print("|---|---|---|---|---|---|")
    for number, (size, games, elapsed) in enumerate(rows, start=1):
        met = "yes" if elapsed < 1 else "**no**"
        print(f"| {number} | {size // 1024} KiB | {games} | {elapsed * 1000:.0f} ms | < 1000 ms | {met} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
