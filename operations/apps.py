from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OperationsConfig(AppConfig):
    name = "operations"
    verbose_name = _("Operations")

    def ready(self) -> None:
        # The metrics hear the lower apps' signals (they never import operations), and every task
        # this process publishes carries its sending time, for the queues' age on /health/.
        from celery.signals import before_task_publish, worker_process_shutdown

        from operations.health import broker
        from operations.metrics import receivers
        from play import signals as play_signals
        from ratings import signals as rating_signals

        rating_signals.rating_run_finished.connect(receivers.rating_run_finished, weak=False)
        play_signals.message_received.connect(receivers.message_received, weak=False)
        play_signals.messages_delivered.connect(receivers.messages_delivered, weak=False)
        play_signals.claim_event.connect(receivers.claim_event, weak=False)
        before_task_publish.connect(broker.stamp, weak=False)
        worker_process_shutdown.connect(receivers.worker_process_shutdown, weak=False)
