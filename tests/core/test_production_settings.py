"""Production settings (DEBUG off), each loaded in a fresh interpreter with a controlled environment."""

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]
SECRET = "test-only-" + "k" * 50

# Reads the settings and prints the production-relevant ones as JSON.
DUMP_SETTINGS = """
import json
from django.conf import settings
names = [
    "DEBUG", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SESSION_COOKIE_HTTPONLY", "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SECURE_PROXY_SSL_HEADER",
    "SECURE_REFERRER_POLICY", "SECURE_CONTENT_TYPE_NOSNIFF", "X_FRAME_OPTIONS", "STORAGES", "SECRET_KEY",
]
print(json.dumps({name: getattr(settings, name, None) for name in names}))
"""


def run_python(code, **env):
    """Runs `code` with DJANGO_SETTINGS_MODULE=config.settings and only `env` (plus PATH) set."""
    clean_env = {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        **env,
    }
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + code],
        cwd=BASE_DIR,
        env=clean_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def production_settings(**env):
    result = run_python(DUMP_SETTINGS, DEBUG="false", SECRET_KEY=SECRET, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_refuses_to_start_without_a_secret_key():
    result = run_python("", DEBUG="false")

    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is not set" in result.stderr


def test_a_blank_secret_key_is_no_key():
    result = run_python("", DEBUG="false", SECRET_KEY="")

    assert "SECRET_KEY is not set" in result.stderr


def test_debug_off_is_the_default():
    result = run_python(DUMP_SETTINGS, SECRET_KEY=SECRET)

    assert json.loads(result.stdout)["DEBUG"] is False


def test_secure_cookies_hsts_and_headers_are_on():
    settings = production_settings()

    assert settings["DEBUG"] is False
    assert (
        settings["SESSION_COOKIE_SECURE"]
        and settings["CSRF_COOKIE_SECURE"]
        and settings["SESSION_COOKIE_HTTPONLY"]
    )
    assert settings["SECURE_SSL_REDIRECT"] is True
    assert settings["SECURE_HSTS_SECONDS"] >= 31536000
    assert settings["SECURE_HSTS_INCLUDE_SUBDOMAINS"] and settings["SECURE_HSTS_PRELOAD"]
    assert settings["SECURE_PROXY_SSL_HEADER"] is None, (
        "trusting X-Forwarded-Proto must be opted into"
    )
    assert settings["SECURE_REFERRER_POLICY"] == "same-origin"
    assert settings["SECURE_CONTENT_TYPE_NOSNIFF"] is True
    assert settings["X_FRAME_OPTIONS"] == "DENY"
    assert (
        settings["STORAGES"]["staticfiles"]["BACKEND"]
        == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    )


@pytest.mark.parametrize(
    ("site_url", "https"),
    [("http://syllabus.lan:8000", False), ("https://syllabus.example.com", True)],
)
def test_site_urls_scheme_sets_the_https_defaults(site_url, https):
    """A LAN name over plain HTTP must be able to sign in: no redirect, no secure-only cookies."""
    settings = production_settings(SITE_URL=site_url)

    assert settings["SECURE_SSL_REDIRECT"] is https
    assert settings["SESSION_COOKIE_SECURE"] is https and settings["CSRF_COOKIE_SECURE"] is https


def test_an_explicit_https_setting_wins_over_site_urls_scheme():
    settings = production_settings(
        SITE_URL="http://syllabus.lan:8000", SECURE_SSL_REDIRECT="true", SECURE_COOKIES="true"
    )

    assert settings["SECURE_SSL_REDIRECT"] is True and settings["SESSION_COOKIE_SECURE"] is True


def test_proxy_header_is_trusted_only_when_asked():
    settings = production_settings(SECURE_PROXY_SSL_HEADER="true")

    assert settings["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_secret_key_can_come_from_a_file(tmp_path):
    key_file = tmp_path / "secret_key"
    key_file.write_text("from-a-file-" + "f" * 50 + "\n")

    result = run_python(DUMP_SETTINGS, DEBUG="false", SECRET_KEY_FILE=str(key_file))

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["SECRET_KEY"] == "from-a-file-" + "f" * 50


@pytest.mark.parametrize(
    ("name", "value"),
    [("DEBUG", "maybe"), ("SECURE_SSL_REDIRECT", "yes please"), ("SECURE_COOKIES", "2")],
)
def test_a_bad_boolean_is_a_clear_error(name, value):
    result = run_python("", SECRET_KEY=SECRET, **{name: value})

    assert result.returncode != 0
    assert (
        f"ImproperlyConfigured: {name} must be a boolean (true/false/1/0), got {value!r}"
        in result.stderr
    )


def test_check_deploy_reports_nothing():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        env={
            "PATH": os.environ.get("PATH", ""),
            "DEBUG": "false",
            "SECRET_KEY": SECRET,
            "EMAIL_URL": "smtp://mailer:secret@mail.example.com:587",
        },
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def _names_read_by(path):
    """Environment variable names a module reads through config.env's helpers or os.environ.get."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            is_environ_get = called == "get" and "environ" in ast.unparse(func)
            if called.startswith("env_") or is_environ_get:
                names.add(node.args[0].value)
    return names


def test_env_example_documents_every_variable():
    documented = set(
        re.findall(r"^#?([A-Z][A-Z0-9_]+)=", (BASE_DIR / ".env.example").read_text(), re.MULTILINE)
    )
    modules = [*(BASE_DIR / "config").glob("*.py"), *(BASE_DIR / "apps").rglob("*.py")]
    read = set().union(
        *(_names_read_by(module) for module in modules if "migrations" not in module.parts)
    )
    compose = (BASE_DIR / "docker-compose.yml").read_text()
    read |= set(re.findall(r"\$\{([A-Z][A-Z0-9_]+)", compose))

    assert read - documented - SET_BY_THE_IMAGE == set(), (
        "add these to .env.example (and the README's table)"
    )


# Read by the app but set by the Dockerfile (ENV), not by the operator: not in .env or compose.
SET_BY_THE_IMAGE = {"SYLLABUS_COMMIT"}


def test_what_the_image_sets_is_set_in_the_dockerfile():
    dockerfile = (BASE_DIR / "Dockerfile").read_text()

    assert all(re.search(rf"^ENV {name}=", dockerfile, re.MULTILINE) for name in SET_BY_THE_IMAGE)


def test_the_self_hosting_table_lists_every_variable():
    """The README's configuration table matches .env.example."""
    header = "| Variable | Default | Meaning |"
    docs = [p for p in (BASE_DIR / "README.md",) if p.exists() and header in p.read_text()]
    assert docs, f"no configuration table ({header}) in README.md"
    in_table = set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)`", docs[0].read_text(), re.MULTILINE))
    in_example = set(
        re.findall(r"^#?([A-Z][A-Z0-9_]+)=", (BASE_DIR / ".env.example").read_text(), re.MULTILINE)
    )

    assert in_table == in_example
