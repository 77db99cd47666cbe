"""A large upload read by a real Celery worker on Redis, while the request has long answered."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.test import override_settings

from accounts.roles import ARBITERS, ensure_roles
from tests.tournaments.files import big_pgn
from tests.worker.conftest import wait_for
from tournaments.models import Upload
from tournaments.uploads import worker as worker_uploads

pytestmark = pytest.mark.worker


@pytest.fixture
def arbiter():
    ensure_roles(Group, Permission)
    user = get_user_model().objects.create_user("worker-arbiter")
    user.groups.add(Group.objects.get(name=ARBITERS))
    return user


def test_it_reads_a_large_pgn_on_a_real_worker_with_progress(worker_factory, arbiter):
    # The worker stores and reads files where this process does.
    worker_factory(PRIVATE_ROOT=settings.PRIVATE_ROOT)
    with override_settings(UPLOAD_PARSE_ON_WORKER_BYTES=0):
        upload = worker_uploads.upload_start(user=arbiter, file_name="big.pgn", data=big_pgn(3000, players=100))
    assert Upload.objects.get(pk=upload.pk).status == Upload.Status.PARSING
    seen = set()

    def read():
        current = Upload.objects.get(pk=upload.pk)
        seen.add(current.progress.get("games", 0))
        return current.status != Upload.Status.PARSING and current

    done = wait_for(read, timeout=120, every=0.1, message="the worker to read the file")
    assert done.status == Upload.Status.PREVIEW, done.problems
    assert len(done.preview["file"]["games"]) == 3000
    assert done.progress["games"] == 3000 and done.progress["done"]
    assert len(seen - {0, 3000}) >= 1  # the progress was seen from outside while the worker read
