"""Speed of the tie-breaks (tournaments/tiebreaks/rules.py)."""
