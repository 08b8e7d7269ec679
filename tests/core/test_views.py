import pytest


@pytest.mark.django_db
def test_healthz_queries_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(1):  # SELECT 1, and nothing else (the tests' cache is locmem)
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok", "host": "ok"}


@pytest.mark.django_db
def test_unknown_url_is_a_404_page(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert b"Not found" in response.content
