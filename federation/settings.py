"""The one settings module. Everything that differs between a laptop, CI and the
federation's server comes from the environment (docs/operators/configuration.md).

With nothing set the site runs on a SQLite file with Celery tasks executed
eagerly, so a fresh checkout just works. DATABASE_URL and CELERY_BROKER_URL
switch to PostgreSQL and Redis with real workers. DJANGO_ENV=production turns
on every safety net and refuses to start without real secrets.
"""

import re
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from federation.env import (
    env_bool,
    env_broker,
    env_cache,
    env_choice,
    env_database,
    env_float,
    env_header,
    env_host,
    env_int,
    env_list,
    env_rate,
    env_str,
    redis_database,
    run_address,
)
from operations import logs, sentry

BASE_DIR = Path(__file__).resolve().parent.parent

DJANGO_ENV = env_choice("DJANGO_ENV", "development", ("development", "production"))
PRODUCTION = DJANGO_ENV == "production"

# --- Core -------------------------------------------------------------------

SECRET_KEY = env_str("SECRET_KEY")
if SECRET_KEY is None:
    if PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY must be set when DJANGO_ENV=production")
    # Only ever used on a developer's machine: production refuses to start without its own.
    SECRET_KEY = "development-only-secret-key-not-for-production-use-7f3a9c1e"  # noqa: S105
# Django's own deployment check: a short or repetitive key can be guessed, and with it every
# session, password-reset and confirmation link can be forged.
if PRODUCTION and (len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5 or SECRET_KEY.startswith("django-insecure-")):
    raise ImproperlyConfigured(
        "SECRET_KEY is too weak for DJANGO_ENV=production: use at least 50 random characters, e.g. the output of "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )

DEBUG = env_bool("DEBUG", default=not PRODUCTION)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DEBUG must be off when DJANGO_ENV=production")

# Development: the address `make run HOST=… PORT=…` serves, which the accepted hosts and the links in
# mail (SITE_URL) follow (federation/env.py). Production names both itself and reads neither.
if not PRODUCTION:
    RUN_HOSTS, RUN_URL = run_address(env_host("HOST", "127.0.0.1"), env_int("PORT", 8000, minimum=1, maximum=65535))
_LOCAL = ["127.0.0.1", "localhost", "[::1]", "testserver"]
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [] if PRODUCTION else list(dict.fromkeys([*_LOCAL, *RUN_HOSTS])))
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DJANGO_ENV=production")
if PRODUCTION and "*" in ALLOWED_HOSTS:
    # Any Host header would be accepted, and links built from it (password resets) could point elsewhere.
    raise ImproperlyConfigured("ALLOWED_HOSTS=* is refused when DJANGO_ENV=production: name the site's host names")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# Empty: the default name, translated ("Chess Federation Ratings"); see context_processors.site_name.
SITE_NAME = env_str("SITE_NAME", "")
# Mail sent by workers has no request to build links from: they start with this address.
SITE_URL = env_str("SITE_URL", None if PRODUCTION else RUN_URL)
if not SITE_URL or not re.fullmatch(r"https?://[^/\s]+(/[^\s]*)?", SITE_URL):
    raise ImproperlyConfigured(
        f"SITE_URL must be an http(s) address such as https://ratings.example.org, not {SITE_URL!r}"
    )
if PRODUCTION and not SITE_URL.startswith("https://"):
    # Mailed links carry password-reset and confirmation tokens: never over plain HTTP.
    raise ImproperlyConfigured(f"SITE_URL must start with https:// when DJANGO_ENV=production, not {SITE_URL!r}")
SITE_URL = SITE_URL.rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "federation",
    # Before staticfiles: its `runserver` (toolkit/management/commands) extends staticfiles' own
    # and the first app's command wins.
    "toolkit",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "django_filters",
    "accounts",
    "players",
    "tournaments",
    "ratings",
    "play",
    # The JSON API (django-ninja; "ninja" for its bundled Swagger UI, served from the site's own static files).
    "ninja",
    "api",
    "guides",
    # Health, metrics, backups and the scheduler lock: the top layer, it reads every app.
    "operations",
]

MIDDLEWARE = [
    # Counts every request by route and status, and its duration (/metrics).
    "operations.metrics.middleware.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "toolkit.security.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.BumpOnWriteMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# The block `manage.py runserver --welcome` (`make run`) ends with: address, accounts, links.
RUNSERVER_WELCOME = "accounts.devcredentials.welcome"
# Static files are served by WhiteNoise: in production collected, hashed and compressed; in development
# from the source folders at each request (no collectstatic; runserver's own view needs DEBUG on).
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
    "whitenoise.middleware.WhiteNoiseMiddleware",
)
WHITENOISE_USE_FINDERS = WHITENOISE_AUTOREFRESH = not PRODUCTION

ROOT_URLCONF = "federation.urls"
WSGI_APPLICATION = "federation.wsgi.application"
ASGI_APPLICATION = "federation.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "federation.context_processors.site",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------

if PRODUCTION and env_str("DATABASE_URL") is None:
    raise ImproperlyConfigured("DATABASE_URL must be set when DJANGO_ENV=production")
DATABASES = {"default": env_database("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
if PRODUCTION and DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured("DJANGO_ENV=production needs a PostgreSQL DATABASE_URL, not SQLite")
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", 60, minimum=0)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # PostgreSQL's default random_page_cost (4) prices an index lookup for a spinning disk; a
    # federation's data sits in memory or on SSD. At 4, a filtered list of 100,000 players
    # hashed all 75,000 rated ones instead of looking up the 3,500 under-12 girls (49 -> 22 ms).
    page_cost = env_float("DATABASE_RANDOM_PAGE_COST", 1.1, minimum=0.1)
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options["options"] = f"{options.get('options', '')} -c random_page_cost={page_cost}".strip()
else:
    # Rating runs write for seconds; let a second writer wait instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 30
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Authentication ---------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"

# --- Internationalisation ---------------------------------------------------

LANGUAGE_CODE = env_choice("LANGUAGE_CODE", "en", ("en", "ru"))
LANGUAGES = [("en", _("English")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Moscow")
USE_I18N = True
USE_TZ = True

# --- Static files and uploads -----------------------------------------------

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(BASE_DIR / "media")))
# Uploaded result files and evidence are private: this folder is never served by URL.
PRIVATE_ROOT = Path(env_str("PRIVATE_ROOT", str(BASE_DIR / "private")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "private": {
        "BACKEND": "toolkit.storage.PrivateStorage",
        "OPTIONS": {"location": PRIVATE_ROOT, "base_url": None},
    },
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# The git-ignored folder of what `make run` writes: logs (var/log/), development passwords (never in production).
VAR_DIR = BASE_DIR / "var"
DEV_CREDENTIALS_FILE = None if PRODUCTION else VAR_DIR / "credentials.json"
MAX_UPLOAD_BYTES = env_int("MAX_UPLOAD_BYTES", 10 * 1024 * 1024, minimum=1024)
# Files larger than this are read by a Celery worker while the preview page shows the progress
# (a 10,000-game PGN takes 10-16 s to read); 0 sends every upload to a worker.
UPLOAD_PARSE_ON_WORKER_BYTES = env_int("UPLOAD_PARSE_ON_WORKER_BYTES", 256 * 1024, minimum=0)

# --- Backups (operations/backup, docs/operators/backups.md) ---------------------

# Where beat's nightly backup goes (an absolute folder; unset: no scheduled backup), at BACKUP_HOUR
# UTC, keeping the newest BACKUP_KEEP (also `manage.py backup`'s default).
BACKUP_DIR = env_str("BACKUP_DIR", None)
if BACKUP_DIR is not None and not Path(BACKUP_DIR).is_absolute():
    raise ImproperlyConfigured(f"BACKUP_DIR={BACKUP_DIR!r} must be an absolute folder such as /var/backups/federation")
BACKUP_KEEP = env_int("BACKUP_KEEP", 14, minimum=1)
BACKUP_HOUR = env_int("BACKUP_HOUR", 3, minimum=0)
if BACKUP_HOUR > 23:
    raise ImproperlyConfigured(f"BACKUP_HOUR={BACKUP_HOUR} must be an hour, 0 to 23")

# --- Cached public pages (toolkit/pagecache.py) -------------------------------

# Anonymous visitors' list pages, player pages, tournament reports and API answers are kept until
# the data changes (every writer bumps the cache's version), or this long at most; 0 turns it off.
PAGE_CACHE_SECONDS = env_int("PAGE_CACHE_SECONDS", 3600, minimum=0)
# How often the version is also checked against the database (for changes no writer announced).
PAGE_CACHE_DB_SECONDS = env_int("PAGE_CACHE_DB_SECONDS", 30, minimum=1)
# Larger answers (a whole list as a spreadsheet) are served fresh each time.
PAGE_CACHE_MAX_BYTES = env_int("PAGE_CACHE_MAX_BYTES", 8 * 1024 * 1024, minimum=0)
# After a rating run the cache is warmed with the pages it changed (before visitors are switched to
# its data: the reports, the home page, the lists' first pages; right after: its players' pages) and
# then, after the switch, the entries visitors asked most (toolkit/popularity.py): at most this many
# of those, for at most this many seconds in all, by this many threads (toolkit/pagecache.py).
PAGE_CACHE_WARM_POPULAR = env_int("PAGE_CACHE_WARM_POPULAR", 3000, minimum=0)
PAGE_CACHE_WARM_SECONDS = env_int("PAGE_CACHE_WARM_SECONDS", 30, minimum=1)
# One by default: with three, a rating run waiting behind the warming waited for three renders
# sharing two cores (issue 28: the upload to its published report took 8.0 s instead of 4.0 s).
PAGE_CACHE_WARM_THREADS = env_int("PAGE_CACHE_WARM_THREADS", 1, minimum=1)

# --- Celery -----------------------------------------------------------------

CELERY_BROKER_URL = env_broker("CELERY_BROKER_URL", None)
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=CELERY_BROKER_URL is None)
if CELERY_BROKER_URL is None:
    if PRODUCTION:
        raise ImproperlyConfigured("CELERY_BROKER_URL must be set when DJANGO_ENV=production")
    if not CELERY_TASK_ALWAYS_EAGER:
        raise ImproperlyConfigured("CELERY_TASK_ALWAYS_EAGER=false needs a CELERY_BROKER_URL")
    CELERY_BROKER_URL = "memory://localhost/"
CELERY_TASK_EAGER_PROPAGATES = True
# Without a broker no `celery beat` runs: `manage.py runserver` runs the periodic jobs of
# federation/celery.py itself (toolkit/scheduler.py). With a broker, `make beat` does.
DEV_SCHEDULER = env_bool("DEV_SCHEDULER", default=CELERY_TASK_ALWAYS_EAGER and not PRODUCTION)
if DEV_SCHEDULER and (PRODUCTION or not CELERY_TASK_ALWAYS_EAGER):
    # The jobs would run in the web process beside beat's: twice, and on the web's time.
    raise ImproperlyConfigured("DEV_SCHEDULER=true is for development without a broker: run `make beat` instead")
# With DEV_SCHEDULER, `runserver` also hands these tasks to a runner of its own (toolkit/scheduler.py)
# instead of running them eagerly inside the request that queued them: one at a time, in a thread
# of their own, so an arbiter's confirmation answers at once and its page follows the rating run.
# Each must be a wake-up without arguments, idempotent (it is sent once more when the runner starts).
# Management commands and tests keep running every task eagerly where it is sent.
DEV_RUNNER_TASKS = ["ratings.tasks.run_rating_requests"]
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE", "celery")
# The computers' moves have their own queue and worker (`make engine-worker`), so a rating run is
# never delayed by a game and a game never waits behind a rating run.
# On more than one machine (docs/operators/multi-host.md) the rating runs and the mobile games'
# messages get queues of their own too, each served by its own pool of workers: RATINGS_QUEUE
# (ratings.tasks.*) and MESSAGES_QUEUE (play.tasks.* but the engine's). Unset, they are the default
# queue that `make worker` serves. Every process (web and workers) must be given the same values:
# the sender picks the queue.
RATINGS_QUEUE = env_str("RATINGS_QUEUE", None)
MESSAGES_QUEUE = env_str("MESSAGES_QUEUE", None)
CELERY_TASK_ROUTES = {"play.tasks.engine_move": {"queue": "engine"}, "play.tasks.calibration_game": {"queue": "engine"}}
if RATINGS_QUEUE:
    CELERY_TASK_ROUTES["ratings.tasks.*"] = {"queue": RATINGS_QUEUE}
if MESSAGES_QUEUE:
    CELERY_TASK_ROUTES["play.tasks.*"] = {"queue": MESSAGES_QUEUE}
# Exactly one scheduler however many `celery beat` run (one per host for safety): the one holding
# a Redis lock (in the broker's Redis) fires the jobs, the others stand by and one takes over within
# BEAT_LOCK_SECONDS of its death (operations/scheduling/beat.py).
CELERY_BEAT_SCHEDULER = "operations.scheduling.beat:LockedScheduler"
BEAT_LOCK_SECONDS = env_int("BEAT_LOCK_SECONDS", 30, minimum=3)
BEAT_LOCK_KEY = env_str("BEAT_LOCK_KEY", "federation:beat")
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "UTC"
CELERY_ENABLE_UTC = True
# A rating run is acknowledged only when it has finished: a worker killed in the
# middle leaves the message in the queue and the run is done again from scratch.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 3600, minimum=10)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", CELERY_TASK_TIME_LIMIT - 60, minimum=5)
if CELERY_TASK_SOFT_TIME_LIMIT >= CELERY_TASK_TIME_LIMIT:
    raise ImproperlyConfigured("CELERY_TASK_SOFT_TIME_LIMIT must be below CELERY_TASK_TIME_LIMIT")
# How long Redis waits before handing an unacknowledged message (a worker died) to another worker.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", CELERY_TASK_TIME_LIMIT + 600, minimum=1)
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# --- Cache ------------------------------------------------------------------

# Shared by every process (login throttling, the API's rate limit, cached pages): Redis in
# production; local memory of one process in development when CACHE_URL is unset.
CACHES = {
    "default": env_cache(
        "CACHE_URL", production=PRODUCTION, timeout=env_float("CACHE_SOCKET_TIMEOUT", 2.0, minimum=0.1)
    )
}
# Clearing the cache empties its whole Redis database: the queued rating runs would go with it.
if (
    CACHES["default"]["LOCATION"].startswith("redis")
    and CELERY_BROKER_URL.startswith("redis")
    and redis_database(CACHES["default"]["LOCATION"]) == redis_database(CELERY_BROKER_URL)
):
    raise ImproperlyConfigured("CACHE_URL and CELERY_BROKER_URL must use different Redis databases")

# --- E-mail -----------------------------------------------------------------

EMAIL_BACKEND = env_choice(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend",
    (
        "django.core.mail.backends.console.EmailBackend",
        "django.core.mail.backends.filebased.EmailBackend",
        "django.core.mail.backends.smtp.EmailBackend",
        "django.core.mail.backends.locmem.EmailBackend",
    ),
)
EMAIL_FILE_PATH = BASE_DIR / "private" / "mail"
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
if PRODUCTION and EMAIL_BACKEND.endswith((".console.EmailBackend", ".locmem.EmailBackend")):
    # Confirmation and password-reset mail would never reach anyone.
    raise ImproperlyConfigured(
        f"EMAIL_BACKEND={EMAIL_BACKEND} loses every mail: when DJANGO_ENV=production use "
        "django.core.mail.backends.smtp.EmailBackend (or the file back-end)"
    )
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "ratings@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Rating systems (federation settings) -----------------------------------

MCHESS_DEFAULT_WEIGHT = env_int("MCHESS_DEFAULT_WEIGHT", 250, minimum=1)
PLAYCHESS_DEFAULT_ENTRY_RATING = env_int("PLAYCHESS_DEFAULT_ENTRY_RATING", 1000, minimum=0)
# The one place the apps above `ratings` are wired into its timeline (ratings.timeline.sources):
# each class gives the rating events of one kind; `ratings` never imports them itself.
RATING_SOURCES = ["tournaments.timeline.TournamentSource", "play.timeline.MobileSource"]
# The database's stamp of what the public pages show (toolkit/pagecache.py imports no app).
PAGE_CACHE_STAMP = "ratings.selectors.ratings_version"
# The pages a rating run changed, which it renders into the cache before (and, the long tail, right
# after) visitors are switched to its data (toolkit/pagecache.py).
PAGE_CACHE_WARM = "tournaments.public.warming.changed_pages"
# Asked before each warmed page: true when a newer rating run waits, so the warming stops and the
# worker goes on to it (its own warming follows).
PAGE_CACHE_WARM_STOP = "ratings.selectors.rating_run_waiting"
# GCR is recomputed once after a burst of rating runs: this long after the last one.
GCR_DEBOUNCE_SECONDS = env_int("GCR_DEBOUNCE_SECONDS", 10, minimum=0)
# For failure drills only: a rating run pauses this long inside its transaction (default 0).
RATING_RUN_PAUSE_SECONDS = env_int("RATING_RUN_PAUSE_SECONDS", 0, minimum=0)
# A running rating run beats its heartbeat this often (PostgreSQL); one silent for RATING_RUN_STALE_SECONDS
# lost its worker and is queued again. A run failing for a passing reason is tried this many times.
RATING_HEARTBEAT_SECONDS = 5
RATING_RUN_STALE_SECONDS = 45
RATING_RUN_MAX_ATTEMPTS = 3
# Replays of at least this many games rate ORR in a forked process beside Mchess and PlayChess.
RATING_PARALLEL_MIN_GAMES = env_int("RATING_PARALLEL_MIN_GAMES", 100_000, minimum=0)

# Mobile chess (play/). A challenge game outside events is rated with W = 250 (spec, Decision).
PLAY_CHALLENGE_WEIGHT = env_int("PLAY_CHALLENGE_WEIGHT", 250, minimum=1)
# The language of the game messages sent on Telegram, e-mail, the console and the web (the pages
# follow each reader's browser; a message has one reader and no browser). SMS keep their compact
# English wording: Cyrillic would make every SMS UCS-2, 70 characters instead of 160.
PLAY_MESSAGE_LANGUAGE = env_choice("PLAY_MESSAGE_LANGUAGE", LANGUAGE_CODE, ("en", "ru"))
# The federation's duty TD (a username): rules on the claims of challenge games, which have no
# event and so no TD of their own. Empty: staff do.
PLAY_DUTY_TD_USERNAME = env_str("PLAY_DUTY_TD_USERNAME", "")
# Where each channel's outbound messages go. The console channel prints and logs, so a bare
# machine needs no gateway; SMS and Telegram replace their entries when configured.
# The back-ends' paths before play/channels/ was a room still name them (an operator's .env keeps working).
_MOVED_BACKENDS = {
    "play.sms.SmsGateway": "play.channels.sms.SmsGateway",
    "play.twilio_sms.TwilioSms": "play.channels.twilio_sms.TwilioSms",
    "play.telegram.TelegramBot": "play.channels.telegram.TelegramBot",
}
_sms_backend = env_str("PLAY_SMS_BACKEND", "play.channels.Console")
_telegram_backend = env_str("PLAY_TELEGRAM_BACKEND", "play.channels.Console")
PLAY_CHANNEL_BACKENDS = {
    "console": "play.channels.Console",
    "web": "play.channels.Web",
    "sms": _MOVED_BACKENDS.get(_sms_backend, _sms_backend),
    "telegram": _MOVED_BACKENDS.get(_telegram_backend, _telegram_backend),
    # Outage notices to players with no other working channel go by Django's mail (EMAIL_BACKEND).
    "email": "play.channels.Email",
}
PLAY_DELIVERY_ATTEMPTS = env_int("PLAY_DELIVERY_ATTEMPTS", 8, minimum=1)
# Messages a minute per number (or chat) on SMS and Telegram (toolkit/ratelimit.py): inbound over the
# limit is dropped with one "wait N s" notice a minute, so a flood from one number cannot starve the
# others (the site's reports count per account alike); outbound over it waits in the outbox for the
# next minute, so a bug cannot send a storm.
PLAY_INBOUND_PER_MINUTE = env_int("PLAY_INBOUND_PER_MINUTE", 30, minimum=1)
PLAY_OUTBOUND_PER_MINUTE = env_int("PLAY_OUTBOUND_PER_MINUTE", 30, minimum=1)
# Verification codes in any 24 hours (play/channels/linking.py), on top of 3 an hour to one number: each
# SMS code costs money and carries the player's name, so an account must not make the site text
# any number it likes. 5 codes per account and per player (each channel apart) cover a typo, an
# expired code and a change of phone; codes for 3 different numbers per player cover a typo and
# the corrected number.
PLAY_CODES_PER_DAY = env_int("PLAY_CODES_PER_DAY", 5, minimum=1)
PLAY_NUMBERS_PER_DAY = env_int("PLAY_NUMBERS_PER_DAY", 3, minimum=1)
# Computer opponents (play/computer/): the UCI engine (Debian's package `stockfish`) and the time
# limit of any one call to it beyond the search's own time; an engine that overruns is killed and
# restarted. Without the binary the site runs and challenges of computers are refused.
PLAY_ENGINE_PATH = env_str("PLAY_ENGINE_PATH", "/usr/games/stockfish")
PLAY_ENGINE_TIMEOUT = env_int("PLAY_ENGINE_TIMEOUT", 10, minimum=1)
# SMS through a self-hosted "SMS Gateway for Android" (play/channels/sms.py): its REST API (the URL ends in
# /3rdparty/v1 on the gateway's cloud or private server, or is the phone's own http://IP:8080) and
# the key its webhooks are signed with. No key: the webhook answers 503 and changes nothing.
SMS_GATEWAY_URL = env_str("SMS_GATEWAY_URL", "")
SMS_GATEWAY_USER = env_str("SMS_GATEWAY_USER", "")
SMS_GATEWAY_PASSWORD = env_str("SMS_GATEWAY_PASSWORD", "")
SMS_WEBHOOK_SIGNING_KEY = env_str("SMS_WEBHOOK_SIGNING_KEY", "")
if SMS_GATEWAY_URL and not SMS_GATEWAY_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(f"SMS_GATEWAY_URL={SMS_GATEWAY_URL!r} must start with http:// or https://")
if PLAY_CHANNEL_BACKENDS["sms"] == "play.channels.sms.SmsGateway" and not (
    SMS_GATEWAY_URL and SMS_GATEWAY_USER and SMS_GATEWAY_PASSWORD
):
    # A gateway back-end without its address or account would fail every message in silence.
    raise ImproperlyConfigured(
        "PLAY_SMS_BACKEND=play.channels.sms.SmsGateway needs SMS_GATEWAY_URL, SMS_GATEWAY_USER and SMS_GATEWAY_PASSWORD"
    )
# SMS bought from Twilio (play/channels/twilio_sms.py), the other "sms" back-end: the account's SID and auth
# token (which also signs Twilio's webhooks: no token, they answer 503 and change nothing), the
# number messages are sent from, the REST API's address (tests point it at a fake server), the
# public origin Twilio calls the webhooks at when a proxy hides it from the site (the signature
# covers the URL), and where Twilio posts each outbound message's status (none: no reports).
TWILIO_ACCOUNT_SID = env_str("TWILIO_ACCOUNT_SID", "")
TWILIO_AUTH_TOKEN = env_str("TWILIO_AUTH_TOKEN", "")
TWILIO_FROM_NUMBER = env_str("TWILIO_FROM_NUMBER", "")
TWILIO_API_URL = env_str("TWILIO_API_URL", "https://api.twilio.com")
TWILIO_WEBHOOK_BASE_URL = env_str("TWILIO_WEBHOOK_BASE_URL", "")
TWILIO_STATUS_CALLBACK_URL = env_str("TWILIO_STATUS_CALLBACK_URL", "")
for _name, _url in (
    ("TWILIO_API_URL", TWILIO_API_URL),
    ("TWILIO_WEBHOOK_BASE_URL", TWILIO_WEBHOOK_BASE_URL),
    ("TWILIO_STATUS_CALLBACK_URL", TWILIO_STATUS_CALLBACK_URL),
):
    if _url and not _url.startswith(("http://", "https://")):
        raise ImproperlyConfigured(f"{_name}={_url!r} must start with http:// or https://")
if PLAY_CHANNEL_BACKENDS["sms"] == "play.channels.twilio_sms.TwilioSms" and not (
    TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN and TWILIO_FROM_NUMBER
):
    # A Twilio back-end without its account or number would fail every message in silence.
    raise ImproperlyConfigured(
        "PLAY_SMS_BACKEND=play.channels.twilio_sms.TwilioSms needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and "
        "TWILIO_FROM_NUMBER"
    )
# Telegram through the Bot API (play/channels/telegram.py): the bot's token, the secret Telegram repeats in
# every webhook call to /play/hooks/telegram/ (no secret: the webhook answers 503 and changes
# nothing), and the API's address before the token (tests point it at a fake server).
TELEGRAM_BOT_TOKEN = env_str("TELEGRAM_BOT_TOKEN", "")
TELEGRAM_WEBHOOK_SECRET = env_str("TELEGRAM_WEBHOOK_SECRET", "")
TELEGRAM_API_URL = env_str("TELEGRAM_API_URL", "https://api.telegram.org/bot")
# The bot's username (without @): "My phones and chats" links to https://t.me/<name>?start=CODE.
# Empty: the page tells the player to send /start CODE to the bot.
TELEGRAM_BOT_USERNAME = env_str("TELEGRAM_BOT_USERNAME", "").lstrip("@")
if TELEGRAM_BOT_USERNAME and not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{3,31}", TELEGRAM_BOT_USERNAME):
    raise ImproperlyConfigured(f"TELEGRAM_BOT_USERNAME={TELEGRAM_BOT_USERNAME!r} is not a Telegram username")
# The hour (UTC) of the daily e-mail digest of mobile games for the players who ask for it.
PLAY_DIGEST_HOUR = env_int("PLAY_DIGEST_HOUR", 7, minimum=0)
if PLAY_DIGEST_HOUR > 23:
    raise ImproperlyConfigured(f"PLAY_DIGEST_HOUR={PLAY_DIGEST_HOUR} must be an hour, 0 to 23")
if not TELEGRAM_API_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(f"TELEGRAM_API_URL={TELEGRAM_API_URL!r} must start with http:// or https://")
if TELEGRAM_WEBHOOK_SECRET and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", TELEGRAM_WEBHOOK_SECRET):
    # Telegram itself refuses any other secret_token in setWebhook: say so at start, not in its answer.
    raise ImproperlyConfigured("TELEGRAM_WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ and -")
if PLAY_CHANNEL_BACKENDS["telegram"] == "play.channels.telegram.TelegramBot" and not TELEGRAM_BOT_TOKEN:
    # A bot back-end without its token would fail every message in silence.
    raise ImproperlyConfigured("PLAY_TELEGRAM_BACKEND=play.channels.telegram.TelegramBot needs TELEGRAM_BOT_TOKEN")

# --- Security ---------------------------------------------------------------

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# toolkit.security.ContentSecurityPolicyMiddleware sends this on every answer. Templates keep
# to it: JavaScript only in static/js/ files, no on*= or style= attributes (tests/toolkit/test_csp.py).
CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
}
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# The page for a form sent without its token, in the site's layout and language.
CSRF_FAILURE_VIEW = "federation.errors.csrf_failure"
if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    if env_bool("SECURE_PROXY_SSL_HEADER", default=False):
        # Only behind a proxy that sets this header itself; otherwise clients could forge it.
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # Load balancers and Prometheus ask each web server itself, over the private network (monitoring.md).
    SECURE_REDIRECT_EXEMPT = [r"^health/", r"^metrics$"]

# --- Clients and the API's rate limit ----------------------------------------

# The header in which the reverse proxy in front of the site passes the client's address
# (X-Forwarded-For, X-Real-IP); empty: the site faces clients directly and REMOTE_ADDR is the
# client. Only set it behind a proxy that sets the header itself, or clients could forge it.
# toolkit.clients.client_address() is the one place that reads it.
TRUSTED_PROXY_HEADER = env_header("TRUSTED_PROXY_HEADER", "")
# Requests per client to the JSON API: N/second, N/minute, N/hour or N/day, or off.
API_RATE_LIMIT = env_rate("API_RATE_LIMIT", "120/minute")

# --- Logging, health, metrics, error reports (docs/operators/monitoring.md) ------

LOG_LEVEL = env_choice("LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR"))
# plain: one line a record; json: one JSON object a line (web, workers, beat, gunicorn), for a log collector.
LOG_FORMAT = env_choice("LOG_FORMAT", "plain", ("plain", "json"))
# A file (0600; relative: under the project) instead of standard error, which keeps warnings and errors.
LOG_FILE = env_str("LOG_FILE", None)
LOG_FILE = None if LOG_FILE is None else str(BASE_DIR / LOG_FILE)  # an absolute path stays as it is
LOGGING = logs.logging_config(LOG_FORMAT, LOG_LEVEL, LOG_FILE)
# /health/ names a part failing when its oldest item has waited longer than this many seconds: a
# worker queue's oldest task, beat's last tick (one a minute), a channel's oldest pending outbound
# message, the oldest rating request still waiting for a worker.
HEALTH_QUEUE_MAX_AGE = env_int("HEALTH_QUEUE_MAX_AGE", 300, minimum=1)
HEALTH_BEAT_MAX_AGE = env_int("HEALTH_BEAT_MAX_AGE", 180, minimum=61)
HEALTH_OUTBOX_MAX_AGE = env_int("HEALTH_OUTBOX_MAX_AGE", 900, minimum=1)
HEALTH_RATING_MAX_WAIT = env_int("HEALTH_RATING_MAX_WAIT", 1800, minimum=1)
# With BACKUP_DIR set: the age of the last good backup before /health/ says "backup" failing (26 h: a
# night missed, with room for a slow one).
HEALTH_BACKUP_MAX_AGE = env_int("HEALTH_BACKUP_MAX_AGE", 26 * 3600, minimum=3600)
# /metrics (Prometheus) answers only `Authorization: Bearer <METRICS_TOKEN>`; unset, it is 404.
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
if METRICS_TOKEN and len(METRICS_TOKEN) < 16:
    raise ImproperlyConfigured("METRICS_TOKEN must be at least 16 characters (or unset, to turn /metrics off)")
# The folder gunicorn's and Celery's processes on one host write their metrics to (prometheus-client
# reads the variable itself); /metrics adds them up. Unset: each process counts alone.
PROMETHEUS_MULTIPROC_DIR = env_str("PROMETHEUS_MULTIPROC_DIR", "")
if PROMETHEUS_MULTIPROC_DIR and not Path(PROMETHEUS_MULTIPROC_DIR).is_dir():
    raise ImproperlyConfigured(f"PROMETHEUS_MULTIPROC_DIR={PROMETHEUS_MULTIPROC_DIR!r} is not a folder")
SENTRY_DSN = env_str("SENTRY_DSN", "")
if SENTRY_DSN:
    sentry.setup(
        dsn=SENTRY_DSN,
        environment=env_str("SENTRY_ENVIRONMENT", DJANGO_ENV),
        release=env_str("SENTRY_RELEASE"),
        sample_rate=env_float("SENTRY_SAMPLE_RATE", 1.0, minimum=0),
        traces_sample_rate=env_float("SENTRY_TRACES_SAMPLE_RATE", 0.0, minimum=0),
    )
