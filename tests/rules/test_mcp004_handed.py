"""MCP004: module state handed to a helper that changes it in place, records of the traffic
itself and in-flight records taken out in a `finally`, each shape with a case that must be
flagged and one that must not, on made-up code.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the
exact set of MCP004 rows.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

HANDED = [
    # -- module state handed to a helper of the module that changes its parameter in place ------
    case(
        "module-state-handed-to-a-helper-that-writes-its-parameter",
        """\
        def _put(store: dict, key: str, item: dict) -> None:
            store[key] = item


        @mcp.tool()
        def add_note(note_id: str, title: str) -> str:
            _put(NOTES, note_id, {"title": title})  # expect: MCP004
            if not title.strip():
                raise ToolError("title must not be empty")
            return "added"
        """,
    ),
    case(
        "a-local-container-handed-to-the-same-helper",
        """\
        def _put(store: dict, key: str, item: dict) -> None:
            store[key] = item


        @mcp.tool()
        def preview_note(note_id: str, title: str) -> str:
            draft: dict = {}
            _put(draft, note_id, {"title": title})
            if not title.strip():
                raise ToolError("title must not be empty")
            return str(draft)
        """,
    ),
    case(
        "module-list-handed-to-a-helper-that-appends",
        """\
        JOURNAL: list[dict] = []


        def _push(rows: list, row: dict) -> None:
            rows.append(row)


        @mcp.tool()
        def write_entry(text: str, mood: int) -> str:
            _push(JOURNAL, {"text": text, "mood": mood})  # expect: MCP004
            if not 1 <= mood <= 5:
                raise ToolError("mood must be between 1 and 5")
            return "written"
        """,
    ),
    case(
        "module-state-handed-to-a-helper-that-only-reads-it",
        """\
        def _count(store: dict, key: str) -> int:
            return len(store.get(key, {}))


        @mcp.tool()
        def add_note(note_id: str, title: str) -> str:
            size = _count(NOTES, note_id)
            if not title.strip():
                raise ToolError("title must not be empty")
            return str(size)
        """,
    ),
]


@pytest.mark.parametrize("body", HANDED)
def test_state_handed_to_a_helper(body: str) -> None:
    _mcp004(body)


AUDIT = [
    # -- a record of the call itself added before the check: no change the call asked for -------
    case(
        "audit-record-of-the-call-before-the-check",
        """\
        AUDIT_LOG: list[dict] = []


        @mcp.tool()
        def rename(note_id: str, title: str) -> str:
            AUDIT_LOG.append({"tool": "rename", "id": note_id})
            if not title.strip():
                raise ToolError("title must not be empty")
            NOTES[note_id]["title"] = title
            return "renamed"
        """,
    ),
    case(
        "module-history-of-calls-before-the-check",
        """\
        _history: list[dict] = []
        ITEMS: dict[str, str] = {}


        @mcp.tool()
        def put(key: str, value: str) -> str:
            _history.append({"put": key})
            if not key:
                raise ToolError("key must not be empty")
            ITEMS[key] = value
            return "ok"
        """,
    ),
    case(
        "audit-record-cleared-before-the-check-is-a-change",
        """\
        AUDIT_LOG: list[dict] = []


        @mcp.tool()
        def reset_audit(confirm: str) -> str:
            AUDIT_LOG.clear()  # expect: MCP004
            if confirm != "yes":
                raise ToolError("confirm must be 'yes'")
            return "cleared"
        """,
    ),
]


@pytest.mark.parametrize("body", AUDIT)
def test_audit_records(body: str) -> None:
    _mcp004(body)


IN_FLIGHT = [
    # -- an in-flight record a `finally` around the check takes out again ----------------------
    case(
        "in-flight-record-released-in-finally",
        """\
        RUNNING: dict[str, dict] = {}


        def _forget(job_id: str) -> None:
            RUNNING.pop(job_id, None)


        @mcp.tool()
        def run(job_id: str, spec: dict) -> str:
            RUNNING[job_id] = {"spec": spec}
            try:
                if "cmd" not in spec:
                    raise ToolError("spec needs a cmd")
                return "ran"
            finally:
                _forget(job_id)
        """,
    ),
    case(
        "record-kept-after-a-finally-that-only-logs",
        """\
        FINISHED: dict[str, dict] = {}


        @mcp.tool()
        def run(job_id: str, spec: dict) -> str:
            FINISHED[job_id] = {"spec": spec}  # expect: MCP004
            try:
                if "cmd" not in spec:
                    raise ToolError("spec needs a cmd")
                return "ran"
            finally:
                print("run", job_id)
        """,
    ),
]


@pytest.mark.parametrize("body", IN_FLIGHT)
def test_in_flight_records(body: str) -> None:
    _mcp004(body)
