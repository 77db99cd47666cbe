"""A demo federation for `make run`: the complete real files of examples/ (this repository) and a
generated season of children's tournaments, every one uploaded, confirmed and rated
through the real pipeline (importer, preview, confirmation, rating runs)."""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from tournaments.demo import synthetic
from tournaments.importers.trf import format_player_line

FAMILY = ["Иванов", "Смирнов", "Кузнецов", "Попов", "Васильев", "Петров", "Соколов", "Михайлов", "Новиков",
          "Фёдоров", "Морозов", "Волков", "Алексеев", "Лебедев", "Семёнов", "Егоров", "Павлов", "Козлов",
          "Степанов", "Николаев", "Орлов", "Андреев", "Макаров", "Никитин", "Захаров"]  # fmt: skip
BOYS = ["Александр", "Максим", "Иван", "Артём", "Дмитрий", "Никита", "Михаил", "Даниил", "Егор", "Андрей",
        "Тимофей", "Матвей", "Кирилл", "Илья", "Марк"]  # fmt: skip
GIRLS = ["Анастасия", "Мария", "Анна", "Виктория", "Екатерина", "Наталья", "Софья", "Алиса", "Полина",
         "Ксения", "Дарья", "Варвара", "Вероника", "Ева", "Милана"]  # fmt: skip
CLUBS = {
    "Белая ладья": "Казань",
    "Юный шахматист": "Казань",
    "Дебют": "Набережные Челны",
    "Эндшпиль": "Набережные Челны",
    "Гамбит": "Альметьевск",
    "Школа №12": "Альметьевск",
}
CITIES = ["Казань", "Набережные Челны", "Альметьевск"]
REGION = "Республика Татарстан"


@dataclass
class Child:
    family: str
    given: str
    sex: str
    birth: datetime.date
    strength: float
    club: str


@dataclass
class DemoFile:
    name: str
    data: bytes
    start: datetime.date
    end: datetime.date
    city: str


def children(rng: random.Random, count: int, season_start: datetime.date) -> list[Child]:
    kids = []
    names = set()
    while len(kids) < count:
        girl = rng.random() < 0.35
        family = rng.choice(FAMILY)
        family = family + "а" if girl else family
        given = rng.choice(GIRLS if girl else BOYS)
        if (family, given) in names:
            continue
        names.add((family, given))
        age = rng.uniform(5, 13.9)
        birth = season_start - datetime.timedelta(days=int(age * 365.25))
        # Strength grows with age; the spread lets some children score nothing in their first event.
        strength = 300 + 110 * (age - 5) + rng.gauss(0, 180)
        kids.append(Child(family, given, "w" if girl else "m", birth, strength, rng.choice(sorted(CLUBS))))
    return kids


def registry(seed: int = 2025, count: int = 64) -> list[Child]:
    """The season's children as the federation registered them (with their clubs)."""
    return children(random.Random(seed), count, datetime.date(2025, 9, 13))


def season(seed: int = 2025, count: int = 64, events: int = 10) -> list[DemoFile]:
    """A school year of children's tournaments, September to June, as TRF files."""
    rng = random.Random(seed)
    start = datetime.date(2025, 9, 13)
    kids = children(rng, count, start)
    files = []
    for number in range(events):
        day = start + datetime.timedelta(days=28 * number + rng.randint(0, 6))
        field_size = rng.randint(18, 34)
        group = rng.sample(kids, field_size)
        # Over the season the children get stronger.
        strengths = [kid.strength + 15 * number + rng.gauss(0, 60) for kid in group]
        rounds = rng.choice([5, 6, 7])
        games = synthetic.swiss(rng, strengths, rounds)
        city = rng.choice(CITIES)
        end = day + datetime.timedelta(days=1)
        lines = [
            f"012 Детский кубок, этап {number + 1}",
            f"022 {city}",
            "032 RUS",
            f"042 {day:%Y/%m/%d}",
            f"052 {end:%Y/%m/%d}",
            "102 Demo arbiter",
            "122 15 min + 10 s",
        ]
        lines += player_lines(group, games)
        files.append(DemoFile(f"kids-cup-{number + 1:02}.trf", "\n".join(lines).encode(), day, end, city))
    return files


def player_lines(kids: list[Child], games: list) -> list[str]:
    """The TRF player lines (001) of children who played `games` (synthetic.swiss's rounds, the
    children by their index): each one's rounds and points."""
    cells: dict[int, list] = {i: [] for i in range(len(kids))}
    points = dict.fromkeys(range(len(kids)), 0.0)
    for _round, white, black, result in games:
        if black is None:
            cells[white].append(("0000", "-", "U"))
            points[white] += 1
            continue
        white_points = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}[result]
        code = {"1-0": ("1", "0"), "1/2-1/2": ("=", "="), "0-1": ("0", "1")}[result]
        cells[white].append((black + 1, "w", code[0]))
        cells[black].append((white + 1, "b", code[1]))
        points[white] += white_points
        points[black] += 1 - white_points
    return [
        format_player_line(
            index + 1,
            f"{kid.family},{kid.given}",
            fed="RUS",
            birth=f"{kid.birth:%Y/%m/%d}",
            points=f"{points[index]:.1f}",
            rounds=cells[index],
            sex=kid.sex,
        )
        for index, kid in enumerate(kids)
    ]
