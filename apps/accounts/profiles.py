"""The public profile: saving its settings, and what its page shows — the learner's per-guide
progress and streak, from the same selectors as their dashboard, and never a note."""

from django.db import transaction

from apps.accounts.models import PublicProfile
from apps.accounts.timezones import saved_zone
from apps.catalog.selectors import guide_structure, guides_with_top_sections
from apps.learning.widgets import guide_bar, overall_bar
from apps.progress.selectors import Tally, activity_year, overall_tally, statuses_for


def profile_save(*, user, slug: str, is_public: bool) -> PublicProfile | None:
    """Store the learner's choice. Without an address there is nothing to publish: any profile
    is turned off (its address kept, so turning it on again needs no new one)."""
    with transaction.atomic():
        profile = PublicProfile.objects.select_for_update().filter(user=user).first()
        if not slug:
            if profile and profile.is_public:
                profile.is_public = False
                profile.save(update_fields=["is_public", "updated_at"])
            return profile
        if profile is None:
            return PublicProfile.objects.create(user=user, slug=slug, is_public=is_public)
        profile.slug, profile.is_public = slug, is_public
        profile.save(update_fields=["slug", "is_public", "updated_at"])
        return profile


def public_page(profile) -> dict:
    """The context of accounts/public_profile.html for `profile`'s learner. Statuses only: the
    Statuses' `noted` set is never passed on."""
    statuses = statuses_for(user=profile.user)
    structure = guide_structure()
    guide_rows = [
        (guide, guide_bar(guide, Tally.of(structure.guide_resources.get(guide.id, ()), statuses)))
        for guide in guides_with_top_sections()
    ]
    return {
        "profile": profile,
        "overall": overall_bar(overall_tally(statuses=statuses)),
        "guide_rows": guide_rows,
        # In the learner's saved zone; without one, the visitor's (their browser's is not known).
        "year": activity_year(user=profile.user, zone=saved_zone(profile.user)),
    }
