"""Learning path pages: the list, one path with its steps and next up, follow/unfollow and pace."""

from urllib.parse import quote

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from apps.paths import pages, selectors
from apps.paths.forms import FollowForm
from apps.paths.models import LearningPath
from apps.paths.services import path_follow, path_unfollow
from apps.progress.bars import step_bar
from apps.progress.overlay import overlay_fill


def path_list(request):
    return render(request, "paths/path_list.html", {"paths": selectors.path_list(user=request.user)})


def path_detail(request, slug):
    path = selectors.published_path(slug=slug)
    view = selectors.path_detail(path=path, user=request.user)
    statuses = {item.resource_id: status for step in view.steps for item, status in step.items if status}
    steps = overlay_fill(
        request,
        pages.path_steps(path=view.path),
        statuses=statuses,
        tallies={step_bar(step).dom_id: step.tally for step in view.steps},
    )
    context = {
        "view": view,
        "heading": pages.path_heading(path=view.path),
        "next_up": pages.next_up_html(view),
        "steps": steps,
        "scope": f"path:{path.uuid}",
    }
    return render(request, "paths/path_detail.html", context)


@require_POST
def path_follow_view(request, slug):
    path = get_object_or_404(LearningPath.objects.published(), slug=slug)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={quote(path.get_absolute_url())}")
    form = FollowForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Hours per week must be a whole number from 1 to 168; nothing was changed.")
    elif form.cleaned_data["action"] == "unfollow":
        path_unfollow(user=request.user, path=path)
        messages.success(request, f"You no longer follow “{path.title}”. Your progress is kept.")
    else:
        path_follow(user=request.user, path=path, hours_per_week=form.cleaned_data["hours_per_week"])
        messages.success(request, f"You follow “{path.title}”; it shows on your dashboard.")
    return redirect(path)
