"""What a catalog page needs to show the learner's progress: statuses for the ticks, the
bars, and the scope a tick sends back so its response refreshes exactly those bars."""

from apps.progress.bars import guide_bar, topic_bar, topic_tally
from apps.progress.models import Status
from apps.progress.selectors import guide_tallies, progress_row, statuses_for


def progress_context(user, *, guide=None, topic=None, resource=None):
    if guide is not None:
        scope = f"guide:{guide.uuid}"
    elif topic is not None:
        scope = f"topic:{topic.slug}"
    else:
        scope = ""
    context = {"progress_scope": scope, "statuses": {}}
    if not user.is_authenticated:
        return context
    if resource is not None:  # one resource: its row is all the page needs
        progress = progress_row(user=user, resource=resource)
        shown = progress and progress.status != Status.NOT_STARTED
        return context | {
            "my_progress": progress,
            "status_choices": Status.choices,
            "statuses": {resource.id: progress.status} if shown else {},
        }
    context["statuses"] = statuses = statuses_for(user=user)
    if guide is not None:
        tallies = guide_tallies(guide=guide, statuses=statuses)
        context["guide_progress_bar"] = guide_bar(guide, tallies.tally)
        context["section_tallies"] = tallies.sections
    if topic is not None:
        context["topic_progress_bar"] = topic_bar(topic, topic_tally(topic=topic, statuses=statuses))
    return context
