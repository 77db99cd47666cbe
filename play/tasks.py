"""Thin Celery tasks of mobile chess: ids in, one service call. Schedules live in federation/celery.py."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from play import services
from play.channels import digest, outbox, telegram
from play.computer import calibration, turn
from play.computer import services as computer
from play.computer.engine import EngineFailed

TRANSIENT = (OperationalError, InterfaceError)


@shared_task(bind=True, autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def deliver(self, transmission_ids: list[int]) -> None:
    """Rows a channel could not take now are tried again after 2, 4, 8... s; when the retries
    run out they stay pending for the outbox sweep (or failed, after PLAY_DELIVERY_ATTEMPTS)."""
    again = outbox.outbound_deliver_retry(transmission_ids)
    if again and self.request.retries < self.max_retries:
        raise self.retry(args=[again], countdown=outbox.retry_delay(self.request.retries))


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def drain_outbox() -> int:
    """The rows of every message committed since the last drain, in one task (see
    play.channels.outbox.outbox_drain); those a channel could not take now go to `deliver`'s
    retries with backoff."""
    sent, again = outbox.outbox_drain()
    if again:
        deliver.apply_async(args=[again], countdown=outbox.retry_delay(0))
    return sent


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=3)
def sweep_games() -> int:
    return services.games_sweep()


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=3)
def sweep_outbox() -> int:
    return outbox.outbox_sweep()


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=10)
def telegram_update(update: dict) -> str:
    """One Telegram Update from the webhook (a dict: Telegram has no id to fetch it by). A retry
    is safe: the update_id is the message's dedup key."""
    return telegram.update_receive(update, now=timezone.now())


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=3)
def send_digests() -> int:
    """The daily e-mail digest (a retry mails nobody twice: see play.channels.digest.MIN_GAP)."""
    return sum(outcome.status == "sent" for outcome in digest.digest_send())


@shared_task(
    autoretry_for=(*TRANSIENT, EngineFailed), retry_backoff=True, retry_backoff_max=30, max_retries=5, acks_late=True
)
def engine_move(game_id: int, ply: int) -> str:
    """A computer's move (routed to the "engine" queue). Safe to run twice: the move carries the
    dedup key engine:<game>:<ply>, and a game that moved on is left alone."""
    return computer.engine_move_play(game_id=game_id, ply=ply)


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=3)
def sweep_computer_moves() -> int:
    return turn.computer_moves_sweep()


@shared_task(
    autoretry_for=(*TRANSIENT, EngineFailed), retry_backoff=True, retry_backoff_max=30, max_retries=5, acks_late=True
)
def calibration_game(game_id: int) -> str:
    """One game of a calibration run (routed to the "engine" queue, so it waits behind the people's
    games there and never beside a rating run). A second delivery finds the result stored."""
    return calibration.calibration_game_play(game_id=game_id)
