"""A tick's scope: one reader and one writer of the text a tick form posts."""

import uuid
from types import SimpleNamespace

from apps.learning import scope as scopes
from apps.learning.scope import TickScope


def test_a_scope_reads_back_what_it_writes():
    guide = SimpleNamespace(uuid=uuid.uuid4())
    topic = SimpleNamespace(slug="attention")
    for scope in (
        TickScope.of_guide(guide),
        TickScope.of_topic(topic),
        TickScope.of_path(guide),
        TickScope.of_own_path(guide),
        scopes.DASHBOARD,
        scopes.RESOURCE,
        scopes.NOTEBOOK,
        scopes.ELSEWHERE,
    ):
        assert TickScope.parse(str(scope)) == scope
    assert str(TickScope.of_guide(guide)) == f"guide:{guide.uuid}"
    assert str(TickScope.of_topic(topic)) == "topic:attention"
    assert str(TickScope.of_own_path(guide)) == f"own:{guide.uuid}"


def test_no_scope_or_any_text_is_read_without_failing():
    assert TickScope.parse(None) == TickScope.parse("") == scopes.ELSEWHERE
    assert TickScope.parse("guide:x:y") == TickScope("guide", "x:y")
    assert TickScope.parse("nonsense").kind == "nonsense"


def test_only_pages_with_bars_have_a_refresh():
    from apps.learning.widgets import TICK_REFRESHES

    assert set(TICK_REFRESHES) == {"guide", "topic", "path", "own", "dashboard"}


def test_only_pages_with_a_filtered_list_refresh_it():
    from apps.learning.views import LIST_REFRESHES

    assert set(LIST_REFRESHES) == {"guide", "topic", "path", ""}  # "": a search
