"""`manage.py runserver` (static files served as by django.contrib.staticfiles' own) that also runs
the periodic jobs when there is no `celery beat`, and the rating runs when there is no worker
(toolkit/scheduler.py)."""

from django.conf import settings
from django.contrib.staticfiles.management.commands.runserver import Command as StaticRunserver
from django.utils.module_loading import import_string

from toolkit.scheduler import runner_start, scheduler_start


class Command(StaticRunserver):
    help = StaticRunserver.help + " Runs the periodic jobs in development (DEV_SCHEDULER)."
    welcome = False

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument(
            "--welcome",
            action="store_true",
            help="once serving, print the block `make run` ends with (RUNSERVER_WELCOME) instead of Django's banner",
        )

    def handle(self, *args, **options):
        self.welcome = options["welcome"]
        return super().handle(*args, **options)

    def on_bind(self, server_port):
        # Called once, in the process that serves (the autoreloader's child, not its parent, which
        # only watches files), once the port is ours: a second server that cannot bind runs no jobs.
        if not self.welcome:
            super().on_bind(server_port)
        scheduler_start()
        # The one place tasks leave the requests that send them (settings.DEV_RUNNER_TASKS): here.
        runner_start()
        if self.welcome:
            # Last, so that nothing but the requests' own lines follows it (see the block's module).
            everywhere = self.addr in ("0", "0.0.0.0", "::")  # noqa: S104 - only compared
            host = "127.0.0.1" if everywhere else f"[{self.addr}]" if self._raw_ipv6 else self.addr
            welcome = import_string(settings.RUNSERVER_WELCOME)
            self.stdout.write(welcome(f"{self.protocol}://{host}:{server_port}", everywhere=everywhere))
