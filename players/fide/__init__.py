"""FIDE's published rating list: parsing its files (lists.py, pure), storing and importing it
(services.py), checking applications and uploads against it (selectors.py)."""
