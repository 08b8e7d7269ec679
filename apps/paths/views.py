"""Following a path and setting its pace (the path pages themselves are learner pages, apps.learning)."""

from urllib.parse import quote

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from apps.paths.forms import FollowForm
from apps.paths.models import LearningPath
from apps.paths.services import path_follow, path_unfollow


@require_POST
def path_follow_view(request, slug):
    path = get_object_or_404(LearningPath.objects.published(), slug=slug)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={quote(path.get_absolute_url())}")
    form = FollowForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, "Hours per week must be a whole number from 1 to 168; nothing was changed."
        )
    elif form.cleaned_data["action"] == "unfollow":
        path_unfollow(user=request.user, path=path)
        messages.success(request, f"You no longer follow “{path.title}”. Your progress is kept.")
    else:
        path_follow(
            user=request.user, path=path, hours_per_week=form.cleaned_data["hours_per_week"]
        )
        messages.success(request, f"You follow “{path.title}”; it shows on your dashboard.")
    return redirect(path)
