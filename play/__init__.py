"""Mobile chess: games played by messages under the federation's rules (docs/rules/mobile-chess.md)."""
