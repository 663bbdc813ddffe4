"""FunctionSummary.mutates_when as a typed ParamGuard: which calls take the branch a helper's own
mutations run under (`def save(doc, commit=False): ... if commit: db.commit()`)."""

from __future__ import annotations

import pytest

from mcp_lint.model.summary import ParamGuard, argument_enables

COMMIT = ParamGuard(name="commit", index=1, truthy=True, default="False")  # def save(doc, commit=False): if commit:
DRY_RUN = ParamGuard(name="dry_run", index=2, truthy=False, default="")  # def sync(self, src, dry_run): if not dry_run:


@pytest.mark.parametrize(
    ("guard", "constants", "shift", "takes"),
    [
        (COMMIT, (), 0, False),  # save(doc): the default False skips `if commit:`
        (COMMIT, ((-1, "commit", "True"),), 0, True),  # save(doc, commit=True)
        (COMMIT, ((1, "", "1"),), 0, True),  # save(doc, 1)
        (COMMIT, ((1, "", "None"),), 0, False),  # save(doc, None)
        (COMMIT, ((1, "", "*"),), 0, True),  # save(doc, flag): any value may take it
        (DRY_RUN, ((1, "", "False"),), 1, True),  # store.sync(src, False): `self` is not passed
        (DRY_RUN, ((1, "", "True"),), 1, False),  # store.sync(src, True)
        (DRY_RUN, (), 1, True),  # required and not a constant here: may take it
    ],
)
def test_a_call_takes_the_guarded_branch_as_its_constant_argument_says(guard: ParamGuard, constants: tuple, shift: int, takes: bool) -> None:
    assert argument_enables(guard, constants, shift) is takes
