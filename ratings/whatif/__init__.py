"""What-if: the rating changes a tournament would cause, computed by the real rating code, written nowhere."""
