"""The interface's language: the learner's saved choice, else the switcher's cookie, else the
browser's Accept-Language; chosen without JavaScript, refused when it is not one we speak; dates,
numbers and the memoized parts of pages follow it."""

import re
from datetime import date

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

from apps.accounts.languages import SESSION_KEY
from apps.accounts.models import Preferences
from apps.catalog.models import Kind
from apps.learning.views import _rows_shown
from apps.learning.widgets import heatmap_cells, heatmap_labels
from tests.conftest import page_queries
from tests.factories import listed_resource

pytestmark = pytest.mark.django_db

User = get_user_model()
CHINESE = "zh-CN,zh;q=0.9,en;q=0.5"


def _lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode()).group(1)


def _switch(client, language, next_url="/guides/", **extra):
    return client.post(
        reverse("accounts:language"), {"language": language, "next": next_url}, **extra
    )


def test_a_visitor_without_a_choice_gets_english():
    response = Client().get(reverse("learning:guide-list"))
    assert _lang(response) == "en"
    assert response["Content-Language"] == "en"
    assert "Accept-Language" in response["Vary"]


def test_a_browser_asking_for_chinese_gets_chinese():
    response = Client().get(reverse("learning:guide-list"), HTTP_ACCEPT_LANGUAGE=CHINESE)
    assert _lang(response) == "zh-hans"
    assert "语言" in response.content.decode()  # the switcher's label
    assert response["Content-Language"] == "zh-hans"


def test_a_browser_asking_for_a_language_we_do_not_speak_gets_english():
    response = Client().get(reverse("learning:guide-list"), HTTP_ACCEPT_LANGUAGE="fr-FR,fr")
    assert _lang(response) == "en"


def test_a_visitor_switches_without_javascript_and_back():
    visitor = Client()
    response = _switch(visitor, "zh-hans")
    assert response.status_code == 302 and response["Location"] == "/guides/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    assert _lang(visitor.get("/guides/")) == "zh-hans"

    _switch(visitor, "en")
    assert _lang(visitor.get("/guides/", HTTP_ACCEPT_LANGUAGE=CHINESE)) == "en"  # cookie wins


def test_the_switcher_is_a_form_posting_with_csrf_and_no_inline_script():
    html = Client().get(reverse("learning:guide-list")).content.decode()
    form = re.search(r'<form class="language-switch".*?</form>', html, re.S).group(0)
    assert f'action="{reverse("accounts:language")}"' in form and 'method="post"' in form
    assert "csrfmiddlewaretoken" in form
    assert 'value="zh-hans"' in form and "简体中文" in form  # each language named in itself
    assert "<script" not in form and "onchange" not in form


def test_switching_needs_the_csrf_token():
    response = _switch(Client(enforce_csrf_checks=True), "zh-hans")
    assert response.status_code == 403
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


@pytest.mark.parametrize("code", ["fr", "zh-hans'><script>", "x" * 500])
def test_a_language_we_do_not_speak_is_refused_and_nothing_changes(code, learner_client, learner):
    visitor = Client()
    response = _switch(visitor, code)
    assert response.status_code == 400
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    assert "<script>" not in response.content.decode()

    response = _switch(learner_client, code)
    assert response.status_code == 400
    assert not Preferences.objects.filter(user=learner).exclude(language="").exists()


def test_switching_never_sends_anyone_to_another_site():
    response = _switch(Client(), "zh-hans", next_url="https://evil.example/")
    assert response["Location"] == reverse("learning:home")


def test_a_learner_saves_a_language_on_the_account_and_it_follows_them(client, learner):
    client.force_login(learner)
    response = _switch(client, "zh-hans", next_url=reverse("accounts:account"))
    assert response.status_code == 302
    assert Preferences.objects.get(user=learner).language == "zh-hans"
    page = client.get(reverse("accounts:account"), HTTP_ACCEPT_LANGUAGE="en")
    assert _lang(page) == "zh-hans"
    assert "语言已保存：简体中文。" in page.content.decode()  # said in the new language

    elsewhere = Client()  # another browser, no cookie, asking for English
    elsewhere.force_login(User.objects.get(pk=learner.pk))  # the saved choice is copied in
    assert elsewhere.session[SESSION_KEY] == "zh-hans"
    assert _lang(elsewhere.get("/guides/", HTTP_ACCEPT_LANGUAGE="en")) == "zh-hans"


def test_the_account_page_offers_the_language_form(learner_client):
    html = learner_client.get(reverse("accounts:account")).content.decode()
    assert 'action="/language/"' in html
    assert '<option value="" selected>Your browser' in html  # nothing saved yet


def test_choosing_the_browsers_language_clears_the_saved_one(client, learner):
    Preferences.objects.create(user=learner, language="zh-hans")
    client.force_login(learner)
    response = _switch(client, "", next_url=reverse("accounts:account"))
    assert Preferences.objects.get(user=learner).language == ""
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == ""  # deleted
    assert _lang(client.get("/guides/", HTTP_ACCEPT_LANGUAGE=CHINESE)) == "zh-hans"
    assert _lang(client.get("/guides/", HTTP_ACCEPT_LANGUAGE="en")) == "en"


def test_an_unusable_saved_language_falls_back_to_the_browser(client, learner):
    Preferences.objects.create(user=learner, language="tlh")  # a language since removed
    client.force_login(learner)
    assert _lang(client.get("/guides/", HTTP_ACCEPT_LANGUAGE=CHINESE)) == "zh-hans"


def test_dates_follow_the_language():
    day = date(2026, 3, 2)
    with translation.override("en"):
        assert date_format(day) == "2 Mar 2026"
    with translation.override("zh-hans"):
        assert date_format(day) == "2026年3月2日"


def test_numbers_and_counts_follow_the_language():
    page = Paginator(range(1033), 100).page(2)
    with translation.override("en"):
        assert _rows_shown(page, 200, of_all=True) == "Showing 101–200 of 1,033 resources"
    with translation.override("zh-hans"):
        assert _rows_shown(page, 200, of_all=True) == "显示第 101–200 项，共 1,033 个资源"


def test_the_heatmap_speaks_the_language_and_keeps_one_frame_per_language():
    days = [(date(2026, 3, 2), 3), (date(2026, 3, 3), 0)]
    with translation.override("en"):
        assert "<title>3 on Mon 2 Mar 2026</title>" in heatmap_cells(days)
        assert ">Mon<" in heatmap_labels(days)
    with translation.override("zh-hans"):
        assert "<title>2026年3月2日 星期一：3</title>" in heatmap_cells(days)
        assert ">周一<" in heatmap_labels(days)
    with translation.override("en"):
        assert "<title>3 on Mon 2 Mar 2026</title>" in heatmap_cells(days)


def test_a_memoized_page_is_kept_per_language(django_assert_max_num_queries):
    """The guide page's rows are built once and kept (apps.core.content): a Chinese reader never
    gets the English build, nor the other way round, however they alternate."""
    resource = listed_resource(kind=Kind.PAPER, title="Attention Is All You Need")
    guide = resource.entries.get().section.guide
    url = guide.get_absolute_url()
    visitor = Client()
    for language, shown, hidden in [
        ("en", ">Paper<", ">论文<"),
        ("zh-hans", ">论文<", ">Paper<"),
        ("en", ">Paper<", ">论文<"),
        ("zh-hans", ">论文<", ">Paper<"),
    ]:
        html = visitor.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert _lang_of(html) == language
        assert shown in html and hidden not in html, language


def _lang_of(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


def test_a_chinese_reader_pays_the_same_queries_as_an_english_one(client, learner):
    """The saved language is read from the session, never from the Preferences row; warm pages
    make as many queries in either language."""
    resource = listed_resource(kind=Kind.PAPER)
    url = resource.entries.get().section.guide.get_absolute_url()
    client.force_login(learner)
    english = page_queries(client, url)
    _switch(client, "zh-hans")
    chinese = page_queries(client, url)
    assert _lang(client.get(url)) == "zh-hans"
    assert chinese == english
    for page in (reverse("learning:dashboard"), reverse("accounts:account")):
        _switch(client, "en")
        english = page_queries(client, page)[1]
        _switch(client, "zh-hans")
        assert page_queries(client, page)[1] == english
