"""A synthetic federation for scale tests: players, clubs, regions and years of tournaments.

Pure Python and deterministic for a seed: `federation(...)` returns plain records that
`tournaments.generator_write` stores with bulk inserts. What makes it realistic enough to
measure with:

- children (about half the players) whose strength grows with age, and adults whose strength
  drifts; birth dates given in full, as a year only, or not at all, as registrations do;
- clubs in regions; most tournaments draw their players from one region, children's events
  from one age band; a few players play a lot and most play a little (heavy-tailed activity);
- Swiss tournaments of 10 to 160 players over 5 to 9 rounds, round-robins of 6 to 12, with
  forfeits, full- and half-point byes and absences; FIDE-rated events with the FIDE ratings of
  the players who have one, over twenty years.
"""

from __future__ import annotations

import bisect
import datetime
import itertools
import random
from dataclasses import dataclass, field

from tournaments.demo import synthetic

FAMILY = ("Иванов", "Смирнов", "Кузнецов", "Попов", "Васильев", "Петров", "Соколов", "Михайлов", "Новиков",
          "Фёдоров", "Морозов", "Волков", "Алексеев", "Лебедев", "Семёнов", "Егоров", "Павлов", "Козлов",
          "Степанов", "Николаев", "Орлов", "Андреев", "Макаров", "Никитин", "Захаров", "Зайцев", "Соловьёв",
          "Борисов", "Яковлев", "Григорьев", "Романов", "Воробьёв", "Сергеев", "Кузьмин", "Фролов",
          "Александров", "Дмитриев", "Королёв", "Гусев", "Киселёв", "Ильин", "Максимов", "Поляков", "Сорокин",
          "Виноградов", "Ковалёв", "Белов", "Медведев", "Антонов", "Тарасов", "Жуков", "Баранов", "Филиппов",
          "Комаров", "Давыдов", "Беляев", "Герасимов", "Богданов", "Осипов", "Сидоров", "Матвеев", "Титов",
          "Марков", "Миронов", "Крылов", "Куликов", "Карпов", "Власов", "Мельников", "Денисов")  # fmt: skip
BOYS = ("Александр", "Максим", "Иван", "Артём", "Дмитрий", "Никита", "Михаил", "Даниил", "Егор", "Андрей",
        "Тимофей", "Матвей", "Кирилл", "Илья", "Марк", "Алексей", "Роман", "Сергей", "Владимир", "Ярослав",
        "Павел", "Георгий", "Константин", "Лев", "Фёдор")  # fmt: skip
GIRLS = ("Анастасия", "Мария", "Анна", "Виктория", "Екатерина", "Наталья", "Софья", "Алиса", "Полина",
         "Ксения", "Дарья", "Варвара", "Вероника", "Ева", "Милана", "Елизавета", "Александра", "Арина",
         "Валерия", "Ульяна", "Василиса", "Алёна", "Кира", "Татьяна", "Ольга")  # fmt: skip
FOREIGN = (("Schmidt", "Jonas"), ("Kowalski", "Piotr"), ("Novak", "Jan"), ("Horvath", "Bence"),
           ("Popescu", "Andrei"), ("Garcia", "Pablo"), ("Rossi", "Marco"), ("Nielsen", "Mads"),
           ("Dubois", "Louis"), ("Jansen", "Daan"), ("Aliyev", "Rauf"), ("Karimov", "Timur"))  # fmt: skip
REGIONS = ("Республика Татарстан", "Москва", "Санкт-Петербург", "Московская область", "Свердловская область",
           "Новосибирская область", "Нижегородская область", "Самарская область", "Республика Башкортостан",
           "Краснодарский край", "Челябинская область", "Ростовская область", "Пермский край",
           "Воронежская область", "Волгоградская область", "Красноярский край", "Саратовская область",
           "Тюменская область", "Омская область", "Иркутская область", "Ярославская область",
           "Калужская область", "Томская область", "Кировская область", "Удмуртская Республика",
           "Чувашская Республика", "Республика Марий Эл", "Ульяновская область", "Пензенская область",
           "Оренбургская область")  # fmt: skip
CLUB_NAMES = ("Белая ладья", "Юный шахматист", "Дебют", "Эндшпиль", "Гамбит", "Миттельшпиль", "Рокировка",
              "Ферзь", "Шахматная школа", "Каисса", "Цейтнот", "Гроссмейстер", "Двойной удар", "Пешка",
              "Король", "Слон", "Конь", "Ладья", "Дворец пионеров", "Шахматный клуб")  # fmt: skip
FIRST_YEAR = 2006
LAST_YEAR = 2026
FIRST_FIDE_ID = 34_000_000


@dataclass
class Region:
    name: str


@dataclass
class Club:
    name: str
    city: str
    region: int  # index into the regions


@dataclass
class Person:
    family_name: str
    given_names: str
    sex: str  # "M" or "F"
    birth_date: datetime.date | None
    birth_precision: str  # "day", "year" or "unknown"
    club: int | None
    region: int
    fide_id: int | None
    title: str
    # Hidden from the federation: what the results are drawn from.
    born: datetime.date  # the true birth date (the registered one may be less precise or missing)
    talent: float
    first_year: int
    last_year: int
    activity: float


@dataclass
class Entry:
    person: int  # index into the people
    start_number: int
    rank: int
    points: float
    rating_in_file: int | None
    fide_rating_in_file: int | None
    guest: bool = False


@dataclass
class GameRecord:
    round: int
    board: int | None
    white: int  # start number
    black: int | None
    result: str
    kind: str


@dataclass
class Event:
    name: str
    city: str
    start_date: datetime.date
    end_date: datetime.date
    rounds: int
    time_control: str
    fide_rated: bool
    entries: list[Entry] = field(default_factory=list)
    games: list[GameRecord] = field(default_factory=list)


@dataclass
class Federation:
    regions: list[Region]
    clubs: list[Club]
    people: list[Person]
    events: list[Event]

    @property
    def game_count(self) -> int:
        return sum(len(event.games) for event in self.events)


def strength(person: Person, day: datetime.date) -> float:
    """A person's playing strength on a day: children improve fast, adults slowly, the old decline."""
    age = (day - person.born).days / 365.25
    if age < 18:
        growth = 120 * (age - 6) - 3.5 * (age - 6) ** 2
    else:
        growth = 120 * 12 - 3.5 * 144 + 6 * min(age - 18, 12) - max(0.0, age - 55) * 8
    return 300 + person.talent + growth


def people(rng: random.Random, count: int, regions: int, clubs: list[Club]) -> list[Person]:
    club_by_region: dict[int, list[int]] = {}
    for index, club in enumerate(clubs):
        club_by_region.setdefault(club.region, []).append(index)
    out = []
    fide_id = FIRST_FIDE_ID
    for _ in range(count):
        girl = rng.random() < 0.25
        child = rng.random() < 0.5
        if child:
            born = datetime.date(rng.randint(1998, 2019), rng.randint(1, 12), rng.randint(1, 28))
        else:
            born = datetime.date(rng.randint(1940, 1997), rng.randint(1, 12), rng.randint(1, 28))
        if rng.random() < 0.06:
            family, given = rng.choice(FOREIGN)
        else:
            family = rng.choice(FAMILY) + ("а" if girl else "")
            given = rng.choice(GIRLS if girl else BOYS)
        roll = rng.random()
        if roll < 0.75 or (child and roll < 0.95):
            registered, precision = born, "day"
        elif roll < 0.92 or child:
            registered, precision = datetime.date(born.year, 7, 1), "year"
        else:
            registered, precision = None, "unknown"
        region = min(int(rng.paretovariate(1.2)) - 1, regions - 1)  # capitals are bigger
        own_clubs = club_by_region.get(region)
        club = rng.choice(own_clubs) if own_clubs and rng.random() < 0.8 else None
        talent = rng.gauss(0, 260)
        # A career: children start at 6 to 10; adults at any time of the twenty years.
        if born.year + 6 > LAST_YEAR:
            first = LAST_YEAR
        elif child:
            first = max(FIRST_YEAR, born.year + rng.randint(6, 10))
        else:
            first = rng.randint(FIRST_YEAR, LAST_YEAR)
        length = int(rng.expovariate(1 / 5)) + 1
        last = min(LAST_YEAR, first + length)
        strong = talent > 300
        has_fide = (not child and rng.random() < 0.18) or (strong and rng.random() < 0.6)
        title = ""
        if has_fide and talent > 650:
            title = rng.choice(("GM", "IM", "FM"))
        elif has_fide and talent > 450 and rng.random() < 0.5:
            title = rng.choice(("FM", "CM"))
        out.append(
            Person(
                family_name=family,
                given_names=given,
                sex="F" if girl else "M",
                birth_date=registered,
                birth_precision=precision,
                club=club,
                region=region,
                fide_id=fide_id if has_fide else None,
                title=title,
                born=born,
                talent=talent,
                first_year=min(first, last),
                last_year=last,
                activity=min(20.0, rng.paretovariate(2.2)),
            )
        )
        if has_fide:
            fide_id += rng.randint(1, 40)
    return out


class _Pool:
    """The people active in a year, with cumulative activity weights for fast weighted sampling."""

    def __init__(self, members: list[int], weights: list[float]):
        self.members = members
        self.cumulative = list(itertools.accumulate(weights))

    def sample(self, rng: random.Random, count: int, taken: set[int]) -> list[int]:
        chosen: list[int] = []
        if not self.members:
            return chosen
        total = self.cumulative[-1]
        attempts = 0
        while len(chosen) < count and attempts < count * 20:
            attempts += 1
            person = self.members[bisect.bisect_right(self.cumulative, rng.random() * total)]
            if person not in taken:
                taken.add(person)
                chosen.append(person)
        return chosen


def _pools(persons: list[Person]) -> dict[tuple, _Pool]:
    """Pools by (year, region, band) where band is 'child' or 'adult' on 1 July of the year."""
    members: dict[tuple, list[int]] = {}
    for index, person in enumerate(persons):
        for year in range(person.first_year, person.last_year + 1):
            band = "child" if year - person.born.year < 18 else "adult"
            for key in (
                (year, person.region, band),
                (year, None, band),
                (year, person.region, None),
                (year, None, None),
            ):
                members.setdefault(key, []).append(index)
    return {key: _Pool(ids, [persons[i].activity for i in ids]) for key, ids in members.items()}


def round_robin(count: int) -> list[list[tuple[int, int]]]:
    """Berger tables: for each round, (white, black) pairs of player indexes; an odd count gets byes."""
    players = list(range(count)) + ([None] if count % 2 else [])
    n = len(players)
    rounds = []
    for rnd in range(n - 1):
        pairs = []
        for board in range(n // 2):
            a, b = players[board], players[n - 1 - board]
            if a is None or b is None:
                pairs.append((a if b is None else b, None))
                continue
            pairs.append((a, b) if (board == 0 and rnd % 2 == 0) or (board > 0 and board % 2 == 0) else (b, a))
        rounds.append(pairs)
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


def _event(rng: random.Random, number: int, year: int, persons, pools, regions, clubs) -> Event | None:
    kind = rng.random()
    region = min(int(rng.paretovariate(1.2)) - 1, len(regions) - 1)
    children_only = rng.random() < 0.45
    band = "child" if children_only else None
    if kind < 0.2:
        size = rng.randint(6, 12)
        rounds = size - 1 + size % 2
        form = "rr"
    else:
        size = min(160, max(10, int(rng.lognormvariate(3.3, 0.55))))
        rounds = rng.choice((5, 6, 7, 7, 8, 9, 9))
        form = "swiss"
    taken: set[int] = set()
    local = pools.get((year, region, band))
    chosen = local.sample(rng, int(size * 0.85), taken) if local else []
    wider = pools.get((year, None, band))
    if wider:
        chosen += wider.sample(rng, size - len(chosen), taken)
    if len(chosen) < 4:
        return None
    size = len(chosen)
    if form == "rr":
        rounds = size - 1 + size % 2
    start = datetime.date(year, 1, 1) + datetime.timedelta(days=rng.randint(0, 360))
    if year == LAST_YEAR:
        start = min(start, datetime.date(LAST_YEAR, 10, 20))
    days = 0 if rounds <= 5 and rng.random() < 0.5 else min(rounds - 1, rng.randint(1, 8))
    control = rng.choices(("classical", "rapid", "blitz"), (0.6, 0.3, 0.1))[0]
    if control == "blitz":
        days = 0
    fide_rated = control == "classical" and not children_only and rng.random() < 0.4
    strengths = [strength(persons[p], start) + rng.gauss(0, 60) for p in chosen]
    order = sorted(range(size), key=lambda i: -strengths[i])  # start numbers by the pre-event rating
    chosen = [chosen[i] for i in order]
    strengths = [strengths[i] for i in order]
    city_club = clubs[rng.randrange(len(clubs))] if clubs else None
    label = "Первенство" if children_only else rng.choice(("Открытый турнир", "Мемориал", "Кубок", "Чемпионат"))
    event = Event(
        name=f"{label} {regions[region].name} №{number}",
        city=city_club.city if city_club else "",
        start_date=start,
        end_date=start + datetime.timedelta(days=days),
        rounds=rounds,
        time_control=control,
        fide_rated=fide_rated,
    )
    points = [0.0] * size
    games = _games(rng, form, strengths, rounds)
    for game in games:
        white_points, black_points = _POINTS[game.result]
        points[game.white - 1] += white_points
        if game.black is not None:
            points[game.black - 1] += black_points
    event.games = games
    ranking = sorted(range(size), key=lambda i: (-points[i], i))
    rank = {index: place for place, index in enumerate(ranking, start=1)}
    for index, person_id in enumerate(chosen):
        person = persons[person_id]
        rating = max(100, round(strengths[index] / 10) * 10)
        fide = None
        if person.fide_id and fide_rated and strengths[index] > 1000:
            fide = min(2850, max(1001, round(strengths[index] + rng.gauss(0, 40))))
        event.entries.append(
            Entry(
                person=person_id,
                start_number=index + 1,
                rank=rank[index],
                points=points[index],
                rating_in_file=rating if rng.random() < 0.7 else None,
                fide_rating_in_file=fide,
                guest=rng.random() < 0.003,
            )
        )
    return event


_POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5), "0-0": (0.0, 0.0)}


def _games(rng: random.Random, form: str, strengths: list[float], rounds: int) -> list[GameRecord]:
    games = []
    if form == "rr":
        schedule = round_robin(len(strengths))
        pairings = [
            (rnd, white, black, synthetic.result(rng, strengths[white], strengths[black]) if black is not None else "")
            for rnd, pairs in enumerate(schedule, start=1)
            for white, black in pairs
        ]
    else:
        pairings = synthetic.swiss(rng, strengths, rounds)
    boards: dict[int, int] = {}
    for rnd, white, black, result in pairings:
        if black is None:
            if form == "rr":
                continue  # the free player of an odd round-robin simply rests
            games.append(GameRecord(rnd, None, white + 1, None, "1-0", "bye"))
            continue
        boards[rnd] = boards.get(rnd, 0) + 1
        roll = rng.random()
        if roll < 0.012:
            games.append(GameRecord(rnd, boards[rnd], white + 1, black + 1, rng.choice(("1-0", "0-1")), "forfeit"))
        elif roll < 0.016:
            # One of them asked for a half-point bye, the other got a full point: two single-player rows.
            games.append(GameRecord(rnd, None, white + 1, None, "1/2-1/2", "half_bye"))
            games.append(GameRecord(rnd, None, black + 1, None, "1-0", "bye"))
        elif roll < 0.019:
            games.append(GameRecord(rnd, None, white + 1, None, "0-0", "unplayed"))
            games.append(GameRecord(rnd, None, black + 1, None, "1-0", "bye"))
        else:
            games.append(GameRecord(rnd, boards[rnd], white + 1, black + 1, result, "played"))
    return games


def federation(*, players: int, tournaments: int, seed: int) -> Federation:
    """The whole federation, deterministic for the seed: `tournaments` events spread over 2006-2026."""
    rng = random.Random(seed)
    regions = [Region(name) for name in REGIONS]
    clubs = []
    for index in range(max(1, players // 120)):
        region = min(int(rng.paretovariate(1.2)) - 1, len(regions) - 1)
        name = f"{CLUB_NAMES[index % len(CLUB_NAMES)]} {index // len(CLUB_NAMES) + 1}"
        clubs.append(Club(name=name, city=regions[region].name.split()[-1], region=region))
    persons = people(rng, players, len(regions), clubs)
    pools = _pools(persons)
    # More tournaments in later years, as federations grow.
    years = list(range(FIRST_YEAR, LAST_YEAR + 1))
    weights = [1 + 0.08 * (year - FIRST_YEAR) for year in years]
    events = []
    number = 0
    while len(events) < tournaments:
        number += 1
        year = rng.choices(years, weights)[0]
        event = _event(rng, number, year, persons, pools, regions, clubs)
        if event is not None:
            events.append(event)
        if number > tournaments * 3:
            break  # too few players for that many tournaments
    return Federation(regions=regions, clubs=clubs, people=persons, events=events)
