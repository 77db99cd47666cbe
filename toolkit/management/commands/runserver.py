"""`manage.py runserver` (static files served as by django.contrib.staticfiles' own) that also runs
the periodic jobs when there is no `celery beat`, and the rating runs when there is no worker
(toolkit/scheduler.py)."""

from django.contrib.staticfiles.management.commands.runserver import Command as StaticRunserver

from toolkit.scheduler import runner_start, scheduler_start


class Command(StaticRunserver):
    help = StaticRunserver.help + " Runs the periodic jobs in development (DEV_SCHEDULER)."

    def on_bind(self, server_port):
        # Called once, in the process that serves (the autoreloader's child, not its parent, which
        # only watches files), once the port is ours: a second server that cannot bind runs no jobs.
        super().on_bind(server_port)
        scheduler_start()
        # The one place tasks leave the requests that send them (settings.DEV_RUNNER_TASKS): here.
        runner_start()
