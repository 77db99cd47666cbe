"""The rating history as one timeline of events (tournaments, mobile games, penalty months,
decisions), walked in key order; see walk.py. Apps above `ratings` feed it through sources.py."""
