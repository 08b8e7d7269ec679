"""Settings for the test suite: the real settings, with DEBUG-style static files and fast hashing."""

import os

os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("CACHE_URL", "locmem://")
os.environ.setdefault("EMAIL_URL", "locmem://")
# Jobs run at once, where they are enqueued; tests of the real queue switch to the database.
os.environ.setdefault("TASKS_BACKEND", "immediate")

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not shared-cache memory: threads (concurrency tests, the live server) then get
    # SQLite's real locking with the busy timeout instead of "database table is locked".
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / ".test-db.sqlite3")}  # noqa: F405
