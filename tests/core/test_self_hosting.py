"""What a self-hoster configures: settings that fail fast and clearly, the start-up system checks,
the one-line log of a rejected Host, and what docker-compose.yml hands each service."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.core.test_production_settings import SET_BY_THE_IMAGE, _names_read_by

BASE_DIR = Path(__file__).resolve().parents[2]
SECRET = "test-only-" + "k" * 50
SMTP = "smtp://mailer:secret@mail.example.com:587"


def production_env(**env) -> dict:
    """Only PATH, production settings and `env`: what a process of the project starts with here."""
    return {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": SECRET,
        "DATABASE_URL": "sqlite:///:memory:",
        **env,
    }


def run(args, **env):
    """`python ARGS` in the project with only PATH, production settings and `env` set."""
    clean_env = production_env(**env)
    return subprocess.run(
        [sys.executable, *args],
        check=False,
        cwd=BASE_DIR,
        env=clean_env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def setting(name, **env):
    result = run(
        [
            "-c",
            f"import django, json; django.setup(); from django.conf import settings; print(json.dumps(settings.{name}))",
        ],
        **env,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("spelling", ["info", "INFO", " Warning "])
def test_log_level_takes_either_spelling(spelling):
    assert setting("LOGGING", LOG_LEVEL=spelling)["root"]["level"] == spelling.strip().upper()


def test_an_unknown_log_level_is_a_clear_error():
    result = run(["manage.py", "check"], LOG_LEVEL="loud")

    assert result.returncode != 0
    assert "LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, got 'loud'" in result.stderr


@pytest.mark.parametrize(
    ("site_url", "scheme"),
    [("http://localhost:8000", "http"), ("https://syllabus.example.com", "https")],
)
def test_links_in_mails_take_the_scheme_of_site_url(site_url, scheme):
    assert setting("ACCOUNT_DEFAULT_HTTP_PROTOCOL", SITE_URL=site_url) == scheme


@pytest.mark.parametrize("site_url", ["syllabus.example.com", "ftp://example.com", "https://"])
def test_a_site_url_without_scheme_or_host_is_a_clear_error(site_url):
    result = run(["manage.py", "check"], SITE_URL=site_url)

    assert result.returncode != 0
    assert "SITE_URL must be http://HOST or https://HOST" in result.stderr


def test_the_version_is_pyprojects():
    version = re.search(
        r'^version = "([^"]+)"', (BASE_DIR / "pyproject.toml").read_text(), re.MULTILINE
    )[1]

    assert setting("SYLLABUS_VERSION") == version
    assert f"## {version}" in (BASE_DIR / "CHANGELOG.md").read_text()


def test_mail_that_goes_nowhere_is_a_loud_warning_when_debug_is_off():
    result = run(["manage.py", "check"])

    assert result.returncode == 0, result.stderr
    assert "(syllabus.W001) Mail goes nowhere: EMAIL_URL is 'console://'" in result.stderr
    assert "Set EMAIL_URL=smtp://" in result.stderr


@pytest.mark.parametrize("env", [{"EMAIL_URL": SMTP}, {"DEBUG": "true"}])
def test_no_mail_warning_with_a_mail_server_or_in_development(env):
    result = run(["manage.py", "check"], **env)

    assert result.returncode == 0, result.stderr
    assert "syllabus.W001" not in result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


@pytest.mark.parametrize(
    ("name", "value"), [("WEB_CONCURRENCY", "abc"), ("GUNICORN_THREADS", "0"), ("PORT", "80.5")]
)
def test_a_junk_gunicorn_number_stops_migrate_before_web_starts(name, value):
    """compose's migrate runs `manage.py migrate`, which runs the system checks first."""
    result = run(["manage.py", "migrate", "--check"], EMAIL_URL=SMTP, **{name: value})

    assert result.returncode != 0
    assert f"(syllabus.E001) {name} must be a whole number of at least" in result.stderr
    assert repr(value) in result.stderr


def test_a_host_missing_from_allowed_hosts_is_logged_in_one_line():
    code = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "print('status', Client().get('/healthz', HTTP_HOST='proxy.example.net').status_code)\n"
    )
    result = run(["-c", code], EMAIL_URL=SMTP, ALLOWED_HOSTS="syllabus.example.com")

    assert result.returncode == 0, result.stderr
    assert "status 400" in result.stdout
    lines = [line for line in result.stdout.splitlines() if "DisallowedHost" in line]
    assert len(lines) == 1
    assert (
        "Invalid HTTP_HOST header: 'proxy.example.net'. You may need to add 'proxy.example.net' to ALLOWED_HOSTS."
        in lines[0]
    )
    assert "Traceback" not in result.stdout + result.stderr


def _compose_environment(block):
    """The variable names listed under `block:` (an anchor's mapping) in docker-compose.yml."""
    text = (BASE_DIR / "docker-compose.yml").read_text()
    body = re.search(rf"^{re.escape(block)}.*\n((?:  .*\n)+)", text, re.MULTILINE)[1]
    return set(re.findall(r"^  ([A-Z][A-Z0-9_]*):", body, re.MULTILINE))


def test_compose_hands_web_every_setting_and_no_admin_or_database_password():
    modules = [*(BASE_DIR / "config").glob("*.py"), *(BASE_DIR / "apps").rglob("*.py")]
    read = set().union(
        *(_names_read_by(module) for module in modules if "migrations" not in module.parts)
    )
    web = _compose_environment("x-app-environment:")
    admin_only = {"DJANGO_ADMIN_EMAIL", "DJANGO_ADMIN_PASSWORD"}
    # Read by the tests' own settings or by nothing in the container.
    not_for_containers = {"DJANGO_SETTINGS_MODULE"}

    assert read - web - admin_only - not_for_containers - SET_BY_THE_IMAGE == set(), (
        "list these in x-app-environment"
    )
    assert not web & admin_only
    assert "POSTGRES_PASSWORD" not in web
    migrate = re.search(
        r"^  migrate:\n((?:    .*\n|\n)+?)  \w+:\n",
        (BASE_DIR / "docker-compose.yml").read_text(),
        re.MULTILINE,
    )[1]
    assert all(f"      {name}:" in migrate for name in admin_only)
    assert "env_file" not in (BASE_DIR / "docker-compose.yml").read_text()


def test_an_email_url_with_a_bad_port_is_an_error_naming_email_url_not_the_password():
    result = run(["manage.py", "check"], EMAIL_URL="smtp://mailer:s3cret@mail.example.com:58x")

    assert result.returncode != 0
    assert "EMAIL_URL has a port that is not a number from 1 to 65535" in result.stderr
    assert "'mail.example.com:58x'" in result.stderr
    assert "s3cret" not in result.stderr


def test_mail_has_a_timeout_by_default_and_email_timeout_sets_it():
    assert setting("EMAIL_TIMEOUT", EMAIL_URL=SMTP) == 10
    assert setting("EMAIL_TIMEOUT", EMAIL_URL=SMTP, EMAIL_TIMEOUT="3") == 3
    result = run(["manage.py", "check"], EMAIL_URL=SMTP, EMAIL_TIMEOUT="0")
    assert result.returncode != 0
    assert "EMAIL_TIMEOUT must be at least 1 (seconds), got 0" in result.stderr


def test_the_default_sign_up_limit_fits_a_class_behind_one_address():
    assert setting("ACCOUNT_RATE_LIMITS")["signup"] == "60/h/ip"


def test_a_site_url_host_missing_from_allowed_hosts_is_a_start_up_warning():
    result = run(
        ["manage.py", "check"],
        EMAIL_URL=SMTP,
        SITE_URL="https://syllabus.example.com",
        ALLOWED_HOSTS="localhost,127.0.0.1",
    )

    assert result.returncode == 0, result.stderr
    assert "(syllabus.W002) SITE_URL's host 'syllabus.example.com' is not in ALLOWED_HOSTS" in (
        result.stderr
    )
    ok = run(
        ["manage.py", "check"],
        EMAIL_URL=SMTP,
        SITE_URL="https://syllabus.example.com",
        ALLOWED_HOSTS="syllabus.example.com",
    )
    assert "syllabus.W002" not in ok.stdout + ok.stderr


def test_a_database_outage_is_503_and_one_log_line_per_kind_not_tracebacks():
    from tests.smtp_servers import closed_port

    code = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "client = Client(raise_request_exception=False)\n"
        "for _ in range(5):\n"
        "    print('healthz', client.get('/healthz').status_code)\n"
        "    print('page', client.get('/guides/').status_code)\n"
    )
    result = run(
        ["-c", code],
        DATABASE_URL=f"postgres://postgres@127.0.0.1:{closed_port()}/nowhere",
        CACHE_URL="locmem://",
        EMAIL_URL=SMTP,
        ALLOWED_HOSTS="testserver",
        SITE_URL="http://testserver",
        SECURE_SSL_REDIRECT="false",
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.count("healthz 503") == 5
    assert result.stdout.count("page 500") == 5
    log = [line for line in result.stdout.splitlines() if " ERROR " in line]
    assert len(log) == 2, log
    assert (
        "syllabus.health: Unhealthy: The database cannot be reached: check DATABASE_URL" in log[0]
    )
    assert "django.request: Internal Server Error: /guides/ (OperationalError:" in log[1]
    assert "Traceback" not in result.stdout + result.stderr
    assert len(result.stdout) < 3000


def test_log_level_warning_still_shows_the_version_at_start():
    from tests.smtp_servers import closed_port

    port = closed_port()
    clean_env = production_env(
        EMAIL_URL=SMTP.replace("mail.example.com:587", f"127.0.0.1:{closed_port()}"),
        LOG_LEVEL="WARNING",
        PORT=str(port),
        WEB_CONCURRENCY="1",
    )
    process = subprocess.Popen(
        [str(Path(sys.executable).with_name("gunicorn")), "-c", "config/gunicorn.py"],
        cwd=BASE_DIR,
        env=clean_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines = []
    try:
        import time

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            lines.append(line)
            if "The mail server EMAIL_URL names" in line:
                break
    finally:
        process.terminate()
        process.wait(30)
    output = "".join(lines)
    version = setting("SYLLABUS_VERSION")
    assert f"[WARNING] Syllabus {version}" in output
    # ...and the mail server it cannot reach, in one line, once web is up.
    assert "[ERROR] The mail server EMAIL_URL names (127.0.0.1:" in output


def test_jobs_go_to_the_database_queue_unless_tasks_backend_says_otherwise():
    assert setting("TASKS")["default"]["BACKEND"] == "django_tasks_db.DatabaseBackend"
    assert setting("TASKS", TASKS_BACKEND="immediate")["default"]["BACKEND"] == (
        "django.tasks.backends.immediate.ImmediateBackend"
    )
    # Another backend, by its dotted path and its options, with no code change (one that is
    # installed: the apps' tasks are bound to the backend when Django starts).
    swapped = setting(
        "TASKS",
        TASKS_BACKEND="django.tasks.backends.dummy.DummyBackend",
        TASKS_OPTIONS='{"connection": "redis://cache:6379/1"}',
    )["default"]
    assert swapped["BACKEND"] == "django.tasks.backends.dummy.DummyBackend"
    assert swapped["OPTIONS"] == {"connection": "redis://cache:6379/1"}


def test_tasks_options_that_are_not_a_json_object_are_a_clear_error():
    for junk in ("{not json", "[1, 2]"):
        result = run(["manage.py", "check"], TASKS_OPTIONS=junk)
        assert result.returncode != 0
        assert "TASKS_OPTIONS must be a JSON object" in result.stderr
