"""Stichbuch settings: one module, driven by environment variables.

Every value that differs between a laptop and production is read through the
typed helpers in ``stichbuch.env``; a value that cannot be understood stops the
process with ``ImproperlyConfigured`` naming the variable. The defaults give
the embedded setup: an SQLite file in the repository and Celery tasks run
in-process, so nothing but Python is needed.
"""

from __future__ import annotations

import os
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from stichbuch.env import database_from_url, env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)

# pytest sets PYTEST_VERSION for the length of a run; a test run gets a throwaway key,
# and so does mypy's django plugin, which imports the settings but never serves.
RUNNING_TESTS = "PYTEST_VERSION" in os.environ
_TYPE_CHECKING_RUN = "mypy" in sys.modules

# A development key is acceptable only while DEBUG is on; production must set one.
if DEBUG or RUNNING_TESTS or _TYPE_CHECKING_RUN:
    SECRET_KEY = env_str("SECRET_KEY", "django-insecure-stichbuch-development-only")
else:
    SECRET_KEY = env_str("SECRET_KEY", "")
    if not SECRET_KEY:
        raise ImproperlyConfigured(
            "The environment variable SECRET_KEY is required when DEBUG is off."
        )

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG or RUNNING_TESTS else []
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served by the app (not a CDN)
    "csp",
    "django_htmx",
    "axes",
    "clubs",
    "games",
    "ledger",
    "live",
    "tournaments",
    "analysis",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "stichbuch.api.refuse_empty_query_parameters",
    "stichbuch.pages.no_copy_of_secrets",
    # Axes last, as its documentation asks: it turns a lockout into a 429.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "stichbuch.urls"
WSGI_APPLICATION = "stichbuch.wsgi.application"
ASGI_APPLICATION = "stichbuch.asgi.application"

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
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------

DATABASES = {
    "default": database_from_url(
        env_str("DATABASE_URL", "sqlite:///db.sqlite3"), name="DATABASE_URL", base_dir=BASE_DIR
    )
}
if RUNNING_TESTS and DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # One test database per run: developers sharing a PostgreSQL server would
    # otherwise drop each other's test_<name> in the middle of a run.
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}
elif RUNNING_TESTS and DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # A file, not Django's shared-cache in-memory database: shared cache locks per
    # table and answers a second connection (the live server's threads under the
    # browser tests) "database table is locked" at once, without the busy timeout.
    # A file waits for the writer; in WAL mode its readers never wait at all.
    DATABASES["default"]["TEST"] = {
        "NAME": Path(tempfile.gettempdir()) / f"stichbuch-test-{os.getpid()}.sqlite3"
    }
    DATABASES["default"]["OPTIONS"]["init_command"] = (
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL"
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Authentication -------------------------------------------------------------

AUTHENTICATION_BACKENDS = [
    # Failed logins per address across usernames (password spraying), then axes.
    "stichbuch.throttling.AddressLoginLimitBackend",
    # Axes first: it refuses a locked-out username/address before a password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if RUNNING_TESTS:
    # Hashing a password properly takes ~0.1 s by design; tests create hundreds of users.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"

# Mail, for the password-reset link to a member's address. Without a mail server the
# message is written to the console (the default: set EMAIL_BACKEND and the server's
# settings in production).
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Stichbuch <stichbuch@localhost>")
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 60 * 60 * 24)  # a day
LOGOUT_REDIRECT_URL = "home"

# Login throttling: lock a username *from one address* after repeated failures, so
# one member mistyping at the table cannot lock out the whole club behind one NAT.
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_HTTP_RESPONSE_CODE = 429
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# Failed logins from one address, whatever the usernames, within AXES_COOLOFF_TIME
# before that address is locked out (stichbuch.throttling): against password spraying.
LOGIN_FAILURES_PER_ADDRESS = env_int("LOGIN_FAILURES_PER_ADDRESS", 30)
# How many reverse proxies (each appending to X-Forwarded-For) stand in front of
# gunicorn; 0 means clients connect directly. The one setting from which axes, the
# API throttles and the address limit find the client (stichbuch.client_ip).
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
AXES_CLIENT_IP_CALLABLE = "stichbuch.client_ip.client_ip"

# --- Cache ----------------------------------------------------------------------

# Throttle and login-failure counts live here. Several gunicorn processes must share
# them (CACHE_URL=redis://...), else each process counts on its own; the embedded
# setup keeps the process-local cache.
CACHE_URL = env_str("CACHE_URL", "")
if CACHE_URL:
    if not CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(
            "CACHE_URL must be a Redis URL (redis://, rediss:// or unix://), "
            f"not {CACHE_URL.split(':', 1)[0]!r}."
        )
    CACHES = {"default": {"BACKEND": "stichbuch.cache.FallbackRedisCache", "LOCATION": CACHE_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Internationalisation -------------------------------------------------------

LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
# The server's zone; each club shows its own times in Club.time_zone.
TIME_ZONE = "Europe/Vienna"

# --- Static files ------------------------------------------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            # Tests render templates without running collectstatic first.
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or RUNNING_TESTS
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- Security: strict whenever DEBUG is off -----------------------------------

# Content-Security-Policy (django-csp): scripts, styles, images and connections
# from this origin only; no inline script, no inline <style> element. Style
# *attributes* stay allowed: the recording page's script and the chart legend set
# computed sizes and colours with them (no script can run through one).
CONTENT_SECURITY_POLICY: dict[str, Any] = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

SESSION_COOKIE_HTTPONLY = True
# The language chosen on a page (``/i18n/setlang/``): no script reads it.
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
# A failed CSRF check answers with a page of our own: Django's inlines a <style>.
CSRF_FAILURE_VIEW = "stichbuch.pages.csrf_failure"
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    # The test client and the e2e live server speak plain HTTP.
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not RUNNING_TESTS)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    # Behind a TLS-terminating proxy that sets X-Forwarded-Proto.
    if env_bool("SECURE_PROXY_SSL_HEADER", True):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- REST API ---------------------------------------------------------------------

# An API token (one per device) ends this many days after it was made.
API_TOKEN_DAYS = env_int("API_TOKEN_DAYS", 90)

REST_FRAMEWORK: dict[str, Any] = {
    # Token first: its WWW-Authenticate header makes an anonymous request a 401, not a 403.
    # Per-device tokens stored as digests (clubs.models.ApiToken, see there).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "clubs.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # Logging in and signing up over the API, per client address (see AuthTokenApi).
    "DEFAULT_THROTTLE_RATES": {
        "auth": env_str("AUTH_THROTTLE_RATE", "30/minute"),
        # Password-reset mails to one account (e-mail address), whoever asks.
        "password-reset-account": env_str("PASSWORD_RESET_ACCOUNT_RATE", "3/hour"),
    },
    # "auth" throttles find the client address through stichbuch.client_ip
    # (TRUSTED_PROXY_COUNT), not through DRF's own NUM_PROXIES.
    "DEFAULT_PAGINATION_CLASS": "stichbuch.api.DefaultPagination",
    # JSON with Django's body size limit, a depth limit and valid Unicode only.
    "DEFAULT_PARSER_CLASSES": [
        "stichbuch.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "stichbuch.schema.AutoSchema",
    "EXCEPTION_HANDLER": "stichbuch.api.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
SPECTACULAR_SETTINGS = {
    # /api/docs/ loads Swagger UI from this app's static files, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # No badge fetched from the public validator: the CSP allows no other origin.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "TITLE": "Stichbuch API",
    "DESCRIPTION": "The score book of a card club: Fuchsen and Gradener Königrufen.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Name shared choice sets once; apps add theirs (e.g. a game's status) here, else
    # two "status" enums collide and `check --deploy` warns.
    "ENUM_NAME_OVERRIDES": {
        "SeasonStatusEnum": "clubs.models.Season.Status",
        "RoleEnum": "clubs.models.Role",
        "GameKindEnum": "clubs.models.GameKind",
    },
}

# --- Celery ---------------------------------------------------------------------

# Without a broker, tasks run in-process at once: the embedded setup needs no Redis.
# The live table's push between processes: Redis pub/sub at LIVE_REDIS_URL; without it
# each process pushes to its own viewers only (runserver, a single uvicorn worker).
LIVE_REDIS_URL = env_str("LIVE_REDIS_URL", "")
LIVE_CHANNEL_PREFIX = env_str("LIVE_CHANNEL_PREFIX", "stichbuch:live")
# Open live streams per process, per client address and per live link (or member), and
# the threads (each with a database connection) through which a process's streams read.
LIVE_STREAMS_PER_PROCESS = env_int("LIVE_STREAMS_PER_PROCESS", 500)
LIVE_STREAMS_PER_ADDRESS = env_int("LIVE_STREAMS_PER_ADDRESS", 50)
LIVE_STREAMS_PER_LINK = env_int("LIVE_STREAMS_PER_LINK", 100)
LIVE_DB_THREADS = env_int("LIVE_DB_THREADS", 4)

CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "")
if CELERY_BROKER_URL:
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", "") or None
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
# A task is acknowledged only after it ran, so a worker that dies mid-task hands it
# back; tasks must therefore be idempotent (they recompute and replace).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A task still running when the broker connection is lost cannot be acknowledged any
# more, so the broker hands it out again: the worker cancels it rather than finish a
# copy the queue already holds (Celery 6's default; tasks are idempotent either way).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 60)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 90)
# Periodic tasks: apps add their entries here (e.g. the ledger's repair task).
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {}
# The repair of seasons left behind (a broker outage, a lost worker), under the
# catch-up's lock (stichbuch.catch_up); when nothing is behind it is one query.
PROJECTION_REPAIR_SECONDS = env_int("PROJECTION_REPAIR_SECONDS", 15)
CELERY_BEAT_SCHEDULE["ledger-repair"] = {
    "task": "stichbuch.catch_up_projections",
    "schedule": float(PROJECTION_REPAIR_SECONDS),
}
# A worker that lost the broker retries every few seconds, for as long as it takes,
# and catches up on the projections once connected (stichbuch.catch_up.Consumer).
CELERY_WORKER_CONSUMER = "stichbuch.catch_up:Consumer"
WORKER_RECONNECT_MAX_SECONDS = env_int("WORKER_RECONNECT_MAX_SECONDS", 5)
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BEAT_SCHEDULE["ledger-close"] = {"task": "ledger.close_expired_seasons", "schedule": 3600}
# The analysis of a played deal (analysis.tasks): past this many seconds of search the
# game is stored as "too costly" rather than holding a worker (below the soft limit).
ANALYSIS_BUDGET_SECONDS = env_int("ANALYSIS_BUDGET_SECONDS", 20)
# Analyses take seconds each: they go to a queue of their own ("analysis", a worker
# started with -Q analysis), so that an evening's analyses never hold up the standings.
CELERY_TASK_ROUTES = {
    "analysis.analyse_game": {"queue": "analysis"},
    "analysis.repair_analyses": {"queue": "analysis"},
}
# Games left without a current analysis (a broker outage, a lost worker) are enqueued again.
CELERY_BEAT_SCHEDULE["analysis-repair"] = {"task": "analysis.repair_analyses", "schedule": 300}

# --- Logging ------------------------------------------------------------------------

LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # Axes logs every login at INFO; keep its warnings (lockouts) only.
    "loggers": {"axes": {"level": "WARNING"}},
}
