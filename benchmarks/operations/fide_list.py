"""Importing FIDE's rating list: a generated list of 1.1 million players in each format (the
fixed-width TXT and the XML of the standard list), imported with `manage.py import_fide_list` on
PostgreSQL; wall time and peak memory (resource.getrusage of the import's process).

    python -m benchmarks.operations.fide_list [--players 1100000] [--smoke]

Uses BENCH_DATABASE_URL (default: the local federation_bench database, created and migrated).
--smoke: 1,000 players, imported in this process into the database Django is set up with (the
test suite runs it so the benchmark cannot rot). Target: under two minutes and under 500 MB for the full standard list.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# The headers of FIDE's files (see players/fide/lists.py for the sources).
FOA_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  WTit OTit"
    "           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
LEGACY_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  WTit OTit"
    "           SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)


def one_kind_header(month: str = "OCT26") -> str:
    return (
        "ID Number      Name                                                         Fed Sex Tit  WTit OTit"
        f"           FOA {month} Gms K  B-day Flag"
    )


def txt_line(header: str, values: list[str]) -> str:
    """A data line as FIDE writes it: each value left-aligned at its header word's column, padded
    to the header's full width ('ID Number' is one column)."""
    starts = [i for i in range(len(header)) if header[i] != " " and (i == 0 or header[i - 1] == " ")]
    starts.remove(header.index("Number"))
    if len(values) != len(starts):
        raise ValueError(f"{len(values)} values for {len(starts)} columns")
    line = [" "] * len(header)
    for start, value in zip(starts, values, strict=True):
        line[start : start + len(value)] = value
    return "".join(line)


XML_TAGS = ("fideid", "name", "country", "sex", "title", "w_title", "o_title", "foa_title", "rating", "games", "k",
            "birthday", "flag")  # fmt: skip

FAMILY = ["Ivanov", "Smirnov", "Kuznetsov", "Popov", "Carlsen", "Nakamura", "Gupta", "Mueller", "Garcia", "Kowalski"]
GIVEN = ["Ivan", "Anna", "Magnus", "Hikaru", "Priya", "Jonas", "Maria", "Piotr", "Olga", "Liren"]
FEDS = ["RUS", "NOR", "USA", "IND", "GER", "ESP", "POL", "CHN", "FRA", "KAZ"]


def players(count: int, seed: int = 26):
    rng = random.Random(seed)
    for index in range(count):
        sex = "F" if index % 4 == 0 else "M"
        title = rng.choice(["", "", "", "", "", "FM", "CM", "IM", "GM"])
        yield {
            "fideid": str(1_000_000 + index * 7),
            "name": f"{rng.choice(FAMILY)}, {rng.choice(GIVEN)}",
            "country": rng.choice(FEDS),
            "sex": sex,
            "title": title,
            "w_title": "WFM" if sex == "F" and not title and index % 3 == 0 else "",
            "o_title": "",
            "foa_title": "",
            "rating": str(rng.randint(1400, 2800)),
            "games": str(rng.choice([0, 0, 0, 4, 9])),
            "k": str(rng.choice([40, 20, 10])),
            "birthday": str(rng.randint(1940, 2018)),
            "flag": ("w" if sex == "F" else "") + ("i" if index % 5 == 0 else ""),
        }


def write_txt(path: Path, count: int, month: str = "OCT26") -> None:
    header = one_kind_header(month)
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.write(header + "\n")
        for p in players(count):
            values = [p["fideid"], p["name"], p["country"], p["sex"], p["title"], p["w_title"], p["o_title"],
                      p["foa_title"], p["rating"], p["games"], p["k"], p["birthday"], p["flag"]]  # fmt: skip
            out.write(txt_line(header, values) + "\n")


def write_xml(path: Path, count: int) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.write("<playerslist>\n")
        for p in players(count):
            out.write("<player>\n")
            for tag in XML_TAGS:
                out.write(f"<{tag}>{p[tag]}</{tag}>\n")
            out.write("</player>\n")
        out.write("</playerslist>\n")


def import_in_process(path: Path) -> tuple[float, float, str]:
    """The smoke mode's import: in this process (Django set up by the caller, e.g. a test)."""
    from django.core.management import call_command

    out = io.StringIO()
    started = time.perf_counter()
    call_command("import_fide_list", str(path), "--kind", "standard", "--month", "2026-10", stdout=out)
    seconds = time.perf_counter() - started
    return seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, out.getvalue().strip()


def import_once(path: Path, env: dict) -> tuple[float, float, str]:
    """Wall seconds, peak MB of the import's process (children included) and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    result = subprocess.run(  # noqa: S603  (this interpreter, the generated file)
        [sys.executable, "manage.py", "import_fide_list", str(path), "--kind", "standard", "--month", "2026-10"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"import of {path.name} failed:\n{result.stdout}{result.stderr}")
    # ru_maxrss of the children is the largest child's peak (kB on Linux); each import is a child.
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, max(peak, before) / 1024, result.stdout.strip()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_100_000)
    parser.add_argument("--smoke", action="store_true", help="1,000 players, the current DATABASE_URL")
    args = parser.parse_args(argv)
    count = 1000 if args.smoke else args.players
    env = {**os.environ, "LOG_LEVEL": "WARNING"}
    if args.smoke:
        # Run as `python -m ... --smoke` (tests/benchmarks/test_smoke.py), nothing has set Django up yet.
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
        import django

        django.setup()
    else:
        url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/federation_bench")
        env.update({"DJANGO_SETTINGS_MODULE": "federation.settings", "DATABASE_URL": url, "DEBUG": "false"})
        from benchmarks.pipeline import create_database

        create_database(url)
        migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
        subprocess.run(migrate, cwd=ROOT, env=env, check=True)  # noqa: S603  (this interpreter, fixed arguments)
    rows = []
    with tempfile.TemporaryDirectory(prefix="fide-bench-") as folder:
        for fmt, writer, name in (("TXT", write_txt, "standard_oct26frl.txt"),
                                  ("XML", write_xml, "standard_oct26frl_xml.xml")):  # fmt: skip
            path = Path(folder) / name
            started = time.perf_counter()
            writer(path, count)
            generated = time.perf_counter() - started
            seconds, peak_mb, output = import_in_process(path) if args.smoke else import_once(path, env)
            rows.append((fmt, count, path.stat().st_size / 1e6, generated, seconds, peak_mb, output))
    print(f"FIDE standard list import, {count:,} players, {os.cpu_count()} cores\n")
    print("| format | players | file MB | import s | peak MB (process) | command output |")
    print("|---|---:|---:|---:|---:|---|")
    for fmt, n, size, _generated, seconds, peak_mb, output in rows:
        print(f"| {fmt} | {n:,} | {size:.0f} | {seconds:.1f} | {peak_mb:.0f} | {output.splitlines()[-1]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
