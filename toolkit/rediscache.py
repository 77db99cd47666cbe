"""Django's Redis cache, with one client object per connection pool instead of one per call.

Django's RedisCacheClient.get_client() builds a new redis.Redis for every cache operation; building
one (its table of some 170 response callbacks) costs about 0.2 ms of CPU, as much as the round trip
itself. A page served from the page cache makes two or three operations, so this was some 15 % of its
CPU. A redis.Redis is safe to share between threads (each command takes a connection from the
pool), and the pool itself notices a fork (gunicorn preloads the application) and starts afresh.
"""

from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient
