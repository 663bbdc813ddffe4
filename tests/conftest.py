"""Settings shared by the whole suite."""

from __future__ import annotations

import os

from hypothesis import settings

# Locally, property tests draw new examples on every run (that is how they find what nobody wrote
# down). In CI (`CI` set, as `.ci/run` does) they draw the same examples every time: a red build
# then means the change broke something, never that a new draw found an old bug; and a failure
# prints the example to add with `@example`.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
