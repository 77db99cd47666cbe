"""Large files are read on a worker: the upload answers at once, the preview page follows the progress
and then shows the preview (issue #13)."""

from unittest import mock

from django.test import override_settings
from django.urls import reverse
from django.utils import translation

from tests.base import ArbiterTestCase
from tests.tournaments.files import big_pgn, small_trf
from toolkit import pagecache
from tournaments import services
from tournaments.models import Upload
from tournaments.uploads import worker as worker_uploads


def tasks(callbacks):
    """The on-commit callbacks that queue work (an arbiter's write also renews the public page cache)."""
    return [callback for callback in callbacks if callback is not pagecache.bump]


class WorkerUploadsTestCase(ArbiterTestCase):
    def test_it_reads_a_10000_game_pgn_on_the_worker_while_the_page_shows_the_progress(self):
        data = big_pgn(10_000)
        assert len(data) > 262_144  # over the default threshold
        self.login(self.arbiter)
        with (
            mock.patch("tournaments.services.read_result_file") as parser,
            self.captureOnCommitCallbacks() as queued,
        ):
            response = self.post_file("big.pgn", data)
        parser.assert_not_called()  # nothing is read in the request
        upload = Upload.objects.get()
        self.assertRedirects(response, reverse("arbiter:preview", args=[upload.pk]), fetch_redirect_response=False)
        assert (upload.status, upload.format, upload.preview) == (Upload.Status.PARSING, "pgn", {})
        assert len(tasks(queued)) == 1  # the task, queued once the upload is committed

        url = reverse("arbiter:preview", args=[upload.pk])
        page = self.client.get(url)
        self.assertContains(page, "a worker reads it")
        self.assertContains(page, f'hx-get="{reverse("arbiter:reading_progress", args=[upload.pk])}"')
        self.assertContains(page, 'src="/static/js/htmx.min.js"')
        self.assertNotContains(page, "<script>")

        seen = []
        read = services.preview_read

        def watched(**kwargs):
            report = kwargs["progress"]

            # The worker said it started before the first report.
            seen.append(Upload.objects.get(pk=upload.pk).progress)
            assert seen[0]["started"]
            progress_url = reverse("arbiter:reading_progress", args=[upload.pk])
            self.assertContains(self.client.get(progress_url), "A worker is reading")

            def recording(**values):
                report(**values)
                # Each report is on the row at once, where the progress page reads it.
                seen.append(Upload.objects.get(pk=upload.pk).progress)
                if len(seen) == 21:
                    fragment = self.client.get(reverse("arbiter:reading_progress", args=[upload.pk]))
                    seen.append(fragment.content.decode())

            return read(**{**kwargs, "progress": recording})

        with mock.patch.object(services, "preview_read", watched):
            queued[0]()  # the worker runs the task
        counts = [p["games"] for p in seen if isinstance(p, dict)]
        assert counts == [0, *range(250, 10_001, 250)]
        assert seen[-1]["line"] > 100_000 and seen[-1]["lines"] >= seen[-1]["line"]
        assert "5000 games read, up to line" in seen[21]

        upload.refresh_from_db()
        assert upload.status == Upload.Status.PREVIEW
        assert len(upload.preview["file"]["games"]) == 10_000
        done = self.client.get(reverse("arbiter:reading_progress", args=[upload.pk]))
        assert done["HX-Redirect"] == url
        page = self.client.get(url)
        self.assertContains(page, "200 players · 10000 games in 100 rounds")
        self.assertContains(page, "Confirm and queue for rating")

    @override_settings(UPLOAD_PARSE_ON_WORKER_BYTES=0)
    def test_it_reads_again_an_upload_whose_worker_went_silent(self):
        import datetime

        from django.utils import timezone

        self.login(self.arbiter)
        with mock.patch("tournaments.uploads.worker._queue_parse"):  # the message is lost (worker killed)
            self.post_file("cup.trf", small_trf())
            self.post_file("other.trf", small_trf() + b"\n")
        lost, fresh = Upload.objects.order_by("pk")
        assert lost.status == fresh.status == Upload.Status.PARSING
        Upload.objects.filter(pk=lost.pk).update(uploaded_at=timezone.now() - datetime.timedelta(minutes=11))
        assert worker_uploads.sweep_stalled() == [lost.pk]
        lost.refresh_from_db()
        fresh.refresh_from_db()
        assert lost.status == Upload.Status.PREVIEW  # read again (eagerly here)
        assert fresh.status == Upload.Status.PARSING  # too recent to be called lost
        # A worker that reported a minute ago is alive, however old the upload.
        Upload.objects.filter(pk=fresh.pk).update(
            uploaded_at=timezone.now() - datetime.timedelta(hours=1),
            progress={"games": 250, "at": (timezone.now() - datetime.timedelta(minutes=1)).isoformat()},
        )
        assert worker_uploads.sweep_stalled() == []

    @override_settings(UPLOAD_PARSE_ON_WORKER_BYTES=0)
    def test_it_reads_in_the_request_when_the_broker_is_down(self):
        from tests.ratings.test_request_views import BrokerDown

        self.login(self.arbiter)
        with BrokerDown(), self.captureOnCommitCallbacks(execute=True):
            response = self.post_file("cup.trf", small_trf())
        assert response.status_code == 302
        upload = Upload.objects.get()
        assert upload.status == Upload.Status.PREVIEW
        self.assertContains(self.client.get(response["Location"]), "Ivanov")

    @override_settings(UPLOAD_PARSE_ON_WORKER_BYTES=0)
    def test_it_reads_inline_when_tasks_run_eagerly(self):
        self.login(self.arbiter)
        with self.captureOnCommitCallbacks(execute=True):
            response = self.post_file("cup.trf", small_trf())
        upload = Upload.objects.get()
        assert upload.status == Upload.Status.PREVIEW
        self.assertContains(self.client.get(response["Location"]), "Ivanov")

    @override_settings(UPLOAD_PARSE_ON_WORKER_BYTES=0)
    def test_it_shows_a_bad_file_with_its_line_and_lets_the_arbiter_remove_it(self):
        self.login(self.arbiter)
        with self.captureOnCommitCallbacks(execute=True):
            self.post_file("broken.pgn", big_pgn(300, players=20, broken_at=123))
        upload = Upload.objects.get()
        assert upload.status == Upload.Status.FAILED
        assert upload.preview == {}
        page = self.client.get(reverse("arbiter:preview", args=[upload.pk]))
        self.assertContains(page, "nothing was saved")
        self.assertContains(page, "broken.pgn, line 1465, game 123")
        self.assertContains(page, "has no round number")
        self.assertNotContains(page, "htmx")
        self.client.post(reverse("arbiter:preview", args=[upload.pk]), {"action": "cancel"})
        assert not Upload.objects.exists()

    @override_settings(UPLOAD_PARSE_ON_WORKER_BYTES=0)
    def test_it_refuses_in_the_request_what_needs_no_reading(self):
        services.upload_create(user=self.arbiter, file_name="cup.trf", data=small_trf())
        self.login(self.arbiter)
        with self.captureOnCommitCallbacks() as queued:
            response = self.post_file("again.trf", small_trf())
            self.assertContains(response, "this very file was uploaded already", status_code=400)
            response = self.post_file("photo.pgn", b"\x89PNG\r\n\x1a\n0000")
            self.assertContains(response, "this is a PNG image", status_code=400)
        assert tasks(queued) == []
        assert Upload.objects.count() == 1

    @override_settings(UPLOAD_PARSE_ON_WORKER_BYTES=0)
    def test_it_hides_the_progress_of_an_upload_from_other_arbiters(self):
        with self.captureOnCommitCallbacks():
            upload = worker_uploads.upload_start(user=self.arbiter, file_name="cup.trf", data=small_trf())
        progress = [reverse(f"arbiter:{name}", args=[upload.pk]) for name in ("reading_progress", "upload_progress")]
        self.login(self.other_arbiter)
        assert [self.client.get(url).status_code for url in progress] == [404, 404]
        assert self.client.get(reverse("arbiter:preview", args=[upload.pk])).status_code == 404
        self.login(self.player_user)
        assert [self.client.get(url).status_code for url in progress] == [403, 403]

    @override_settings(UPLOAD_PARSE_ON_WORKER_BYTES=0)
    def test_it_forgets_an_upload_cancelled_while_it_is_read(self):
        with self.captureOnCommitCallbacks() as queued:
            upload = worker_uploads.upload_start(user=self.arbiter, file_name="cup.trf", data=small_trf())
        self.login(self.arbiter)
        self.client.post(reverse("arbiter:preview", args=[upload.pk]), {"action": "cancel"})
        assert not Upload.objects.exists()
        queued[0]()  # the message arrives after the cancellation: nothing to do
        assert not Upload.objects.exists()

    def test_it_reads_a_small_file_in_the_request(self):
        self.login(self.arbiter)
        with self.captureOnCommitCallbacks() as queued:
            self.post_file("cup.trf", small_trf())
        assert Upload.objects.get().status == Upload.Status.PREVIEW
        assert tasks(queued) == []

    @override_settings(UPLOAD_PARSE_ON_WORKER_BYTES=0)
    def test_it_speaks_russian_while_the_file_is_read(self):
        # A request leaves its language active in the thread: messages made outside requests later must be English.
        self.addCleanup(translation.activate, "en")
        with self.captureOnCommitCallbacks():
            upload = worker_uploads.upload_start(user=self.arbiter, file_name="cup.trf", data=small_trf())
        self.login(self.arbiter)
        page = self.client.get(reverse("arbiter:preview", args=[upload.pk]), HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(page, "Ждём, пока фоновый обработчик прочитает файл…")

    @override_settings(UPLOAD_PARSE_ON_WORKER_BYTES=0)
    def test_it_leaves_nothing_when_the_arbiter_cancels_while_the_worker_reads(self):
        with self.captureOnCommitCallbacks():
            upload = worker_uploads.upload_start(user=self.arbiter, file_name="cup.trf", data=small_trf())
        read = services.preview_read

        def cancelled_meanwhile(**kwargs):
            preview = read(**kwargs)
            services.upload_cancel(upload=Upload.objects.get(pk=upload.pk))
            return preview

        with mock.patch.object(services, "preview_read", cancelled_meanwhile):
            assert worker_uploads.upload_parse(upload_id=upload.pk) is None
        assert not Upload.objects.exists()
