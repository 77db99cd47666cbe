"""Site-wide guarantees: tests that take their list of pages from the URL configuration itself
(tests/sitewide/federation.py builds the fixture federation and fills every pattern)."""
