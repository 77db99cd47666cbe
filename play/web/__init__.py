"""The web channel of mobile chess: the game page a player plays from on a phone, its live parts,
the replay, "My games" and the staff's view of the continuous record. Reads come from
play/selectors.py; every move goes through play.services.message_receive like any channel's."""
