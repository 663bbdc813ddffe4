"""MCP004 (issue 21, blind004g's causes): a rejecting branch that takes the change back itself
before it ends the call (the entry put into module state popped again, the partial file removed)
leaves nothing behind, like an `except` clause that undoes. Only the branch's own statements
count: an undo in a branch nested in it, or a removal of another file, leaves the change.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the exact
set of MCP004 rows.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

CAUSES = [
    # -- taken back by the rejecting branch: nothing is left ------------------------------------
    case(
        "an-entry-of-module-state-popped-before-the-raise",
        """\
        @mcp.tool()
        def start_job(name: str, label: str) -> str:
            NOTES[name] = {"label": label}
            if len(label) > 40:
                NOTES.pop(name, None)
                raise ToolError("label is longer than 40 characters")
            return "started"
        """,
    ),
    case(
        "a-partial-file-removed-before-the-size-refusal-in-a-chunk-loop",
        """\
        MAX_BYTES = 1 << 20


        @mcp.tool()
        def fetch(url: str, dest: str) -> str:
            partial = Path(dest).with_suffix(".part")
            written = 0
            with open(partial, "wb") as handle:
                for chunk in httpx.stream("GET", url).iter_bytes():
                    written += len(chunk)
                    if written > MAX_BYTES:
                        handle.close()
                        partial.unlink(missing_ok=True)
                        raise ToolError(f"{url} is larger than {MAX_BYTES} bytes")
                    handle.write(chunk)
            partial.replace(dest)
            return dest
        """,
    ),
    case(
        "a-file-removed-with-os-remove-in-the-else-branch",
        """\
        @mcp.tool()
        def save(name: str, text: str, tag: str) -> str:
            out = ROOT / name
            out.write_text(text)
            if tag.isidentifier():
                return "saved"
            else:
                os.remove(out)
                raise ToolError("tag must be one word")
        """,
    ),
    # -- not taken back: still a finding --------------------------------------------------------
    case(
        "an-entry-of-module-state-left-by-the-raise",
        """\
        @mcp.tool()
        def start_job(name: str, label: str) -> str:
            NOTES[name] = {"label": label}  # expect: MCP004
            if len(label) > 40:
                raise ToolError("label is longer than 40 characters")
            return "started"
        """,
    ),
    case(
        "another-file-removed-than-the-one-written",
        """\
        @mcp.tool()
        def save(name: str, text: str, tag: str) -> str:
            out = ROOT / name
            backup = ROOT / f"{name}.bak"
            out.write_text(text)  # expect: MCP004
            if not tag.isidentifier():
                backup.unlink(missing_ok=True)
                raise ToolError("tag must be one word")
            return "saved"
        """,
    ),
    case(
        "the-undo-only-in-a-branch-nested-in-the-rejecting-one",
        """\
        @mcp.tool()
        def start_job(name: str, label: str, strict: bool) -> str:
            NOTES[name] = {"label": label}  # expect: MCP004
            if len(label) > 40:
                if strict:
                    NOTES.pop(name, None)
                raise ToolError("label is longer than 40 characters")
            return "started"
        """,
    ),
    case(
        "a-list-item-removed-is-no-removal-of-the-file",
        """\
        DONE: list[Path] = []


        @mcp.tool()
        def save(name: str, text: str, tag: str) -> str:
            out = ROOT / name
            out.write_text(text)  # expect: MCP004
            if not tag.isidentifier():
                DONE.remove(out)
                raise ToolError("tag must be one word")
            return "saved"
        """,
    ),
]


@pytest.mark.parametrize("body", CAUSES)
def test_cause(body: str) -> None:
    _mcp004(body)


def test_the_finding_left_names_the_write_and_the_check() -> None:
    [finding] = _mcp004(
        """\
        @mcp.tool()
        def start_job(name: str, label: str) -> str:
            NOTES[name] = {"label": label}  # expect: MCP004
            if len(label) > 40:
                raise ToolError("label is longer than 40 characters")
            return "started"
        """
    )
    assert finding.message == f"Tool 'start_job' changes module-level state (NOTES[...]), then rejects the call at line {finding.location.row + 1}"
