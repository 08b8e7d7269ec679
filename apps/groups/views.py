"""Study groups' pages. Every group page and action loads the group through
`_member` (selectors.membership_for: a member, else 404 — an outsider, a removed member — and a
visitor is sent to sign in); owner-only ones through `_owner` (a member who is not the owner gets
403). Actions are plain forms that redirect; the board's "hide my progress" answers htmx with the
board itself, so every number is the one a reload shows."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from apps.groups import invites, selectors, services
from apps.groups.forms import GroupForm, InviteForm, MembershipForm, VisibilityForm
from apps.groups.models import GroupInvite, Membership


def _member(request, uuid) -> Membership:
    return selectors.membership_for(user=request.user, uuid=uuid)


def _owner(request, uuid) -> Membership:
    membership = _member(request, uuid)
    if not membership.is_owner:
        raise PermissionDenied(_("Only the group’s owner may do that."))
    return membership


@never_cache
@login_required
@require_safe
def group_list(request):
    return render(
        request,
        "groups/group_list.html",
        {"memberships": selectors.memberships_for(user=request.user)},
    )


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def group_create_view(request):
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        group = services.group_create(user=request.user, **form.cleaned_data)
        messages.success(request, _("Your group is ready. Invite people from its Invites page."))
        return redirect(group)
    status = 400 if request.method == "POST" else 200
    return render(request, "groups/group_form.html", {"form": form}, status=status)


def _board(request, membership, status=200):
    board = selectors.group_board(viewer=membership)
    template = "groups/group_detail.html#board" if request.htmx else "groups/group_detail.html"
    return render(request, template, {"board": board, "group": membership.group}, status=status)


@never_cache
@vary_on_headers("HX-Request")
@login_required
@require_safe
def group_detail(request, uuid):
    return _board(request, _member(request, uuid))


@never_cache
@login_required
@require_POST
def group_visibility(request, uuid):
    membership = _member(request, uuid)
    form = VisibilityForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("That was not a choice; nothing was changed."))
        return redirect(membership.group) if not request.htmx else _board(request, membership, 400)
    services.membership_set(membership=membership, progress_hidden=form.cleaned_data["hidden"])
    if request.htmx:
        return _board(request, membership)
    if form.cleaned_data["hidden"]:
        messages.success(request, _("Your progress is hidden from the group."))
    else:
        messages.success(request, _("The group sees your progress again."))
    return redirect(membership.group)


@never_cache
@vary_on_headers("HX-Request")
@login_required
@require_safe
def group_activity_view(request, uuid):
    membership = _member(request, uuid)
    page = selectors.group_activity(group=membership.group, page_number=request.GET.get("page"))
    here = request.path
    context = {
        "group": membership.group,
        "membership": membership,
        "page": page,
        "previous_url": f"{here}?page={page.previous_page_number()}" if page.has_previous() else "",
        "next_url": f"{here}?page={page.next_page_number()}" if page.has_next() else "",
    }
    template = (
        "groups/group_activity.html#activity" if request.htmx else "groups/group_activity.html"
    )
    return render(request, template, context)


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def group_settings(request, uuid):
    membership = _member(request, uuid)
    if request.method == "POST":
        form = MembershipForm(request.POST)
        if form.is_valid():
            services.membership_set(membership=membership, **form.cleaned_data)
            messages.success(request, _("Your choices for this group are saved."))
            return redirect("groups:group-settings", uuid)
        status = 400
    else:
        form = MembershipForm(
            initial={
                "progress_hidden": membership.progress_hidden,
                "weekly_mail": membership.weekly_mail,
            }
        )
        status = 200
    return render(
        request,
        "groups/group_settings.html",
        {"group": membership.group, "membership": membership, "form": form},
        status=status,
    )


@never_cache
@login_required
@require_POST
def group_leave_view(request, uuid):
    membership = _member(request, uuid)
    try:
        deleted = services.group_leave(membership=membership)
    except services.GroupError as exc:
        messages.error(request, str(exc))
        return redirect("groups:group-settings", uuid)
    if deleted:
        messages.success(request, _("You were its last member, so the group is deleted."))
    else:
        messages.success(
            request,
            _("You left “%(group)s”. Your progress is yours, as it was.")
            % {"group": membership.group.name},
        )
    return redirect("groups:group-list")


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def group_edit(request, uuid):
    group = _owner(request, uuid).group
    if request.method == "POST":
        form = GroupForm(request.POST)
        if form.is_valid():
            services.group_update(group=group, **form.cleaned_data)
            messages.success(request, _("The group is saved."))
            return redirect(group)
        status = 400
    else:
        form = GroupForm(
            initial={
                "name": group.name,
                "description": group.description,
                "paths": list(group.paths.all()),
                "guides": list(group.guides.all()),
            }
        )
        status = 200
    return render(request, "groups/group_form.html", {"form": form, "group": group}, status=status)


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def group_invites(request, uuid):
    membership = _owner(request, uuid)
    group = membership.group
    if request.method == "POST":
        form = InviteForm(request.POST)
        if form.is_valid():
            services.invite_create(group=group, user=request.user, **form.cleaned_data)
            messages.success(request, _("A new invite link is ready: copy it below."))
            return redirect("groups:group-invites", uuid)
        status = 400
    else:
        form, status = InviteForm(), 200
    now = timezone.now()
    links = [
        (invite, invite.refusal(now=now), request.build_absolute_uri(invite.get_absolute_url()))
        for invite in group.invites.all()
    ]
    return render(
        request,
        "groups/group_invites.html",
        {"group": group, "form": form, "links": links},
        status=status,
    )


@never_cache
@login_required
@require_POST
def group_invite_revoke(request, uuid, invite_id):
    group = _owner(request, uuid).group
    invite = get_object_or_404(GroupInvite, pk=invite_id, group=group)
    services.invite_revoke(invite=invite)
    messages.success(request, _("The invite link is withdrawn: nobody can join with it now."))
    return redirect("groups:group-invites", uuid)


@never_cache
@login_required
@require_safe
def group_members_view(request, uuid):
    group = _owner(request, uuid).group
    return render(
        request,
        "groups/group_members.html",
        {
            "group": group,
            "members": [
                (member, selectors.member_name(member.user))
                for member in selectors.group_members(group=group)
            ],
        },
    )


@never_cache
@login_required
@require_POST
def group_member_remove(request, uuid, member_id):
    group = _owner(request, uuid).group
    member = get_object_or_404(Membership.objects.select_related("user"), pk=member_id, group=group)
    try:
        services.member_remove(group=group, membership=member)
    except services.GroupError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("%(name)s is no longer in the group. Their progress is theirs, as it was.")
            % {"name": selectors.member_name(member.user)},
        )
    return redirect("groups:group-members", uuid)


@never_cache
@login_required
@require_POST
def group_member_owner(request, uuid, member_id):
    group = _owner(request, uuid).group
    member = get_object_or_404(Membership.objects.select_related("user"), pk=member_id, group=group)
    services.ownership_hand_over(group=group, to=member)
    messages.success(
        request,
        _("%(name)s owns the group now; you are a member.")
        % {"name": selectors.member_name(member.user)},
    )
    return redirect(group)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def group_join_view(request, token):
    """An invite link: a visitor is asked to sign up or log in (the link waits in their session,
    apps.groups.invites); a learner confirms joining with a POST. A link expired, revoked or used
    up says so (410) and lets nobody in."""
    invite = get_object_or_404(GroupInvite.objects.select_related("group"), token=token)
    group = invite.group
    if request.user.is_authenticated:
        member = Membership.objects.filter(group=group, user=request.user).exists()
        if member:
            invites.forget(request)
            return redirect(group)
    refusal = invite.refusal(now=timezone.now())
    if refusal:
        invites.forget(request)
        return render(
            request, "groups/join_refused.html", {"refusal": refusal, "group": group}, status=410
        )
    if not request.user.is_authenticated:
        invites.remember(request, token)
        if request.method == "POST":
            return redirect(invite.get_absolute_url())
    if request.method == "POST":
        try:
            services.group_join(invite=invite, user=request.user)
        except services.GroupError as exc:
            invites.forget(request)
            return render(
                request,
                "groups/join_refused.html",
                {"refusal": str(exc), "group": group},
                status=410,
            )
        invites.forget(request)
        messages.success(request, _("Welcome to “%(group)s”.") % {"group": group.name})
        return redirect(group)
    plans = selectors.group_plans(group=group)
    return render(request, "groups/join.html", {"invite": invite, "group": group, "plans": plans})
