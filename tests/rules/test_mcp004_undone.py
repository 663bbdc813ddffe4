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


# -- blind004g's other causes: a helper's check does not end the search; archives read back -----
MORE = [
    case(
        "a-write-after-a-preparation-whose-only-later-check-is-a-helpers",
        """\
        def _prefix(kind: str) -> str:
            return "A" if kind == "actor" else "U"


        @mcp.tool()
        def make_module(folder: str, name: str, kind: str, force: bool = False) -> str:
            root = Path(folder) / name
            root.mkdir(parents=True, exist_ok=True)
            listing = Path(folder) / "modules.txt"
            listing.write_text(name)  # expect: MCP004
            prefix = _prefix(kind)
            header = root / f"{name}.h"
            if header.exists() and not force:
                raise ToolError(f"{header} exists; pass force=True to replace it")
            header.write_text(prefix + name)
            return str(header)
        """,
    ),
    case(
        "a-zip-written-then-removed-by-finally-before-a-helpers-check",
        """\
        import zipfile


        def need(payload: dict | None, what: str) -> dict:
            if payload is None:
                raise ToolError(f"{what} failed")
            return payload


        def send(path: Path) -> dict | None:
            return httpx.get(f"https://example.com/status/{path.name}").json()


        @mcp.tool()
        def pack(source: str) -> str:
            zpath = ROOT / "pack.zip"
            try:
                with zipfile.ZipFile(zpath, "w") as z:
                    z.write(source)
                out = need(send(zpath), "sending")
            finally:
                zpath.unlink(missing_ok=True)
            return str(out)
        """,
    ),
    case(
        "an-archive-a-command-helper-downloaded-read-back-by-its-check",
        """\
        import zipfile

        LIMIT = 1 << 20


        def fetch(args: list[str]) -> subprocess.CompletedProcess:
            return subprocess.run(["fetcher", *args], capture_output=True)


        @mcp.tool()
        def download_dir(remote: str) -> str:
            zpath = ROOT / "download.zip"
            fetch(["get", remote, str(zpath)])
            with zipfile.ZipFile(zpath) as z:
                if sum(i.file_size for i in z.infolist()) > LIMIT:
                    raise ToolError("the archive is larger than the download limit")
                names = z.namelist()
            return ", ".join(names)
        """,
    ),
    case(
        "a-zip-written-and-kept-before-an-argument-check",
        """\
        import zipfile


        @mcp.tool()
        def pack(source: str, label: str) -> str:
            zpath = ROOT / "pack.zip"
            with zipfile.ZipFile(zpath, "w") as z:
                z.write(source)  # expect: MCP004
            if len(label) > 40:
                raise ToolError("label is longer than 40 characters")
            return str(zpath)
        """,
    ),
]


@pytest.mark.parametrize("body", MORE)
def test_more_causes(body: str) -> None:
    _mcp004(body)
