"""Mobile events, their crosstables, records and PGN; the TD's list."""

urlpatterns: list = []
