"""MCP004 held state (issue 21): the general exclusions. An entry under a key the call just made
is the call's own new object; a memo of a value computed from its key is bookkeeping; counters
and meters are no change. Each shape has a case that must stay flagged next to it.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

CASES = [
    # -- an entry under a key this call made -----------------------------------------------------
    case(
        "entry-under-a-fresh-uuid-is-the-calls-own",
        """\
        import uuid


        class Sessions:
            def __init__(self) -> None:
                self._open: dict[str, dict] = {}

            def start(self, owner: str, limit: int) -> str:
                sid = uuid.uuid4().hex
                self._open[sid] = {"owner": owner, "limit": limit}
                if limit > 10:
                    raise ValueError("limit must be at most 10")
                return sid


        sessions = Sessions()


        @mcp.tool()
        def start_session(owner: str, limit: int) -> str:
            return sessions.start(owner, limit)
        """,
    ),
    case(
        "entry-under-the-callers-key-is-a-change",
        """\
        class Sessions:
            def __init__(self) -> None:
                self._open: dict[str, dict] = {}

            def start(self, sid: str, owner: str, limit: int) -> str:
                self._open[sid] = {"owner": owner, "limit": limit}  # expect: MCP004
                if limit > 10:
                    raise ValueError("limit must be at most 10")
                return sid


        sessions = Sessions()


        @mcp.tool()
        def start_session(sid: str, owner: str, limit: int) -> str:
            return sessions.start(sid, owner, limit)
        """,
    ),
    case(
        "entry-under-the-id-of-an-object-built-in-the-call",
        """\
        class Job:
            def __init__(self, command: str) -> None:
                self.id = make_job_id()
                self.command = command


        class Runner:
            def __init__(self) -> None:
                self._jobs: dict[str, Job] = {}

            def submit(self, command: str, timeout: int) -> str:
                job = Job(command)
                self._jobs[job.id] = job
                if timeout <= 0:
                    raise ValueError("timeout must be positive")
                return job.id


        runner = Runner()


        @mcp.tool()
        def submit(command: str, timeout: int) -> str:
            return runner.submit(command, timeout)
        """,
    ),
    case(
        "entry-under-an-id-the-caller-handed-the-object",
        """\
        class Job:
            def __init__(self, id: str, command: str) -> None:
                self.id = id
                self.command = command


        class Runner:
            def __init__(self) -> None:
                self._jobs: dict[str, Job] = {}

            def submit(self, job_id: str, command: str, timeout: int) -> str:
                job = Job(id=job_id, command=command)
                self._jobs[job.id] = job  # expect: MCP004
                if timeout <= 0:
                    raise ValueError("timeout must be positive")
                return job.id


        runner = Runner()


        @mcp.tool()
        def submit(job_id: str, command: str, timeout: int) -> str:
            return runner.submit(job_id, command, timeout)
        """,
    ),
    case(
        "entry-under-a-counter-the-call-advances",
        """\
        class Board:
            def __init__(self) -> None:
                self._cards: dict[int, dict] = {}
                self._last = 0

            def add(self, title: str, column: str) -> int:
                self._last += 1
                self._cards[self._last] = {"title": title, "column": column}
                if column not in ("todo", "doing", "done"):
                    return "Error: unknown column"
                return self._last


        board = Board()


        @mcp.tool()
        def add_card(title: str, column: str) -> int:
            return board.add(title, column)
        """,
    ),
    # -- memoisation: an entry computed from its key alone, read back --------------------------
    case(
        "memo-of-a-value-parsed-from-its-key",
        """\
        import ast
        from pathlib import Path


        class Index:
            def __init__(self) -> None:
                self._trees: dict[str, ast.Module] = {}

            def tree(self, path: str) -> ast.Module:
                if path in self._trees:
                    return self._trees[path]
                tree = ast.parse(Path(path).read_text())
                self._trees[path] = tree
                if not tree.body:
                    raise ValueError("the module is empty")
                return tree


        index = Index()


        @mcp.tool()
        def count_functions(path: str) -> int:
            return len(index.tree(path).body)
        """,
    ),
    case(
        "entry-made-of-other-arguments-is-no-memo",
        """\
        from pathlib import Path


        class Index:
            def __init__(self) -> None:
                self._notes: dict[str, str] = {}

            def annotate(self, path: str, text: str) -> str:
                if path in self._notes:
                    return self._notes[path]
                note = text.strip() + Path(path).suffix
                self._notes[path] = note  # expect: MCP004
                if not note:
                    raise ValueError("the note is empty")
                return note


        index = Index()


        @mcp.tool()
        def annotate(path: str, text: str) -> str:
            return index.annotate(path, text)
        """,
    ),
    case(
        "entry-built-by-a-constructor-from-its-key-is-no-memo",
        """\
        class Item:
            def __init__(self, name: str) -> None:
                self.name = name


        class Shelf:
            def __init__(self) -> None:
                self._items: dict[str, Item] = {}

            def create(self, name: str) -> str:
                self._items[name] = Item(name)  # expect: MCP004
                if len(name) > 40:
                    raise ValueError("name must be at most 40 characters")
                return name

            def get(self, name: str) -> Item:
                return self._items[name]


        shelf = Shelf()


        @mcp.tool()
        def create_item(name: str) -> str:
            return shelf.create(name)
        """,
    ),
    # -- counters and meters --------------------------------------------------------------------
    case(
        "held-counter-replaced-by-an-argument",
        """\
        class Meter:
            def __init__(self) -> None:
                self.counter = 0

            def reset(self, counter: int) -> str:
                self.counter = counter
                if counter < 0:
                    raise ValueError("counter must not be negative")
                return "ok"


        meter = Meter()


        @mcp.tool()
        def reset(counter: int) -> str:
            return meter.reset(counter)
        """,
    ),
    case(
        "entry-updated-from-its-own-old-value",
        """\
        class Usage:
            def __init__(self) -> None:
                self.per_tool: dict[str, int] = {}

            def record(self, tool: str, units: int) -> str:
                self.per_tool[tool] = self.per_tool.get(tool, 0) + units
                if units > 100:
                    raise ValueError("units must be at most 100")
                return "recorded"


        usage = Usage()


        @mcp.tool()
        def record(tool: str, units: int) -> str:
            return usage.record(tool, units)
        """,
    ),
    case(
        "held-value-replaced-by-an-argument-is-still-a-change",
        """\
        class Settings:
            def __init__(self) -> None:
                self.theme = "light"

            def set_theme(self, theme: str) -> str:
                self.theme = theme  # expect: MCP004
                if theme not in ("light", "dark"):
                    raise ValueError("theme must be light or dark")
                return "ok"


        settings = Settings()


        @mcp.tool()
        def set_theme(theme: str) -> str:
            return settings.set_theme(theme)
        """,
    ),
]


@pytest.mark.parametrize("body", CASES)
def test_held_state_exclusions(body: str) -> None:
    _mcp004(body)
