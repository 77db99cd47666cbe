"""The public tournament pages, cached for everyone: the list, a tournament's report, a player's
calculation (`views`, `urls`, `filters`), and the player pages that combine ratings and
tournaments (`player_views`, mounted under /players/ by federation/urls.py)."""
