"""MCP004: state an object holds for the server's lifetime (issue 21, "held state through
`self`"), each shape with a case that must be flagged and one that must not, on made-up code.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the
exact set of MCP004 rows.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

CASES = [
    # -- an item of a container the kept object holds, then a check of the arguments ------------
    case(
        "held-item-write-in-a-method-of-a-module-level-object",
        """\
        class Shelf:
            def __init__(self) -> None:
                self._books: dict[str, dict] = {}

            def shelve(self, code: str, book: dict) -> None:
                self._books[code] = book  # expect: MCP004
                if not code.isalnum():
                    raise ValueError("code must be letters and digits")


        shelf = Shelf()


        @mcp.tool()
        def shelve_book(code: str, book: dict) -> str:
            shelf.shelve(code, book)
            return "shelved"
        """,
    ),
    case(
        "held-item-write-read-back-by-the-check",
        """\
        class Shelf:
            def __init__(self) -> None:
                self._books: dict[str, dict] = {}

            def shelve(self, code: str, book: dict) -> None:
                self._books[code] = book
                if len(self._books) > 100:
                    raise ValueError("the shelf is full")


        shelf = Shelf()


        @mcp.tool()
        def shelve_book(code: str, book: dict) -> str:
            shelf.shelve(code, book)
            return "shelved"
        """,
    ),
    # -- a container the object holds, changed by a method call --------------------------------
    case(
        "held-container-append-before-a-failure-result",
        """\
        class Queue:
            def __init__(self) -> None:
                self.jobs: list[dict] = []

            def enqueue(self, name: str, priority: int) -> str:
                self.jobs.append({"name": name, "priority": priority})  # expect: MCP004
                if priority not in (1, 2, 3):
                    return "Error: priority must be 1, 2 or 3"
                return "queued"


        queue = Queue()


        @mcp.tool()
        def enqueue(name: str, priority: int) -> str:
            return queue.enqueue(name, priority)
        """,
    ),
    case(
        "object-built-per-call-is-no-held-state",
        """\
        class Report:
            def __init__(self) -> None:
                self.lines: list[str] = []

            def add(self, line: str) -> None:
                self.lines.append(line)
                if not line.strip():
                    raise ValueError("a report line must not be empty")


        @mcp.tool()
        def report(lines: list[str]) -> str:
            built = Report()
            for line in lines:
                built.add(line)
            return "\\n".join(built.lines)
        """,
    ),
    # -- the held value replaced by the call's arguments ---------------------------------------
    case(
        "held-value-replaced-by-a-tool-closure-registered-in-init",
        """\
        class EditorServer:
            def __init__(self) -> None:
                self.mcp = FastMCP("editor")
                self.current_path: str | None = None

                @self.mcp.tool()
                def open_new(path: str) -> dict:
                    self.current_path = path  # expect: MCP004
                    if os.path.exists(self.current_path) and os.path.getsize(self.current_path) > 0:
                        return {"error": "Cannot create the file: it exists and is not empty."}
                    Path(path).write_text("")
                    return {"ok": True}
        """,
    ),
    case(
        "held-value-replaced-by-a-fresh-container-in-a-method",
        """\
        class Planner:
            def __init__(self) -> None:
                self.plan: dict = {}

            def start(self, goal: str, steps: list[str]) -> dict:
                self.plan = {"goal": goal, "steps": []}  # expect: MCP004
                if len(set(steps)) != len(steps):
                    return {"success": False, "message": "step names must be unique"}
                self.plan["steps"] = steps
                return {"success": True}


        planner = Planner()


        @mcp.tool()
        def start_plan(goal: str, steps: list[str]) -> dict:
            return planner.start(goal, steps)
        """,
    ),
    case(
        "init-and-lazy-set-up-and-caches-are-no-held-state",
        """\
        class Remote:
            def __init__(self, url: str) -> None:
                self.url = url
                self.entries: dict[str, str] = {}
                if not url.startswith("https://"):
                    raise ValueError("url must use https")

            def attach(self, token: str) -> None:
                self.session = httpx.Client(headers={"token": token})
                if not token:
                    raise ValueError("token must not be empty")

            def lookup(self, key: str) -> str:
                self._cache[key] = key.upper()
                if not key:
                    raise ValueError("key must not be empty")
                return self._cache[key]


        remote = Remote("https://example.invalid")


        @mcp.tool()
        def lookup(key: str, token: str) -> str:
            remote.attach(token)
            return remote.lookup(key)
        """,
    ),
    # -- a tool calls the object's method, then checks: reported at the write in the method -----
    case(
        "held-write-in-a-method-then-the-tools-check",
        """\
        class Registry:
            def __init__(self) -> None:
                self._names: dict[str, str] = {}

            def register(self, name: str, owner: str) -> None:
                self._names[name] = owner  # expect: MCP004


        registry = Registry()


        @mcp.tool()
        def claim(name: str, owner: str) -> str:
            registry.register(name, owner)
            if not owner.strip():
                raise ToolError("owner must not be empty")
            return "claimed"
        """,
    ),
    case(
        "held-write-in-a-method-after-the-tools-check",
        """\
        class Registry:
            def __init__(self) -> None:
                self._names: dict[str, str] = {}

            def register(self, name: str, owner: str) -> None:
                self._names[name] = owner


        registry = Registry()


        @mcp.tool()
        def claim(name: str, owner: str) -> str:
            if not owner.strip():
                raise ToolError("owner must not be empty")
            registry.register(name, owner)
            return "claimed"
        """,
    ),
]


@pytest.mark.parametrize("body", CASES)
def test_held_state(body: str) -> None:
    _mcp004(body)


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
        "held-container-handed-to-a-helper-that-appends",
        """\
        def _push(rows: list, row: dict) -> None:
            rows.append(row)


        class Journal:
            def __init__(self) -> None:
                self.entries: list[dict] = []

            def write(self, text: str, mood: int) -> None:
                _push(self.entries, {"text": text, "mood": mood})  # expect: MCP004
                if not 1 <= mood <= 5:
                    raise ValueError("mood must be between 1 and 5")


        journal = Journal()


        @mcp.tool()
        def write_entry(text: str, mood: int) -> str:
            journal.write(text, mood)
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
        "held-history-of-calls-before-the-check",
        """\
        class Desk:
            def __init__(self) -> None:
                self.history: list[dict] = []
                self.items: dict[str, str] = {}

            def put(self, key: str, value: str) -> None:
                self.history.append({"put": key})
                if not key:
                    raise ValueError("key must not be empty")
                self.items[key] = value


        desk = Desk()


        @mcp.tool()
        def put(key: str, value: str) -> str:
            desk.put(key, value)
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
        class Runner:
            def __init__(self) -> None:
                self.running: dict[str, dict] = {}

            def run(self, job_id: str, spec: dict) -> str:
                self.running[job_id] = {"spec": spec}
                try:
                    if "cmd" not in spec:
                        raise ToolError("spec needs a cmd")
                    return "ran"
                finally:
                    self._forget(job_id)

            def _forget(self, job_id: str) -> None:
                self.running.pop(job_id, None)


        runner = Runner()


        @mcp.tool()
        def run(job_id: str, spec: dict) -> str:
            return runner.run(job_id, spec)
        """,
    ),
    case(
        "record-kept-after-a-finally-that-only-logs",
        """\
        class Runner:
            def __init__(self) -> None:
                self.finished: dict[str, dict] = {}

            def run(self, job_id: str, spec: dict) -> str:
                self.finished[job_id] = {"spec": spec}  # expect: MCP004
                try:
                    if "cmd" not in spec:
                        raise ToolError("spec needs a cmd")
                    return "ran"
                finally:
                    print("run", job_id)


        runner = Runner()


        @mcp.tool()
        def run(job_id: str, spec: dict) -> str:
            return runner.run(job_id, spec)
        """,
    ),
]


@pytest.mark.parametrize("body", IN_FLIGHT)
def test_in_flight_records(body: str) -> None:
    _mcp004(body)
