"""The four rating systems as pure Python: plain data in, plain data out.

No Django, no database. The rating pipeline builds the inputs from the database
and stores every number these modules return; the tests run them directly with
the specification's own numbers.
"""
