"""The OpenAPI schema at its documented URL, and the docs page built from our own files."""

import re

import pytest

pytestmark = pytest.mark.django_db


def test_the_schema_documents_every_endpoint_and_how_to_authenticate(visitor):
    response = visitor.get("/api/v1/openapi.json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["info"]["title"] == "Syllabus API" and schema["info"]["version"] == "1"
    assert set(schema["paths"]) == {
        "/api/v1/guides",
        "/api/v1/guides/{slug}",
        "/api/v1/guides/{slug}/sections",
        "/api/v1/resources",
        "/api/v1/resources/{uuid}",
        "/api/v1/topics",
        "/api/v1/topics/{slug}",
        "/api/v1/paths",
        "/api/v1/paths/{slug}",
        "/api/v1/me",
        "/api/v1/me/progress",
        "/api/v1/me/progress/{uuid}",
        "/api/v1/me/notes",
        "/api/v1/me/export",
        "/api/v1/me/path-progress",
        "/api/v1/me/path-progress/{slug}",
        "/api/v1/me/resources",
        "/api/v1/me/resources/{pk}",
        "/api/v1/me/resources/{pk}/suggest",
        "/api/v1/me/paths",
        "/api/v1/me/paths/{uuid}",
        "/api/v1/me/paths/{uuid}/progress",
        "/api/v1/me/paths/{uuid}/steps",
        "/api/v1/me/paths/{uuid}/steps/{step_uuid}",
        "/api/v1/me/paths/{uuid}/items",
        "/api/v1/me/paths/{uuid}/items/{item_uuid}",
    }
    schemes = schema["components"]["securitySchemes"]
    assert schemes["BearerToken"] == {"type": "http", "scheme": "bearer"}
    assert schemes["BrowserSession"]["in"] == "cookie"
    patch = schema["paths"]["/api/v1/me/progress/{uuid}"]["patch"]
    assert {"BearerToken": []} in patch["security"]
    assert set(patch["responses"]) >= {"200", "422"}


def test_the_docs_page_loads_swagger_from_our_static_files_with_no_inline_script(visitor):
    response = visitor.get("/api/v1/docs")
    assert response.status_code == 200
    html = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(source.startswith("/static/") for source in sources), sources
    # Only a JSON block (data, never run), no script of its own.
    assert re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", html) == [
        ' type="application/json" id="swagger-settings"'
    ]
    assert '"validatorUrl": null' in html  # Swagger's validator badge would fetch from its site
    assert "script-src 'self'" in response["Content-Security-Policy"]
