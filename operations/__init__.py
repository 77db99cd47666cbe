"""Running the site: health for load balancers, metrics for Prometheus, backups, the scheduler's lock.

The top layer: it reads every app's state (rating runs, outboxes, queues) and no app imports it."""
