"""MCP004 (issue 21): a store chosen by a conditional expression (`(DONE if ok else FAILED).append(r)`,
`target = ARCHIVE if archived else ACTIVE; target[k] = v`) is written like the store itself; the
same choice between the call's own containers changes nothing shared.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the exact
set of MCP004 rows.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

STATE = """\
        DONE: list[dict] = []
        FAILED: list[dict] = []
        ACTIVE: dict[str, dict] = {}
        ARCHIVE: dict[str, dict] = {}


"""

CAUSES = [
    case(
        "a-method-write-on-module-state-chosen-by-a-conditional-expression",
        STATE
        + """\
        @mcp.tool()
        def record(result: dict) -> str:
            (DONE if result["ok"] else FAILED).append(result)  # expect: MCP004
            if "id" not in result:
                raise ToolError("result needs an id")
            return "recorded"
        """,
    ),
    case(
        "an-item-write-through-a-local-that-chose-module-state",
        STATE
        + """\
        @mcp.tool()
        def file_job(job_id: str, job: dict, archived: bool) -> str:
            target = ARCHIVE if archived else ACTIVE
            target[job_id] = job  # expect: MCP004
            if not job_id.isalnum():
                raise ToolError("job_id must be letters and digits")
            return "filed"
        """,
    ),
    case(
        "one-choice-module-state-the-other-a-local-container",
        STATE
        + """\
        @mcp.tool()
        def keep(job_id: str, job: dict, dry_run: bool) -> str:
            scratch: dict[str, dict] = {}
            target = scratch if dry_run else ACTIVE
            target.update({job_id: job})  # expect: MCP004
            if not job_id.isalnum():
                raise ToolError("job_id must be letters and digits")
            return "kept"
        """,
    ),
    case(
        "an-item-write-on-a-chosen-module-store",
        STATE
        + """\
        @mcp.tool()
        def file_job(job_id: str, job: dict, archived: bool) -> str:
            (ARCHIVE if archived else ACTIVE)[job_id] = job  # expect: MCP004
            if not job_id.isalnum():
                raise ToolError("job_id must be letters and digits")
            return "filed"
        """,
    ),
    # -- not shared: the call's own containers, or a read through the choice ----------------------
    case(
        "an-item-write-on-a-choice-between-the-calls-own-dicts",
        """\
        @mcp.tool()
        def sort_jobs(jobs: dict[str, dict]) -> dict:
            late: dict[str, dict] = {}
            due: dict[str, dict] = {}
            for job_id, job in jobs.items():
                (late if job.get("late") else due)[job_id] = job
            if not jobs:
                raise ToolError("no jobs given")
            return {"late": late, "due": due}
        """,
    ),
    case(
        "a-choice-between-the-calls-own-lists",
        """\
        @mcp.tool()
        def split(results: list[dict]) -> dict:
            ok: list[dict] = []
            errors: list[dict] = []
            for r in results:
                (ok if r["ok"] else errors).append(r)
            if not results:
                raise ToolError("no results given")
            return {"ok": ok, "errors": errors}
        """,
    ),
    case(
        "a-read-through-a-chosen-module-store",
        STATE
        + """\
        @mcp.tool()
        def pick(job_id: str, archived: bool) -> dict:
            source = ARCHIVE if archived else ACTIVE
            job = source.get(job_id)
            if job is None:
                raise ToolError(f"No job {job_id!r}")
            return job
        """,
    ),
    case(
        "a-write-on-a-chosen-store-after-the-check",
        STATE
        + """\
        @mcp.tool()
        def file_job(job_id: str, job: dict, archived: bool) -> str:
            if not job_id.isalnum():
                raise ToolError("job_id must be letters and digits")
            (ARCHIVE if archived else ACTIVE)[job_id] = job
            return "filed"
        """,
    ),
]


@pytest.mark.parametrize("body", CAUSES)
def test_store_chosen_by_a_conditional_expression(body: str) -> None:
    _mcp004(body)


def test_the_message_names_the_chosen_store() -> None:
    [finding] = _mcp004(CAUSES[0].values[0])
    assert finding.message.startswith("Tool 'record' changes module-level state (DONE.append), then rejects the call at line ")
