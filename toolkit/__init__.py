"""Small helpers several apps share: bulk SQL, spreadsheet cells, bidi isolation, the page cache, filters, fields."""
