"""The read-only JSON API at /api/: rating lists (with the list pages' filters), players and
tournament reports, served with django-ninja (typed answers, an OpenAPI 3 schema at
/api/openapi.json, interactive documentation at /api/docs), counted per client
(toolkit.ratelimit) and kept in the public page cache. See docs/developers/rooms-api.md."""
