# Syllabus production image: `docker compose up -d` builds and runs it (see docker-compose.yml).
# .ci/prod-check repeats these steps without Docker (same lock, same commands, same gunicorn config).

ARG PYTHON_IMAGE=python:3.13-slim

# --- builder: the locked dependencies in /opt/venv, nothing else -----------------------------
FROM ${PYTHON_IMAGE} AS builder

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    UV_PROJECT_ENVIRONMENT=/opt/venv \
    UV_PYTHON_DOWNLOADS=never \
    UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy

RUN pip install uv==0.13.8

WORKDIR /src
COPY pyproject.toml uv.lock ./
# Only the lock file and pyproject are in this layer, so code changes reuse it.
RUN --mount=type=cache,target=/root/.cache/uv \
    uv sync --locked --no-dev --no-install-project

# --- runtime ---------------------------------------------------------------------------------
FROM ${PYTHON_IMAGE}

ENV PATH=/opt/venv/bin:$PATH \
    VIRTUAL_ENV=/opt/venv \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=config.settings

RUN groupadd --system --gid 10001 syllabus \
    && useradd --system --uid 10001 --gid syllabus --create-home --home-dir /home/syllabus \
       --shell /usr/sbin/nologin syllabus

COPY --from=builder /opt/venv /opt/venv
WORKDIR /app
COPY . .

# Hashed, compressed static files are baked into the image (whitenoise serves them). Settings
# refuse to load without SECRET_KEY, so this one step gets a throwaway key that no running
# container ever sees. django-ninja ships Redoc beside Swagger UI; the API's docs page is
# Swagger's, so Redoc (11 MB with its source map and gzipped copies) stays out of the image.
RUN SECRET_KEY=collectstatic-only-not-a-secret python manage.py collectstatic --no-input \
        --ignore 'redoc.standalone.js*' \
    && python -m compileall -q config apps

# The code and static files stay root-owned and read-only to the app.
USER syllabus:syllabus

# Which commit this image runs (bin/upgrade passes `git rev-parse --short HEAD`): web's start-up
# line says "Syllabus 0.1.0 (commit abc1234)". Last, so a new commit rebuilds no other layer.
ARG GIT_COMMIT=unknown
ENV SYLLABUS_COMMIT=${GIT_COMMIT}

EXPOSE 8000

# GET /healthz (it queries the database) on gunicorn's port; see config/gunicorn.py.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
    CMD ["python", "config/gunicorn.py"]

CMD ["gunicorn", "--config", "config/gunicorn.py"]
