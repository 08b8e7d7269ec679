"""The interface in Simplified Chinese: every key page's own words come from the templates'
translations (locale/zh_Hans), chosen by the browser's Accept-Language; English stays English.

Only words each page renders itself are checked here: the parts memoized per content version
(a guide's heading, stamped rows) are keyed per language by the caches, not by the templates."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from apps.paths.models import LearningPath, PathStep, StepResource
from tests.progress.conftest import catalog  # noqa: F401 - shared fixture

pytestmark = pytest.mark.django_db

# Words of base.html every page shows a signed-in learner: (English, Chinese).
CHROME = [(">Guides<", ">指南<"), (">Topics<", ">主题<"), (">Log out<", ">退出登录<")]


@pytest.fixture
def pages(catalog):  # noqa: F811 - the fixture, by name
    """Each key page, with a word of its own in English and in Chinese."""
    path = LearningPath.objects.create(slug="kernels", title="Kernels", guide=catalog["guide"])
    step = PathStep.objects.create(path=path, position=1, title="Foundations")
    StepResource.objects.create(step=step, resource=catalog["resources"][0], position=1)
    resource = catalog["resources"][0]
    return {
        reverse("learning:home"): ("Skip to content", "跳到正文"),
        catalog["guide"].get_absolute_url(): (">Keyboard<", ">键盘操作<"),
        reverse("learning:dashboard"): ("Recently completed", "最近完成"),
        path.get_absolute_url(): ("Follow this path", "关注这条路径"),
        reverse("accounts:account"): ("Delete my account", "删除我的账户"),
        reverse("learning:search") + "?q=attention": (
            "Titles, authors and descriptions",
            "标题、作者和描述",
        ),
        resource.get_absolute_url(): (">Save note<", ">保存笔记<"),
    }


def _html(client, url, language):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, url
    return response.content.decode()


def test_key_pages_speak_chinese_to_a_chinese_browser(client, learner, pages):
    cache.clear()
    client.force_login(learner)
    for url, (english, chinese) in pages.items():
        html = _html(client, url, "zh-CN,zh;q=0.9,en;q=0.5")
        assert '<html lang="zh-hans">' in html, url
        assert chinese in html, url
        assert english not in html, url
        for chrome_english, chrome_chinese in CHROME:
            assert chrome_chinese in html and chrome_english not in html, url


def test_english_stays_english(client, learner, pages):
    cache.clear()
    client.force_login(learner)
    for url, (english, chinese) in pages.items():
        html = _html(client, url, "en-GB,en;q=0.9")
        assert '<html lang="en">' in html, url
        assert english in html and chinese not in html, url
        for chrome_english, chrome_chinese in CHROME:
            assert chrome_english in html and chrome_chinese not in html, url


def test_plural_counts_and_placeholders_are_translated(client, learner, catalog):  # noqa: F811
    cache.clear()
    client.force_login(learner)
    html = _html(client, reverse("learning:dashboard"), "zh-hans")
    assert "所有指南共完成 0 / " in html  # "%(done)s of %(countable)s resources done"
    assert "当前连续 <strong>0</strong> 天" in html  # a {% blocktranslate count %}
    html = _html(client, reverse("learning:dashboard"), "en")
    assert "<strong>0</strong> days current streak" in html
