"""Writes on study groups: making and changing one, invite links, joining, a member's choices,
leaving, removing, handing over ownership, and the weekly mail's claim.

Every one is a transaction; refusals are `GroupError` with a message for the person who asked.
None of them touches a learner's progress or notes: a group holds only who is in it.

Leaving, for the owner: they hand ownership to another member first (the members page), unless
they are the last member, in which case leaving deletes the group and its invite links (a group
nobody is in has nobody to see it). Deleting an account does the same for each group its owner
owns, handing it to the longest-standing other member instead when there is one.
"""

from datetime import timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.groups.models import GroupInvite, Membership, Role, StudyGroup


class GroupError(Exception):
    """A request on a group that must be refused; the message says why, for the person asking."""


@transaction.atomic
def group_create(*, user, name: str, description: str = "", paths=(), guides=()) -> StudyGroup:
    group = StudyGroup.objects.create(name=name, description=description)
    group.paths.set(paths)
    group.guides.set(guides)
    Membership.objects.create(group=group, user=user, role=Role.OWNER)
    return group


@transaction.atomic
def group_update(*, group, name: str, description: str, paths, guides) -> StudyGroup:
    group.name, group.description = name, description
    group.save(update_fields=["name", "description"])
    group.paths.set(paths)
    group.guides.set(guides)
    return group


def invite_create(*, group, user, days: int, max_uses: int | None = None) -> GroupInvite:
    return GroupInvite.objects.create(
        group=group,
        created_by=user,
        expires_at=timezone.now() + timedelta(days=days),
        max_uses=max_uses,
    )


def invite_revoke(*, invite) -> None:
    GroupInvite.objects.filter(pk=invite.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


@transaction.atomic
def group_join(*, invite, user) -> tuple[Membership, bool]:
    """`user` joins `invite`'s group: (their membership, whether they just joined). A member
    already is left as they are and uses nothing of the link. The link's use is one conditional
    UPDATE, so two people racing for its last use cannot both have it."""
    existing = Membership.objects.filter(group_id=invite.group_id, user=user).first()
    if existing:
        return existing, False
    taken = GroupInvite.objects.usable().filter(pk=invite.pk).update(uses=F("uses") + 1)
    if not taken:
        invite.refresh_from_db()
        raise GroupError(invite.refusal(now=timezone.now()) or _("This invite link is used up."))
    membership, created = Membership.objects.get_or_create(group_id=invite.group_id, user=user)
    return membership, created


def membership_set(*, membership, progress_hidden=None, weekly_mail=None) -> Membership:
    """The member's own choices; only those given change."""
    fields = []
    if progress_hidden is not None:
        membership.progress_hidden = progress_hidden
        fields.append("progress_hidden")
    if weekly_mail is not None:
        membership.weekly_mail = weekly_mail
        fields.append("weekly_mail")
    if fields:
        membership.save(update_fields=fields)
    return membership


@transaction.atomic
def group_leave(*, membership) -> bool:
    """The member leaves; True when that deleted the group (its owner was its last member)."""
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    if membership.role == Role.OWNER:
        if (
            Membership.objects.filter(group_id=membership.group_id)
            .exclude(pk=membership.pk)
            .exists()
        ):
            raise GroupError(
                _("Hand the group over to another member before you leave: you are its owner.")
            )
        StudyGroup.objects.filter(pk=membership.group_id).delete()
        return True
    membership.delete()
    return False


def member_remove(*, group, membership) -> None:
    """The owner removes a member (never themselves: they leave, or hand over first)."""
    if membership.group_id != group.pk:
        raise GroupError(_("That learner is not in this group."))
    if membership.role == Role.OWNER:
        raise GroupError(_("The owner cannot be removed; they may hand the group over and leave."))
    Membership.objects.filter(pk=membership.pk, role=Role.MEMBER).delete()


@transaction.atomic
def ownership_hand_over(*, group, to: Membership) -> None:
    """Make `to` (a member of `group`) its owner; the owner before stays a member."""
    if to.group_id != group.pk:
        raise GroupError(_("That learner is not in this group."))
    if to.role == Role.OWNER:
        return
    # The constraint allows one owner: the old one steps down before the new one steps up.
    Membership.objects.filter(group=group, role=Role.OWNER).update(role=Role.MEMBER)
    Membership.objects.filter(pk=to.pk).update(role=Role.OWNER)


@transaction.atomic
def groups_account_closing(*, user) -> None:
    """Before `user`'s account is deleted: each group they own goes to its longest-standing other
    member, or is deleted when they are its only member (their memberships go with the account)."""
    for owned in Membership.objects.select_for_update().filter(user=user, role=Role.OWNER):
        heir = (
            Membership.objects.filter(group_id=owned.group_id)
            .exclude(pk=owned.pk)
            .order_by("joined_at", "pk")
            .first()
        )
        if heir is None:
            StudyGroup.objects.filter(pk=owned.group_id).delete()
        else:
            ownership_hand_over(group=owned.group, to=heir)


def weekly_mail_claim(*, membership, week) -> bool:
    """Claim the weekly mail of `week` (its Monday) for `membership`: True once per week,
    however many times the job runs (one conditional UPDATE)."""
    return bool(
        Membership.objects.filter(pk=membership.pk, weekly_mail=True)
        .filter(Q(mailed_week__isnull=True) | Q(mailed_week__lt=week))
        .update(mailed_week=week)
    )
