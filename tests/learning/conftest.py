"""The progress tests' catalog and the paths tests' path, for the learner pages' tests."""

from tests.paths.conftest import learning_path  # noqa: F401 - fixtures, by name
from tests.progress.conftest import catalog  # noqa: F401
