"""Pairing an event's players: pure, no Django (the services create the games)."""


def round_robin(players: list) -> list[tuple]:
    """Every pair once, by the circle method: the first player stays put and the others turn
    round him. His colour alternates round by round; in every other pair the player in the upper
    row has White. Each player moves between the rows as the circle turns, so everyone has White
    in half his games, or one more or one less when he plays an odd number (the rule used before,
    the round's and the board's parity together, left the second player never White)."""
    field_ = list(players)
    if len(field_) % 2:
        field_.append(None)
    n = len(field_)
    pairs = []
    for rnd in range(n - 1):
        for i in range(n // 2):
            a, b = field_[i], field_[n - 1 - i]
            if a is None or b is None:
                continue
            upper_white = i > 0 or rnd % 2 == 0
            pairs.append((a, b) if upper_white else (b, a))
        field_ = [field_[0], field_[-1], *field_[1:-1]]
    return pairs
