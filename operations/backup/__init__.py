"""Backups of the whole site (the database and the uploaded files) and their restore into an empty
database: `manage.py backup` / `manage.py restore`, the nightly beat job, docs/operators/backups.md.

`folders.py` (names, checksums, the manifest, keep-N) and `archive.py` (the files' tar) are pure
Python; `postgres.py` finds the matching pg_dump/pg_restore and runs them; `services.py` puts them
together with Django's connection and records each run (`BackupRun`)."""
