"""The cache: same findings warm and cold, invalidation by content, settings and pins, robustness."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import pytest
from click.testing import CliRunner

import mcp_lint.project
from mcp_lint import per_file
from mcp_lint.cache import TAG_NAME, Cache, RunEntry, cache_directory
from mcp_lint.cli import cli
from mcp_lint.config import SettingsResolver
from mcp_lint.discovery import discover
from mcp_lint.findings import Finding, Location, Related
from mcp_lint.pins import PinSource
from mcp_lint.pipeline import analyze_all, lint_files

SERVER = """\
from mcp.server.fastmcp import FastMCP

from helpers import load

mcp = FastMCP("demo")


@mcp.tool()
def read(path: str) -> str:
    return load(path)
"""
HELPERS = """\
def load(path):
    try:
        with open(path) as handle:
            return handle.read()
    except OSError as exc:
        raise ValueError(f"cannot read: {exc}")
"""
FINDING = (
    "helpers.py:6:15: MCP002 Helper 'load' raises ValueError with the text of a caught OSError\n"
    "  note: reached from tool 'read'\n"
    "  note: mcp 1.x FastMCP{source} forwards an unexpected exception's text to the model\n"
)


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    (tmp_path / "helpers.py").write_text(HELPERS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture()
def analysed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The display names of the files the per-file step runs on, in order (serial runs only)."""
    seen: list[str] = []
    real = per_file.analyze_path

    def counting(path_text: str, *args, **kwargs):
        seen.append(Path(path_text).name)
        return real(path_text, *args, **kwargs)

    monkeypatch.setattr(per_file, "analyze_path", counting)
    return seen


def check(*args: str) -> tuple[int, str]:
    """The exit code and each finding as a line with its notes below it: the release a finding
    rests on and where its version came from are notes, which change with the pins and settings."""
    result = CliRunner().invoke(cli, ["check", "--output-format", "json", "-q", "--jobs", "1", *args])
    if result.exit_code not in (0, 1):
        return result.exit_code, result.output
    shown = []
    for finding in json.loads(result.output):
        name = os.path.relpath(finding["filename"])
        place = f"{name}:{finding['location']['row']}:{finding['location']['column']}"
        notes = "".join(f"  note: {note}\n" for note in finding["notes"])
        shown.append(f"{place}: {finding['code']} {finding['message']}\n{notes}")
    return result.exit_code, "".join(shown)


def test_a_warm_run_prints_what_the_cold_run_printed_without_analysing(project: Path, analysed: list[str]) -> None:
    cold = check(".")
    assert cold == (1, FINDING.format(source=""))
    assert analysed == ["server.py", "helpers.py"]
    analysed.clear()
    assert check(".") == cold
    assert analysed == []


def test_a_warm_run_reads_only_the_files_it_shows(project: Path, analysed: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from mcp_lint import fileio

    cold = check(".")
    read: list[str] = []
    real = fileio.read_source

    def recording(path: Path):
        read.append(Path(path).name)
        return real(path)

    monkeypatch.setattr(fileio, "read_source", recording)
    assert check(".") == cold
    assert read == ["helpers.py"] and analysed == ["server.py", "helpers.py"]  # no new analysis


def test_an_edit_that_keeps_size_and_mtime_is_still_seen(project: Path, analysed: list[str]) -> None:
    check(".")
    helpers = project / "helpers.py"
    before = helpers.stat()
    # Same length, same modification time: only the change time (which no tool can set) moves.
    helpers.write_text(HELPERS.replace("cannot read: {exc}", "cannot read:XXXXXX"), encoding="utf-8")
    os.utime(helpers, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert helpers.stat().st_size == before.st_size and helpers.stat().st_mtime_ns == before.st_mtime_ns
    analysed.clear()
    assert check(".") == (0, "")
    assert analysed == ["helpers.py"]


def test_a_touched_file_hits_by_content_then_by_stat(project: Path, analysed: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from mcp_lint import fileio

    cold = check(".")
    os.utime(project / "server.py")  # new times, same bytes
    analysed.clear()
    assert check(".") == cold
    assert analysed == []  # the content key still matched
    read: list[str] = []
    real = fileio.read_source
    monkeypatch.setattr(fileio, "read_source", lambda path: read.append(Path(path).name) or real(path))
    assert check(".") == cold
    assert read == ["helpers.py"]  # and the entry was filed under the new stat signature


def test_the_cache_lives_in_the_project_root_tagged_and_ignored_by_git(project: Path) -> None:
    (project / "pyproject.toml").write_text('[project]\nname = "demo"\n', encoding="utf-8")
    (project / "sub").mkdir()
    os.chdir(project / "sub")
    check("..")
    cache = project / ".mcp_lint_cache"
    assert (cache / TAG_NAME).read_text(encoding="utf-8").startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert (cache / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"


def test_cache_dir_setting_and_option(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.mcp-lint]\ncache-dir = "build/lint"\n', encoding="utf-8")
    check(".")
    assert (project / "build" / "lint" / TAG_NAME).is_file()
    check(".", "--cache-dir", "elsewhere")
    assert (project / "elsewhere" / TAG_NAME).is_file()


def test_no_cache_neither_reads_nor_writes(project: Path, analysed: list[str]) -> None:
    check(".")
    analysed.clear()
    assert check(".", "--no-cache")[0] == 1
    assert analysed == ["server.py", "helpers.py"]
    os.chdir(project.parent)
    check(str(project), "--no-cache", "--cache-dir", str(project / "unused"))
    assert not (project / "unused").exists()


def test_only_the_edited_file_is_analysed_again(project: Path, analysed: list[str]) -> None:
    check(".")
    analysed.clear()
    (project / "helpers.py").write_text(HELPERS.replace("cannot read: {exc}", "cannot read the file"), encoding="utf-8")
    assert check(".") == (0, "")
    assert analysed == ["helpers.py"]


def test_changed_settings_are_applied_to_cached_results(project: Path) -> None:
    check(".")
    assert check(".", "--ignore", "MCP002") == (0, "")
    assert check(".") == (1, FINDING.format(source=""))


def test_an_edited_pyproject_pin_is_noticed(project: Path) -> None:
    check(".")
    mcp_lint.project.clear_cache()  # a new process would not remember the directories it read
    (project / "pyproject.toml").write_text('[project]\nname = "demo"\ndependencies = ["mcp>=1.9,<2"]\n', encoding="utf-8")
    assert check(".") == (1, FINDING.format(source=" (from pyproject.toml)"))


def test_an_unparsable_file_is_cached_with_its_problem(project: Path, analysed: list[str]) -> None:
    (project / "broken.py").write_text("def broken(:\n", encoding="utf-8")
    cold = check("broken.py")
    assert cold == (1, "broken.py:1:12: MCP000 syntax error: invalid syntax\n")
    analysed.clear()
    assert check("broken.py") == cold
    assert analysed == []


def test_a_corrupt_cache_is_ignored_and_rebuilt(project: Path, analysed: list[str]) -> None:
    cold = check(".")
    entries = [p for p in (project / ".mcp_lint_cache").rglob("*") if p.is_file() and p.parent.name != ".mcp_lint_cache"]
    assert entries
    for number, entry in enumerate(entries):
        entry.write_bytes(b"" if number % 2 else b"MCPLINT1 not a pickle at all")
    analysed.clear()
    assert check(".") == cold
    assert analysed == ["server.py", "helpers.py"]
    analysed.clear()
    assert check(".") == cold
    assert analysed == []


def test_a_cache_directory_that_cannot_be_written_does_not_fail_the_run(project: Path) -> None:
    (project / "blocked").write_text("a file where the cache directory should be", encoding="utf-8")
    assert check(".", "--cache-dir", "blocked/cache") == (1, FINDING.format(source=""))


class _Planted:
    """What someone could commit into a cache directory: unpickling it would run a command."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_a_planted_pickle_is_not_executed(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache")
    marker = tmp_path / "executed"
    cache.store_file("ab" * 16, _Planted(marker), None)
    assert not marker.exists()
    assert cache.load_file("ab" * 16) is None
    assert not marker.exists()
    # The same entry with a real summary loads.
    cache.store_file("ab" * 16, None, None)
    assert cache.load_file("ab" * 16) == (None, None)


def test_warm_and_cold_results_are_equal_objects(project: Path) -> None:
    resolver = SettingsResolver()
    files = discover([project], resolver)
    cache = Cache(project / "c")
    runs = [lint_files(files, resolver, PinSource(resolver), jobs=1, cache=cache, explicit=[]) for _ in range(3)]
    cold = lint_files(files, resolver, PinSource(resolver), jobs=1, cache=None, explicit=[])
    assert all(findings == cold[1] and not errors for _, findings, errors in runs)
    # A warm run hands back the source of each file with findings (for reports), nothing else.
    assert [(o.display, o.summary) for o in runs[1][0]] == [(str(project / "helpers.py"), None)]


def test_a_finding_keeps_its_help_notes_and_related_locations_through_the_cache(tmp_path: Path) -> None:
    finding = Finding(
        code="MCP002",
        message="Helper 'load' raises ValueError with the text of a caught OSError",
        filename="helpers.py",
        location=Location(6, 15),
        end_location=Location(6, 54),
        help="Log the exception; raise a message saying which operation failed",
        notes=("mcp 1.x FastMCP forwards an unexpected exception's text to the model",),
        related=(Related("server.py", Location(9, 5), Location(9, 9), "tool 'read' reaches 'load'"),),
    )
    cache = Cache(tmp_path / "cache")
    cache.store_run("cd" * 16, RunEntry([finding], {}))
    loaded = cache.load_run("cd" * 16)
    assert loaded is not None and loaded.findings == [finding]
    assert loaded.findings[0].related[0].message == "tool 'read' reaches 'load'"


def test_summaries_round_trip_through_pickle(project: Path) -> None:
    (outcome,) = [o for o in analyze_all([project / "server.py"], 1)]
    assert pickle.loads(pickle.dumps(outcome.summary)) == outcome.summary


def test_call_edges_pickle_only_what_differs_from_the_defaults() -> None:
    from mcp_lint.model.summary import CallEdge

    plain = CallEdge("helpers.load", False)
    edge = CallEdge("helpers.load", True, via_attribute=True, excludes=frozenset({"x"}), at=(Location(3, 4), Location(3, 9)))
    loaded = pickle.loads(pickle.dumps(edge))
    assert loaded == edge and hash(loaded) == hash(edge)
    assert (loaded.constants, loaded.selects, loaded.raised_text) == ((), None, "")
    # Fields at their defaults cost nothing: the edge that sets three of them is the larger pickle.
    assert len(pickle.dumps(plain)) < len(pickle.dumps(edge))
    assert b"constants" not in pickle.dumps(edge)
    # A value only equal to its default is kept as it is, not replaced by the default.
    zero = pickle.loads(pickle.dumps(CallEdge("helpers.load", True, flows=0)))  # type: ignore[arg-type]
    assert zero.flows == 0 and type(zero.flows) is int


# --- mcp-lint clean ------------------------------------------------------------------------------


def test_clean_removes_the_project_cache(project: Path) -> None:
    check(".")
    result = CliRunner().invoke(cli, ["clean"])
    assert (result.exit_code, result.output) == (0, "Removed .mcp_lint_cache\n")
    assert not (project / ".mcp_lint_cache").exists()
    result = CliRunner().invoke(cli, ["clean"])
    assert (result.exit_code, result.output) == (0, "No cache at .mcp_lint_cache\n")


def test_clean_refuses_a_directory_that_is_not_a_cache(project: Path) -> None:
    (project / "notes").mkdir()
    (project / "notes" / "keep.txt").write_text("mine", encoding="utf-8")
    result = CliRunner().invoke(cli, ["clean", "--cache-dir", "notes"])
    assert result.exit_code == 2
    assert result.output == (
        f"mcp-lint: error: {project / 'notes'} is not an mcp-lint cache (it has no CACHEDIR.TAG); not removed\n"
    )
    assert (project / "notes" / "keep.txt").exists()


def test_cache_directory_follows_the_config_root(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.mcp-lint]\ncache-dir = ".lint"\n', encoding="utf-8")
    (project / "pkg").mkdir()
    os.chdir(project / "pkg")
    assert cache_directory(SettingsResolver()) == project / ".lint"
    # Without the setting: the default name, still in the project root.
    assert cache_directory(SettingsResolver(isolated=True)) == project / ".mcp_lint_cache"
    (project / "pyproject.toml").unlink()
    assert cache_directory(SettingsResolver()) == project / "pkg" / ".mcp_lint_cache"


def test_a_requirements_file_edited_in_place_inside_a_folder_is_noticed(project: Path) -> None:
    (project / "requirements").mkdir()
    base = project / "requirements" / "base.txt"
    base.write_text("httpx>=0.27\n", encoding="utf-8")
    assert check(".") == (1, FINDING.format(source=""))
    mcp_lint.project.clear_cache()  # a new process would not remember the directories it read
    with open(base, "a", encoding="utf-8") as handle:  # in place: the folder's listing is unchanged
        handle.write("mcp>=1.9,<2\n")
    assert check(".") == (1, FINDING.format(source=" (from requirements/base.txt)"))


def test_a_change_to_an_included_requirements_file_is_noticed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = tmp_path / "app"
    app.mkdir()
    (app / "server.py").write_text(SERVER, encoding="utf-8")
    (app / "helpers.py").write_text(HELPERS, encoding="utf-8")
    (app / "requirements.txt").write_text("-r ../common.txt\n", encoding="utf-8")
    common = tmp_path / "common.txt"
    common.write_text("httpx>=0.27\n", encoding="utf-8")
    monkeypatch.chdir(app)
    assert check(".") == (1, FINDING.format(source=""))
    mcp_lint.project.clear_cache()
    common.write_text("mcp>=1.9,<2\n", encoding="utf-8")
    assert check(".") == (1, FINDING.format(source=" (from ../common.txt)"))


def test_the_project_reader_returns_the_files_it_read(tmp_path: Path) -> None:
    from mcp_lint.project import declared_dependencies

    (tmp_path / "app" / "requirements").mkdir(parents=True)
    (tmp_path / "app" / "requirements" / "base.txt").write_text("-r ../../common.txt\nhttpx\n")
    (tmp_path / "common.txt").write_text("mcp>=1.9\n")
    (tmp_path / "app" / "pyproject.toml").write_text('[project]\nname = "app"\n')
    (tmp_path / "app" / "notes.md").write_text("not read\n")
    mcp_lint.project.clear_cache()
    deps = declared_dependencies(tmp_path / "app" / "server.py")
    assert deps.get("mcp").specifier == ">=1.9"
    assert set(deps.files) == {
        str(tmp_path / "app"),
        str(tmp_path / "app" / "pyproject.toml"),
        str(tmp_path / "app" / "requirements"),
        str(tmp_path / "app" / "requirements" / "base.txt"),
        str(tmp_path / "common.txt"),
    }


# -- project files that set the server's environment (server_env.py: MCP007/MCP008 read them) ----
MASKED_SERVER = """\
from fastmcp import FastMCP

app = FastMCP("billing")


@app.tool
def refund(invoice_id: str, amount: float) -> str:
    if amount <= 0:
        raise ValueError("amount must be positive (EUR, two decimals)")
    return f"refunded {amount} on {invoice_id}"
"""
MASKED = (
    "server.py:9:9: MCP008 Tool 'refund' raises ValueError for the model to read, but the framework masks its text\n"
    "  note: its text: 'amount must be positive (EUR, two decimals)'\n"
    "  note: on fastmcp (from pyproject.toml) with masking turned on by FASTMCP_MASK_ERROR_DETAILS={value} in {file}"
    " only ToolError's text reaches the model: it receives \"Error calling tool 'refund'\"\n"
)


@pytest.fixture()
def fastmcp_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "billing"\ndependencies = ["fastmcp>=3"]\n', encoding="utf-8")
    (tmp_path / "server.py").write_text(MASKED_SERVER, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_an_edited_dotenv_changes_the_findings_of_a_warm_run(fastmcp_project: Path, analysed: list[str]) -> None:
    env = fastmcp_project / ".env"
    env.write_text("FASTMCP_MASK_ERROR_DETAILS=true\n", encoding="utf-8")
    assert check(".") == (1, MASKED.format(value="true", file=".env"))
    analysed.clear()
    assert check(".") == (1, MASKED.format(value="true", file=".env"))
    assert analysed == []  # unchanged: served from the cache
    with open(env, "w", encoding="utf-8") as handle:  # in place: the folder's listing is unchanged
        handle.write("FASTMCP_MASK_ERROR_DETAILS=0\n")
    assert check(".") == (0, "")
    assert analysed == []  # the file's analysis is still good: only the link step reran
    env.write_text("FASTMCP_MASK_ERROR_DETAILS=1\n", encoding="utf-8")
    assert check(".") == (1, MASKED.format(value="1", file=".env"))


def test_a_created_or_deleted_settings_file_changes_the_findings(fastmcp_project: Path) -> None:
    assert check(".") == (0, "")
    compose = fastmcp_project / "compose.yaml"
    compose.write_text("services:\n  billing:\n    environment:\n      - FASTMCP_MASK_ERROR_DETAILS=true\n", encoding="utf-8")
    assert check(".") == (1, MASKED.format(value="true", file="compose.yaml"))
    compose.unlink()
    assert check(".") == (0, "")


def test_a_settings_file_rewritten_with_the_same_answer_is_still_served_from_the_cache(fastmcp_project: Path, analysed: list[str]) -> None:
    env = fastmcp_project / ".env"
    env.write_text("FASTMCP_MASK_ERROR_DETAILS=true\n", encoding="utf-8")
    cold = check(".")
    env.write_text("# masking for production\nFASTMCP_MASK_ERROR_DETAILS=true\nSTRIPE_KEY=sk_test\n", encoding="utf-8")
    analysed.clear()
    assert check(".") == cold
    assert analysed == []


def test_a_run_that_read_no_settings_file_ignores_them(project: Path, analysed: list[str]) -> None:
    # An mcp 1.x server: nothing reads FASTMCP_MASK_ERROR_DETAILS, so a new .env cannot change a finding.
    cold = check(".")
    (project / ".env").write_text("FASTMCP_MASK_ERROR_DETAILS=true\n", encoding="utf-8")
    analysed.clear()
    assert check(".") == cold
    assert analysed == []


def test_a_settings_file_touched_without_a_new_answer_is_read_once(fastmcp_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import mcp_lint.server_env

    env = fastmcp_project / ".env"
    env.write_text("FASTMCP_MASK_ERROR_DETAILS=true\n", encoding="utf-8")
    cold = check(".")
    env.write_text("FASTMCP_MASK_ERROR_DETAILS=true\nDEBUG=0\n", encoding="utf-8")
    reads: list[str] = []
    real = mcp_lint.server_env.read_env_setting
    monkeypatch.setattr(mcp_lint.server_env, "read_env_setting", lambda *args: reads.append(args[0]) or real(*args))
    assert check(".") == cold
    assert len(reads) == 1  # re-checked once...
    assert check(".") == cold
    assert len(reads) == 1  # ...and the stored run took the file's new signature


def test_a_settings_file_created_without_a_new_answer_is_watched_from_then_on(fastmcp_project: Path) -> None:
    assert check(".") == (0, "")
    env = fastmcp_project / ".env"
    env.write_text("FASTMCP_MASK_ERROR_DETAILS=false\n", encoding="utf-8")
    assert check(".") == (0, "")  # same answer: the stored run is re-signed...
    with open(env, "w", encoding="utf-8") as handle:  # ...with the new file in it: an edit in place
        handle.write("FASTMCP_MASK_ERROR_DETAILS=true\n")  # leaves the folder's listing as it was
    assert check(".") == (1, MASKED.format(value="true", file=".env"))


def test_revalidating_a_stored_run_answers_with_a_re_signed_copy(fastmcp_project: Path) -> None:
    from mcp_lint.cache import RunEntry

    env = fastmcp_project / ".env"
    env.write_text("FASTMCP_MASK_ERROR_DETAILS=true\n", encoding="utf-8")
    resolver = SettingsResolver()
    lookup = PinSource(resolver)
    server = str(fastmcp_project / "server.py")
    names = ("FASTMCP_MASK_ERROR_DETAILS",)
    reading = lookup.env_setting(server, names)
    entry = RunEntry.of([], {(server, "fastmcp"): lookup(server, "fastmcp")}, {(server, names): reading.setting}, reading.consulted)
    assert entry.revalidated(PinSource(resolver)) is entry  # nothing moved: the entry as it is
    env.write_text("DEBUG=0\nFASTMCP_MASK_ERROR_DETAILS=true\n", encoding="utf-8")  # same answer
    signature = entry.deps_signature
    renewed = entry.revalidated(PinSource(resolver))
    assert renewed is not None and renewed is not entry
    assert renewed.deps_signature != signature and entry.deps_signature == signature  # the stored one is untouched
    assert renewed.revalidated(PinSource(resolver)) is renewed
    env.write_text("FASTMCP_MASK_ERROR_DETAILS=false\n", encoding="utf-8")  # another answer
    assert entry.revalidated(PinSource(resolver)) is None
