"""Apply the tick an anonymous visitor made, once they have signed in; and tell the layers above
progress that an account export was imported."""

from django.contrib.auth.signals import user_logged_in
from django.dispatch import Signal, receiver
from django.http import Http404

from apps.catalog.selectors import visible_resource
from apps.progress.services import ProgressError, progress_set_status

PENDING_SESSION_KEY = "pending_progress"  # {"resource": uuid, "status": status}, set by the tick

# An account export ("Download all my data") holds more than progress: followed paths, own paths,
# pins, What's new. The layers above progress read their parts of it through these two signals.
# Sent by import_plan with `user` and `data` (the parsed file): each receiver returns the preview's
# lines for what it would change ([] for nothing) or raises imports.ProgressImportError (nothing
# is imported).
account_data_checked = Signal()
# Sent by import_apply, in its transaction, with `user`, `followed_paths` (the file's items, each a
# dict with a "path" uuid) and `data` (the parsed file, or None for a file that is not an account
# export): each receiver restores its part and returns what the learner must be told ([] or None).
account_data_imported = Signal()
# Sent by own_resource_delete, in its transaction, with `user` and `resource` (the link row of the
# own resource they removed, before it is removed when nothing else needs it): apps.paths takes it
# out of their own paths, where it showed to them alone.
own_resource_removed = Signal()


@receiver(user_logged_in)
def apply_pending_progress(sender, request, user, **kwargs):
    if request is None or not hasattr(request, "session"):
        return
    pending = request.session.pop(PENDING_SESSION_KEY, None)
    if not isinstance(pending, dict):
        return
    try:
        resource = visible_resource(uuid=pending.get("resource"))
    except Http404:  # hidden since (or never visible): nothing to apply
        return
    try:
        progress_set_status(user=user, resource=resource, status=pending.get("status"))
    except ProgressError:
        return
