"""Computer opponents: Stockfish levels that play mobile chess through the message service."""
