"""Staff corrections: withdraw a tournament, correct a result, merge players, edit a birth date (each
ends in a re-rating), with the audit log and the staff pages that make them."""
