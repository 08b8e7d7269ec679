"""The progress tests' people and catalog, and the paths tests' two-step path, here too."""

from tests.paths.conftest import learning_path  # noqa: F401 - fixtures, by name
from tests.progress.conftest import catalog, other_user, user  # noqa: F401
