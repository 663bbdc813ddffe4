"""MCP004 (issue 21, blind004g H2): a helper whose refusal is a raise inside an `except` clause
for a conversion error, around statements that convert values taken from its parameters
(`try: n = int(count) except ValueError: raise ToolError(...)`, a path resolved and tested with
`relative_to`), rejects a malformed argument: called after a mutation it is a check that could
have run first. A clause for a failed lookup (`KeyError`), for anything (`Exception`), around a
call that asks a store, or around a parse of data the helper was not handed, is no such check.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the exact
set of MCP004 rows.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

CASES = [
    # -- a conversion's failure turned into a refusal: a check ----------------------------------
    case(
        "int-conversion-refused-in-a-helper-after-a-state-write",
        """\
        def parse_count(count: str) -> int:
            try:
                value = int(count)
            except ValueError:
                raise ToolError(f"count must be a whole number, got {count!r}") from None
            return value


        @mcp.tool()
        def add_note(key: str, text: str, count: str) -> str:
            NOTES[key] = {"text": text}  # expect: MCP004
            copies = parse_count(count)
            return f"saved {copies}"
        """,
    ),
    case(
        "path-outside-the-root-refused-by-relative-to-after-a-write",
        """\
        def inside_root(path: str) -> Path:
            root = ROOT.resolve()
            resolved = (root / path).resolve()
            try:
                resolved.relative_to(root)
            except ValueError:
                raise ToolError("path is outside the notes folder") from None
            return resolved


        @mcp.tool()
        def save_copy(name: str, text: str, where: str) -> str:
            (ROOT / name).write_text(text)  # expect: MCP004
            target = inside_root(where)
            return str(target)
        """,
    ),
    case(
        "json-decode-error-of-a-parameter-refused",
        """\
        import json


        def parse_fields(payload: str) -> dict:
            try:
                return json.loads(payload)
            except json.JSONDecodeError as exc:
                raise ToolError(f"fields are not JSON: {exc.msg}") from None


        @mcp.tool()
        def update_note(key: str, payload: str) -> str:
            db.execute("UPDATE notes SET touched = 1 WHERE key = ?", (key,))  # expect: MCP004
            fields = parse_fields(payload)
            return str(len(fields))
        """,
    ),
    # -- not a check of the arguments -------------------------------------------------------------
    case(
        "a-failed-lookup-of-state-is-no-conversion",
        """\
        def find_note(key: str) -> dict:
            try:
                return NOTES[key]
            except KeyError:
                raise ToolError(f"no note {key!r}") from None


        @mcp.tool()
        def tag_note(key: str, other: str, tag: str) -> str:
            NOTES[key] = {"tag": tag}
            find_note(other)
            return "tagged"
        """,
    ),
    case(
        "a-clause-for-anything-is-no-conversion-check",
        """\
        def parse_anything(count: str) -> int:
            try:
                return int(count)
            except Exception:
                raise ToolError("something failed") from None


        @mcp.tool()
        def add_many(key: str, text: str, count: str) -> str:
            NOTES[key] = {"text": text}
            parse_anything(count)
            return "ok"
        """,
    ),
    case(
        "a-value-error-of-a-store-asked-is-no-conversion",
        """\
        STORE = object()


        def fetch_count(count: str) -> int:
            try:
                return STORE.lookup(count)
            except ValueError:
                raise ToolError("the store refused the count") from None


        @mcp.tool()
        def add_counted(key: str, text: str, count: str) -> str:
            NOTES[key] = {"text": text}
            fetch_count(count)
            return "ok"
        """,
    ),
    case(
        "a-parse-of-the-servers-own-settings-is-no-check-of-the-arguments",
        """\
        import json

        SETTINGS = Path("/srv/settings.json")


        def read_limit(count: str) -> int:
            try:
                limit = json.loads(SETTINGS.read_text())["limit"]
            except ValueError:
                raise ToolError("settings file is broken") from None
            return limit


        @mcp.tool()
        def add_limited(key: str, text: str, count: str) -> str:
            NOTES[key] = {"text": text}
            read_limit(count)
            return "ok"
        """,
    ),
]


@pytest.mark.parametrize("body", CASES)
def test_conversion_validators(body: str) -> None:
    _mcp004(body)


# -- a validator's call inside a statement's value (issue 21, blind004g H2) -----------------------
NESTED = [
    case(
        "a-validator-called-inside-a-list-built-for-a-command",
        """\
        def inside_root(path: str) -> Path:
            root = ROOT.resolve()
            resolved = (root / path).resolve()
            try:
                resolved.relative_to(root)
            except ValueError:
                raise ToolError("path is outside the notes folder") from None
            return resolved


        @mcp.tool()
        def render(source: str, out: str) -> str:
            args = ["render"]
            (ROOT / out).write_text("pending")  # expect: MCP004
            args += ["-f", str(inside_root(source))]
            return subprocess.run(args, capture_output=True, text=True).stdout
        """,
    ),
    case(
        "a-validator-under-a-conditional-expression-may-not-run",
        """\
        def inside_root(path: str) -> Path:
            root = ROOT.resolve()
            resolved = (root / path).resolve()
            try:
                resolved.relative_to(root)
            except ValueError:
                raise ToolError("path is outside the notes folder") from None
            return resolved


        @mcp.tool()
        def render(source: str, out: str) -> str:
            args = ["render"]
            (ROOT / out).write_text("pending")
            args += ["-f", str(inside_root(source)) if source else "-"]
            return subprocess.run(args, capture_output=True, text=True).stdout
        """,
    ),
    case(
        "a-validator-in-a-comprehension-after-a-write-stays-unjudged",
        """\
        def inside_root(path: str) -> Path:
            root = ROOT.resolve()
            resolved = (root / path).resolve()
            try:
                resolved.relative_to(root)
            except ValueError:
                raise ToolError("path is outside the notes folder") from None
            return resolved


        @mcp.tool()
        def render(sources: list[str], out: str) -> str:
            (ROOT / out).write_text("pending")
            files = [str(inside_root(s)) for s in sources]
            return subprocess.run(["render", *files], capture_output=True, text=True).stdout
        """,
    ),
    case(
        "a-nested-validator-whose-failure-a-clause-records-per-item",
        """\
        def inside_root(path: str) -> Path:
            root = ROOT.resolve()
            resolved = (root / path).resolve()
            try:
                resolved.relative_to(root)
            except ValueError:
                raise ToolError("path is outside the notes folder") from None
            return resolved


        @mcp.tool()
        def export_all(items: list[dict]) -> list:
            results = []
            for item in items:
                try:
                    out = Path(inside_root(item["out"]))
                    out.write_text(item["text"])
                    results.append({"out": str(out), "ok": True})
                except Exception as exc:
                    results.append({"error": str(exc)})
            return results
        """,
    ),
]


@pytest.mark.parametrize("body", NESTED)
def test_nested_validator_calls(body: str) -> None:
    _mcp004(body)
