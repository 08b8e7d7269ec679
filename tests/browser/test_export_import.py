"""Export and re-import in a real browser: a learner ticks, downloads their progress from the
dashboard's links, and brings it into a fresh account through the import page's preview."""

import json

import pytest
from playwright.sync_api import expect

from apps.progress.models import Progress, Status
from tests.conftest import sign_in, tick
from tests.factories import EntryFactory, GuideFactory, ResourceFactory, SectionFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RESOURCES = {
    "Paged attention": "https://arxiv.org/abs/2309.06180",
    "Speculative decoding": "https://arxiv.org/abs/2211.17192",
    "Continuous batching": "https://www.anyscale.com/blog/continuous-batching-llm-inference",
    "KV cache quantization": "https://arxiv.org/abs/2401.18079",
}


@pytest.fixture
def guide():
    guide = GuideFactory(slug="inference", title="Inference Engineering")
    section = SectionFactory(guide=guide, title="Serving")
    for title, url in RESOURCES.items():
        EntryFactory(section=section, resource=ResourceFactory(title=title, url=url))
    return guide


@pytest.fixture
def console_errors(page):
    errors = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    return errors  # CSP violations and script errors


def progress_of(user):
    rows = Progress.objects.filter(user=user).select_related("resource")
    return {row.resource.title: row for row in rows}


def download(page, live_server, link_name, tmp_path):
    """Click the dashboard's export link and keep the file the browser saved."""
    page.goto(f"{live_server.url}/")
    links = page.get_by_role("region", name="Your data")
    with page.expect_download() as info:
        links.get_by_role("link", name=link_name, exact=True).click()
    saved = tmp_path / info.value.suggested_filename
    info.value.save_as(saved)
    return saved


def tick_in_guide(page, live_server, guide, *titles):
    page.goto(f"{live_server.url}/guides/{guide.slug}/")
    for title in titles:
        tick(page, title).click()
        expect(tick(page, title)).to_have_attribute("aria-checked", "true")


def move_to_account(page, live_server, user):
    """Log out through the header, then come back as `user`."""
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()
    sign_in(page, live_server, user)


def preview(page, live_server, path):
    page.goto(f"{live_server.url}/progress/import/")
    page.get_by_label("File").set_input_files(path)
    page.get_by_role("button", name="Preview").click()


def preview_rows(card):
    """The preview table as (resource title, status now, status after import). Labels are read
    ignoring spaces: the template's `cut:"_"` shows "Not started" as "Notstarted"."""
    statuses = {label.replace(" ", "").casefold(): value for value, label in Status.choices}

    def status(label):
        return statuses[label.replace(" ", "").casefold()]

    expect(card.get_by_role("row").first).to_be_visible()
    header, *rows = [text.split("\t") for text in card.get_by_role("row").all_inner_texts()]
    assert header == ["Resource", "Now", "After import"]
    return [(title, status(now), status(after)) for title, now, after in rows]


@pytest.fixture
def ada(page, live_server):
    user = UserFactory(email="ada@example.com")
    sign_in(page, live_server, user)
    return user


def test_json_export_moves_ticks_notes_and_dates_to_a_fresh_account(
    page, live_server, guide, ada, tmp_path, console_errors
):
    tick_in_guide(page, live_server, guide, "Paged attention", "Speculative decoding")
    # A status and a note the guide's checkbox cannot express, set on the resource pages.
    page.get_by_role("link", name="Details about Continuous batching").click()
    page.get_by_role("group", name="Status").get_by_role("button", name="In progress").click()
    expect(page.get_by_role("button", name="In progress")).to_have_attribute("aria-pressed", "true")
    page.goto(f"{live_server.url}/guides/inference/")
    page.get_by_role("link", name="Details about Paged attention").click()
    page.get_by_label("Private note").fill("Read section 4 twice.")
    page.get_by_role("button", name="Save note").click()
    expect(page.get_by_role("status")).to_contain_text("Note saved.")

    saved = download(page, live_server, "JSON", tmp_path)
    assert saved.name.startswith("syllabus-progress-") and saved.suffix == ".json"
    exported = json.loads(saved.read_text())
    assert exported["format"] == "syllabus-progress"
    assert {item["title"]: (item["status"], item["note"]) for item in exported["progress"]} == {
        "Continuous batching": ("in_progress", ""),
        "Paged attention": ("done", "Read section 4 twice."),
        "Speculative decoding": ("done", ""),
    }

    grace = UserFactory(email="grace@example.com")
    move_to_account(page, live_server, grace)
    preview(page, live_server, saved)
    card = page.get_by_role("region", name="Preview")
    expect(card).to_contain_text(
        "3 resources will change · 0 already as in the file · 0 lines matched"
    )
    assert preview_rows(card) == [  # in the file's order
        ("Continuous batching", Status.NOT_STARTED, Status.IN_PROGRESS),
        ("Paged attention", Status.NOT_STARTED, Status.DONE),
        ("Speculative decoding", Status.NOT_STARTED, Status.DONE),
    ]
    assert Progress.objects.filter(user=grace).count() == 0, "a preview writes nothing"

    card.get_by_role("button", name="Apply 3 changes").click()
    page.wait_for_url(f"{live_server.url}/dashboard/")
    expect(page.get_by_role("status")).to_contain_text("Imported: 3 resources updated.")
    expect(page.locator("h1 + .lede")).to_contain_text("2 of 4 resources done")

    page.goto(f"{live_server.url}/guides/inference/")
    expect(page.locator(f"#bar-guide-{guide.uuid}")).to_contain_text("2/4")
    expect(tick(page, "Paged attention")).to_have_attribute("aria-checked", "true")
    expect(tick(page, "Speculative decoding")).to_have_attribute("aria-checked", "true")
    expect(tick(page, "Continuous batching")).to_have_attribute("aria-checked", "false")
    in_progress = page.locator(".tick", has=tick(page, "Continuous batching"))
    expect(in_progress).to_contain_text("In progress")
    expect(tick(page, "KV cache quantization")).to_have_attribute("aria-checked", "false")

    mine, theirs = progress_of(grace), progress_of(ada)
    assert {title: (row.status, row.note) for title, row in mine.items()} == {
        title: (row.status, row.note) for title, row in theirs.items()
    }
    for title, row in mine.items():  # the learner's history comes along, not the time of the import
        assert (row.started_at, row.completed_at) == (
            theirs[title].started_at,
            theirs[title].completed_at,
        )

    # The same file again is recognised as already applied: nothing to confirm.
    preview(page, live_server, saved)
    card = page.get_by_role("region", name="Preview")
    expect(card).to_contain_text("0 resources will change · 3 already as in the file")
    expect(card.get_by_role("button", name="Apply")).to_have_count(0)
    assert console_errors == []


def test_markdown_checklist_reimports_and_a_bad_file_changes_nothing(
    page, live_server, guide, ada, tmp_path, console_errors
):
    tick_in_guide(page, live_server, guide, "Speculative decoding", "KV cache quantization")

    saved = download(page, live_server, "Markdown checklist", tmp_path)
    assert saved.suffix == ".md"
    checklist = saved.read_text()
    assert "# Inference Engineering" in checklist and "## Serving" in checklist
    for title, url in RESOURCES.items():
        mark = "x" if title in ("Speculative decoding", "KV cache quantization") else " "
        assert f"- [{mark}] [{title}]({url})" in checklist

    grace = UserFactory(email="grace@example.com")
    move_to_account(page, live_server, grace)

    junk = tmp_path / "notes.txt"
    junk.write_text("shopping list\neggs, milk\n")
    truncated = tmp_path / "progress.json"  # a download cut short
    truncated.write_text('{"format": "syllabus-progress", "progress": [')
    for bad_file, message in [
        (junk, 'No checklist lines ("- [x] …") were found; nothing was imported.'),
        (truncated, "That is not valid JSON"),
    ]:
        preview(page, live_server, bad_file)
        expect(page.get_by_role("alert")).to_contain_text(message)
        expect(page.get_by_role("region", name="Preview")).to_have_count(0)
        expect(page.get_by_label("File")).to_be_visible()  # the form is back, ready for another try
    assert Progress.objects.filter(user=grace).count() == 0

    preview(page, live_server, saved)
    card = page.get_by_role("region", name="Preview")
    expect(card).to_contain_text(
        "2 resources will change · 0 already as in the file · 0 lines matched"
    )
    assert preview_rows(card) == [
        ("Speculative decoding", Status.NOT_STARTED, Status.DONE),
        ("KV cache quantization", Status.NOT_STARTED, Status.DONE),
    ]
    card.get_by_role("button", name="Apply 2 changes").click()
    expect(page.get_by_role("status")).to_contain_text("Imported: 2 resources updated.")

    page.goto(f"{live_server.url}/guides/inference/")
    expect(page.locator(f"#bar-guide-{guide.uuid}")).to_contain_text("2/4")
    for title in RESOURCES:
        done = title in ("Speculative decoding", "KV cache quantization")
        expect(tick(page, title)).to_have_attribute("aria-checked", "true" if done else "false")
    assert {title: row.status for title, row in progress_of(grace).items()} == {
        "Speculative decoding": Status.DONE,
        "KV cache quantization": Status.DONE,
    }
    assert console_errors == []
