"""Tie-breaks of the FIDE Tie-Break Regulations (C.07): the pure rules, and the report's use of them."""
