"""Result file importers: one module per format, one common result (`base.ParsedFile`).

`registry.read_result_file(name, data)` finds the format from the content (never the name), reads
the file with its importer and returns a ParsedFile. This package's `__init__` imports nothing:
the importers import each other (`from tournaments.importers import crheader`), and a package that
imported them back would make a circle.
"""
