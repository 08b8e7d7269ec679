"""Settings for the test suite: the real settings, with DEBUG-style static files and fast hashing."""

import os

os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("CACHE_URL", "locmem://")
os.environ.setdefault("EMAIL_URL", "locmem://")

from config.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
