"""Which system predicts best (issue 27, part 2): the figures, their page and their cache."""
