"""The registry is the one list of rules: every other list derives from its records.

Adding a rule touches four places: the rule's module, its page in `rules/`, its tests, and one
`RuleInfo(...)` entry in `mcp_lint/registry.py` (which names the rule's class). The README's rules
table is then regenerated with `python -m mcp_lint.registry README.md` (a test below fails until
it is). `test_one_registry_entry_is_all_a_new_rule_needs` proves it with a rule made up here.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint import registry
from mcp_lint.cli import cli
from mcp_lint.config import ConfigError, Settings
from mcp_lint.registry import RULES, RuleInfo, Severity
from mcp_lint.rules import all_rules, rule_by_code, rule_class

REPO = Path(__file__).resolve().parents[1]


def run_cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


# --- the records ---------------------------------------------------------------------------------


def test_codes_and_names_are_unique_and_in_code_order() -> None:
    codes = [info.code for info in RULES]
    assert codes == sorted(codes) and len(set(codes)) == len(codes)
    assert len({info.name for info in RULES}) == len(RULES)
    assert all(info.fix_availability in ("always", "sometimes", "none") for info in RULES)
    assert all((info.fix_availability == "none") == (info.fix_applicability == "") for info in RULES)


@pytest.mark.parametrize("info", registry.tree_rules(), ids=lambda info: info.code)
def test_each_tree_rule_record_names_a_class_with_its_code_and_name(info: RuleInfo) -> None:
    cls = rule_class(info)
    assert (cls.code, cls.name) == (info.code, info.name)
    assert type(rule_by_code(info.code)) is cls


def test_the_driver_rules_have_no_class() -> None:
    assert [info.code for info in RULES if not info.implementation] == ["MCP000", "MCP100"]
    assert rule_by_code("MCP000") is None and rule_by_code("MCP100") is None


def test_one_severity_per_rule_serves_sarif_and_gitlab() -> None:
    # Blocker: nothing in the file was checked; minor: advice (MCP003) and hygiene (MCP100).
    chosen = {
        "MCP000": Severity.BLOCKER,
        "MCP001": Severity.MAJOR,
        "MCP002": Severity.MAJOR,
        "MCP003": Severity.MINOR,
        "MCP004": Severity.MAJOR,
        "MCP005": Severity.MAJOR,
        "MCP100": Severity.MINOR,
    }
    assert {code: registry.get_rule(code).severity for code in chosen} == chosen
    assert [severity.sarif_level for severity in Severity] == ["error", "error", "warning"]


def test_reading_the_records_imports_neither_libcst_nor_a_rule() -> None:
    code = "import sys\nfrom mcp_lint import registry\nregistry.tree_rules(); registry.readme_table()\n"
    code += "print(sorted(m for m in sys.modules if m.startswith(('libcst', 'mcp_lint.rules'))))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# --- the README ----------------------------------------------------------------------------------


def test_the_readme_rules_table_is_generated_from_the_records() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert registry.with_readme_table(readme) == readme, (
        "README.md's rules table differs from the records in mcp_lint/registry.py: "
        "regenerate it with `python -m mcp_lint.registry README.md`"
    )


def test_the_readme_table_has_one_row_per_rule_with_severity_and_fix() -> None:
    rows = registry.readme_table().splitlines()
    assert rows[0] == "| code | name | flags | severity | fix |"
    assert [row.split(" | ")[0].lstrip("| ") for row in rows[2:]] == [info.code for info in RULES]
    assert "| MCP000 | unreadable-file | A file could not be read or parsed, so nothing in it was checked. | blocker | — |" in rows
    assert rows[-1] == "| MCP100 | unused-noqa | A `# noqa: MCPxxx` comment suppresses nothing. Off unless selected. | minor | safe: remove the code |"


def test_the_readme_command_rewrites_only_the_table(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    stale = f"# x\n\n{registry.README_TABLE_START}\n| old |\n{registry.README_TABLE_END}\n\nafter\n"
    readme.write_text(stale, encoding="utf-8")
    command = [sys.executable, "-m", "mcp_lint.registry", str(readme)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    assert done.stdout == f"{readme}: rules table updated\n"
    text = readme.read_text(encoding="utf-8")
    assert text == f"# x\n\n{registry.README_TABLE_START}\n{registry.readme_table()}{registry.README_TABLE_END}\n\nafter\n"
    assert subprocess.run(command, capture_output=True, text=True, check=True).stdout == ""  # nothing left to do


def test_the_readme_command_refuses_a_readme_without_markers(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# x\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mcp_lint.registry", str(readme)], capture_output=True, text=True)
    assert done.returncode != 0 and "no rules table markers" in done.stderr
    assert readme.read_text(encoding="utf-8") == "# x\n"


# --- a new rule: one registry entry --------------------------------------------------------------

DUMMY_MODULE = '''\
import libcst as cst

from mcp_lint.rules.base import Rendered, Rule


class ToolReturnsNone(Rule):
    code = "MCP098"
    name = "tool-returns-none"

    def check(self, fn, ctx):
        for ret in fn.returns:
            if isinstance(ret.node.value, cst.Name) and ret.node.value.value == "None":
                yield self.latent(ctx, ret.node, variant="none", route="return")

    def render(self, latent, context):
        return Rendered(f"{context.subject} returns None: the model cannot tell what happened")
'''

DUMMY_PAGE = """\
# MCP098 tool-returns-none

## What it does
Flags a tool that returns `None`.
"""

SERVER = '''\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")


@mcp.tool()
def archive_note(note_id: int) -> None:
    """Archive one note."""
    NOTES.pop(note_id)
    return None
'''


def register_made_up_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, info: RuleInfo, module: str, page: str
) -> RuleInfo:
    """Register `info` the way a real rule is: its module (named by `info.implementation`), its page
    beside the real ones, and the one RuleInfo entry (inserted in code order, as in the registry)."""
    assert registry.get_rule(info.code) is None, f"{info.code} is a real rule now: give this made-up one an unused code"
    package = tmp_path / "plugins"
    package.mkdir()
    (package / (info.implementation.split(":")[0] + ".py")).write_text(module, encoding="utf-8")
    monkeypatch.syspath_prepend(str(package))
    pages = tmp_path / "pages"
    pages.mkdir()
    for existing in registry.docs_dir().glob("*.md"):
        (pages / existing.name).write_text(existing.read_text(encoding="utf-8"), encoding="utf-8")
    (pages / f"{info.code}.md").write_text(page, encoding="utf-8")
    monkeypatch.setattr(registry, "docs_dir", lambda: pages)
    monkeypatch.setattr(registry, "RULES", tuple(sorted((*RULES, info), key=lambda rule: rule.code)))
    return info


@pytest.fixture
def new_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> RuleInfo:
    """MCP098, a made-up function-level rule."""
    info = RuleInfo(
        "MCP098",
        "tool-returns-none",
        "A tool returns None, so the model cannot tell what happened.",
        Severity.MINOR,
        "none",
        "",
        registry.ALL_FRAMEWORKS,
        implementation="mcp098_tool_returns_none:ToolReturnsNone",
    )
    return register_made_up_rule(tmp_path, monkeypatch, info, DUMMY_MODULE, DUMMY_PAGE)


def test_one_registry_entry_is_all_a_new_rule_needs(new_rule: RuleInfo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `mcp-lint rule`: listed, described, its page printed.
    _, listing = run_cli("rule", "--all")
    assert "MCP098  tool-returns-none  A tool returns None, so the model cannot tell what happened." in listing.splitlines()
    _, described = run_cli("rule", "tool-returns-none", "--output-format", "json")
    assert json.loads(described)["severity"] == "minor" and json.loads(described)["fix"]["availability"] == "none"
    assert run_cli("rule", "MCP098") == (0, DUMMY_PAGE)

    # Configuration: a known code, on by default (under MCP0), named in the list of known codes.
    assert Settings().is_enabled("MCP098")
    assert not Settings().with_overrides(ignore=["MCP098"]).is_enabled("MCP098")
    with pytest.raises(ConfigError, match=r"known codes: MCP000, .*MCP098, MCP100\)"):
        Settings().with_overrides(select=["MCP097"])

    # The analysis runs it, and every report describes it.
    assert [rule.code for rule in all_rules()][-1] == "MCP098"
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    check = ("check", "server.py", "--isolated", "--no-cache", "--jobs", "1", "--select", "MCP098")
    code, output = run_cli(*check, "--output-format", "json")
    (finding,) = json.loads(output)
    assert (code, finding["code"], finding["location"]["row"]) == (1, "MCP098", 10)
    assert finding["message"] == "Tool 'archive_note' returns None: the model cannot tell what happened"

    _, output = run_cli(*check, "--output-format", "sarif")
    run = json.loads(output)["runs"][0]
    described = [rule for rule in run["tool"]["driver"]["rules"] if rule["id"] == "MCP098"]
    assert described == [{
        "id": "MCP098",
        "name": "tool-returns-none",
        "shortDescription": {"text": "A tool returns None, so the model cannot tell what happened."},
        "fullDescription": {"text": "Flags a tool that returns `None`."},
        "helpUri": "https://github.com/mcp-lint/mcp-lint/blob/main/rules/MCP098.md",
        "defaultConfiguration": {"level": "warning"},
        # The rule's help is its page (without a "Why is this bad?" section, the summary says why).
        "help": {"text": "A tool returns None, so the model cannot tell what happened.", "markdown": DUMMY_PAGE},
    }]
    (result,) = run["results"]
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "MCP098" and result["level"] == "warning"

    _, output = run_cli(*check, "--output-format", "gitlab")
    assert [issue["severity"] for issue in json.loads(output)] == ["minor"]

    # The README check notices the new record; regenerating the table adds its row.
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert registry.with_readme_table(readme) != readme
    assert "| MCP098 | tool-returns-none | A tool returns None, so the model cannot tell what happened. | minor | — |" in (
        registry.with_readme_table(readme)
    )


def test_a_deselected_new_rule_is_not_imported(new_rule: RuleInfo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "mcp098_tool_returns_none", raising=False)
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _ = run_cli("check", "server.py", "--isolated", "--no-cache", "--jobs", "1", "--select", "MCP001")
    assert code == 0
    assert "mcp098_tool_returns_none" not in sys.modules


def test_the_registry_source_has_one_entry_per_rule() -> None:
    # The claim the module docstring makes: a rule is one `RuleInfo(` entry, nowhere else listed.
    source = (REPO / "mcp_lint" / "registry.py").read_text(encoding="utf-8")
    assert len(re.findall(r"^    RuleInfo\(", source, re.MULTILINE)) == len(RULES)
    for path in sorted((REPO / "mcp_lint").rglob("*.py")):
        if path.name == "registry.py" or path.parent.name == "rules" and path.name.startswith("mcp0"):
            continue
        text = path.read_text(encoding="utf-8")
        listed = [info.code for info in registry.tree_rules() if f'"{info.code}"' in text]
        assert len(listed) < 3, f"{path.relative_to(REPO)} lists rule codes {listed}: derive them from mcp_lint.registry"


# --- a new server-level rule: the same one entry -------------------------------------------------

# A finding about a server, not a function: `check_module` keeps a picklable record per file (here
# its own dataclass), `link` makes the findings once the project is known (the tools of the server
# may be registered in another module). No other file names the rule.
SERVER_RULE_MODULE = '''\
from dataclasses import dataclass

from mcp_lint.findings import Finding, Location
from mcp_lint.rules.base import Rule


@dataclass(frozen=True)
class Untold:
    server: str
    location: Location
    statement: str


class ServerWithoutInstructions(Rule):
    code = "MCP097"
    name = "server-without-instructions"

    def check(self, fn, ctx):
        return ()

    def check_module(self, ctx):
        for call, _, _, _ in ctx.model.server_constructors:
            if not any(arg.keyword is not None and arg.keyword.value == "instructions" for arg in call.args):
                start = ctx.range(call).start
                server = ctx.model.constructed_as.get(id(call), "")
                yield Untold(server, Location(start.line, start.column + 1), ctx.code(call))

    def link(self, project):
        for summary, record in project.records(self.code):
            tools = project.tools_on(record.server, summary)
            if tools:
                yield Finding(
                    code=self.code,
                    message=f"Server with tools {sorted(tools)} gives the model no instructions",
                    filename=summary.path,
                    location=record.location,
                    end_location=record.location,
                    statement=record.statement,
                    statement_rows=(record.location.row, record.location.row),  # where a noqa may sit
                )
'''

SERVER_RULE_PAGE = """\
# MCP097 server-without-instructions

## What it does
Flags a server with tools and no `instructions=`.
"""

APP = '''\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")
'''

TOOLS = '''\
from app import mcp


@mcp.tool()
def count_notes() -> int:
    """How many notes there are."""
    return 0
'''


@pytest.fixture
def new_server_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> RuleInfo:
    """MCP097, a made-up server-level rule."""
    info = RuleInfo(
        "MCP097",
        "server-without-instructions",
        "A server with tools gives the model no instructions.",
        Severity.MINOR,
        "none",
        "",
        registry.ALL_FRAMEWORKS,
        implementation="mcp097_server_without_instructions:ServerWithoutInstructions",
    )
    return register_made_up_rule(tmp_path, monkeypatch, info, SERVER_RULE_MODULE, SERVER_RULE_PAGE)


def test_one_registry_entry_is_all_a_new_server_level_rule_needs(new_server_rule: RuleInfo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "app.py").write_text(APP, encoding="utf-8")
    (project / "tools.py").write_text(TOOLS, encoding="utf-8")
    monkeypatch.chdir(project)
    assert Settings().is_enabled("MCP097")
    check = ("check", ".", "--isolated", "--jobs", "1", "--cache-dir", str(tmp_path / "cache"))

    # On by default, at the constructor of app.py, naming the tool registered in tools.py; the
    # records survive the per-file cache (the second run reads them from it).
    for _ in range(2):
        code, output = run_cli(*check, "--output-format", "json")
        found = [(f["code"], Path(f["filename"]).name, f["location"]["row"], f["message"]) for f in json.loads(output)]
        assert (code, found) == (1, [("MCP097", "app.py", 3, "Server with tools ['count_notes'] gives the model no instructions")])

    _, output = run_cli(*check, "--output-format", "sarif")
    run = json.loads(output)["runs"][0]
    (result,) = run["results"]
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "MCP097" and result["level"] == "warning"
    _, output = run_cli(*check, "--output-format", "gitlab")
    assert [issue["severity"] for issue in json.loads(output)] == ["minor"]
    _, output = run_cli(*check, "--output-format", "concise")
    assert "app.py:3:7: MCP097 Server with tools ['count_notes'] gives the model no instructions" in output
    assert run_cli("rule", "MCP097") == (0, SERVER_RULE_PAGE)

    # Deselected, ignored or suppressed like any rule.
    assert run_cli(*check, "--ignore", "MCP097")[0] == 0
    (project / "app.py").write_text(APP.replace('FastMCP("notes")', 'FastMCP("notes")  # noqa: MCP097'), encoding="utf-8")
    assert run_cli(*check)[0] == 0
