"""The opening list: a federation's current rating list as the starting state on a date."""
