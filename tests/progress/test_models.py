"""Status: the one place the database's NOT_STARTED and the pages' "" meet."""

from apps.progress.models import Status


def test_not_started_is_spelled_empty_on_pages_whatever_the_database_says():
    assert Status.shown(None) == ""
    assert Status.shown("") == ""
    assert Status.shown(Status.NOT_STARTED) == ""
    assert Status.shown("not_started") == ""


def test_a_started_or_finished_status_is_shown_as_itself():
    for status in (Status.IN_PROGRESS, Status.DONE, Status.SKIPPED):
        assert Status.shown(status) == status
        assert Status.shown(status.value) == status.value


def test_finished_is_done_or_skipped():
    from apps.progress.models import FINISHED

    assert {Status.DONE, Status.SKIPPED} == FINISHED
    assert Status.IN_PROGRESS not in FINISHED and "" not in FINISHED
