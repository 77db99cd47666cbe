"""An arbiter uploads a file, checks the preview, chooses a namesake, enters a birth date, confirms."""

import pytest
from django.contrib.auth.models import Group, Permission

from accounts.roles import ensure_roles
from players.models import Player
from tests.players.factories import PlayerFactory
from tests.tournaments.files import example, trf, trf_player
from tournaments.models import Tournament, Upload

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def arbiter(django_user_model):
    # A transactional test flushes the tables afterwards, roles of migration 0003 included: make them again.
    ensure_roles(Group, Permission)
    user = django_user_model.objects.create_user("anna", password="a-long-arbiter-password")
    user.groups.add(Group.objects.get(name="Arbiters"))
    return user


def log_in(page, live_server, next_url):
    page.goto(f"{live_server.url}/accounts/login/?next={next_url}")
    page.fill("#id_username", "anna")
    page.fill("#id_password", "a-long-arbiter-password")
    page.click("main form button[type=submit]")


def test_it_takes_an_arbiter_from_upload_to_confirm(page, live_server, arbiter, tmp_path):
    namesake = PlayerFactory(family_name="Иванов", given_names="Пётр", birth_date=None, birth_precision="unknown")
    result_file = tmp_path / "spring-cup.trf"
    result_file.write_bytes(
        trf(
            [
                trf_player(1, "Ivanov,Petr", 1500, rounds=[(2, "w", "1"), (3, "b", "=")]),
                trf_player(2, "Petrova,Anna", birth="2014/05/17", rounds=[(1, "b", "0"), ("0000", "-", "F")]),
                trf_player(3, "Sidorov,Oleg", rounds=[("0000", "-", "H"), (1, "w", "=")]),
            ]
        )
    )
    log_in(page, live_server, "/arbiter/upload/")
    assert page.locator("h1").inner_text() == "Upload results"

    page.set_input_files("#id_file", str(result_file))
    page.click("text=Read the file")
    page.wait_for_url("**/arbiter/uploads/*/")
    assert "Nothing is saved or rated until you confirm." in page.content()
    crosstable = page.locator("#crosstable")
    assert crosstable.locator("tr", has_text="Ivanov, Petr").locator("td").nth(2).inner_text() == "2w1"
    assert crosstable.locator("tr", has_text="Petrova, Anna").locator("td").nth(3).inner_text() == "+1"
    assert Upload.objects.get().status == "preview"
    assert not Tournament.objects.exists()

    # The namesake is offered; the arbiter says it is him, and gives Sidorov's birth year.
    page.check(f"input[name=player_1][value='{namesake.pk}']")
    page.fill("input[name=birth_3]", "2015")
    page.fill("#id_name", "Spring Cup 2026")
    page.select_option("#id_time_control", "rapid")
    page.click("text=Confirm and queue for rating")
    page.wait_for_url("**/arbiter/uploads/*/progress/")
    assert "Spring Cup 2026 is saved with" in page.content()
    # Rated in the request here (tests run tasks eagerly): the page says so and links to the report.
    assert page.locator("#upload-progress").get_attribute("data-state") == "published"
    assert "Rated and published" in page.locator("#upload-progress").inner_text()
    assert page.locator("#report-link").get_attribute("href") == Tournament.objects.get().get_absolute_url()

    tournament = Tournament.objects.get()
    assert tournament.name == "Spring Cup 2026"
    assert tournament.time_control == "rapid"
    assert tournament.participants.get(start_number=1).player == namesake
    assert Player.objects.get(family_name="Sidorov").birth_year == 2015
    assert Upload.objects.get().status == "confirmed"


def test_it_shows_a_refused_file_and_keeps_nothing(page, live_server, arbiter, tmp_path):
    bad = tmp_path / "results.xlsx"
    bad.write_bytes(b"%PDF-1.7 not a spreadsheet")
    log_in(page, live_server, "/arbiter/upload/")
    page.set_input_files("#id_file", str(bad))
    page.click("text=Read the file")
    alert = page.locator("[role=alert]")
    assert "nothing was saved" in alert.inner_text()
    assert "results.xlsx: this is a PDF document, not a result file" in alert.inner_text()
    assert not Upload.objects.exists()


def test_it_follows_a_large_file_read_by_a_worker_until_the_preview_shows(page, live_server, arbiter, tmp_path):
    from unittest import mock

    from django.test import override_settings

    from tests.tournaments.files import big_pgn
    from tournaments.uploads import worker as worker_uploads

    result_file = tmp_path / "big.pgn"
    result_file.write_bytes(big_pgn(600, players=40))
    queued = []
    log_in(page, live_server, "/arbiter/upload/")
    page.wait_for_url("**/arbiter/upload/")
    # No worker yet: the page waits, polling with htmx, until the test plays the worker.
    with (
        override_settings(UPLOAD_PARSE_ON_WORKER_BYTES=0),
        mock.patch.object(worker_uploads, "_queue_parse", queued.append),
    ):
        page.set_input_files("#id_file", str(result_file))
        page.click("text=Read the file")
        page.wait_for_url("**/arbiter/uploads/*/")
    assert "Waiting for a worker to read the file" in page.locator("#reading").inner_text()
    worker_uploads.upload_parse(upload_id=queued[0])
    page.wait_for_selector("#crosstable", timeout=15_000)
    assert "40 players · 600 games in 30 rounds" in page.content()


def test_it_reads_swiss_perfects_three_files_chosen_together(page, live_server, arbiter, tmp_path):
    chosen = []
    for ext in ("trn", "sco", "ini"):
        path = tmp_path / f"gonzaga.{ext}"
        path.write_bytes(example(f"sp-gonzaga-2010.{ext}"))
        chosen.append(str(path))
    log_in(page, live_server, "/arbiter/upload/")
    page.set_input_files("#id_file", chosen)  # one choice of three files, as a file dialog makes it
    page.click("text=Read the file")
    page.wait_for_url("**/arbiter/uploads/*/")
    assert "Gonzaga Chess Classic 2010 Challengers Section" in page.content()
    upload = Upload.objects.get()
    assert (upload.original_name, upload.format, upload.status) == (
        "gonzaga.trn, gonzaga.sco, gonzaga.ini",
        "sp",
        "preview",
    )
    assert not Tournament.objects.exists()
