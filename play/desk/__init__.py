"""The Tournament Director's desk (rules 3, 5, 7, 8, 10): the queue of what waits for the TD, a
game's file, the TD's decisions and the Appeals Commission chairman's rulings on appeals."""
