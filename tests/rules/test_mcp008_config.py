"""MCP008 where masking is switched on by the project's files, not the code: FASTMCP_MASK_ERROR_DETAILS
in `.env`, a compose file, a Dockerfile, fastmcp.json (server_env.py, shared with MCP007), read as
the fastmcp release a fresh install gets reads it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_lint.pipeline import lint_source
from mcp_lint.server_env import read_env_setting

from ._support import said, lint_tree, write_tree

SERVER = """\
from fastmcp import FastMCP

app = FastMCP("billing"{argument})
INVOICES: dict[str, float] = {{"INV-1": 40.0}}


@app.tool
def refund(invoice_id: str, amount: float) -> str:
    if amount <= 0:
        raise ValueError("amount must be positive (EUR, two decimals)")
    return f"refunded {{amount}} on {{invoice_id}}"
"""


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # messages name files relative to the working directory


def pyproject(dependency: str) -> str:
    return f'[project]\nname = "billing"\nversion = "0.1.0"\ndependencies = ["{dependency}"]\n'


def lint_project(tmp_path: Path, files: dict[str, str], dependency: str = "fastmcp>=3", argument: str = "") -> list:
    write_tree(tmp_path, {"pyproject.toml": pyproject(dependency), "billing/__init__.py": "", "billing/server.py": SERVER.format(argument=argument), **files})
    return [f for f in lint_tree(tmp_path) if f.code == "MCP008"]


def test_dotenv_switch_masks_and_the_message_names_the_file(tmp_path: Path) -> None:
    [finding] = lint_project(tmp_path, {".env": "STRIPE_KEY=sk_test\nFASTMCP_MASK_ERROR_DETAILS=true\n"})
    assert finding.filename.endswith("server.py") and finding.location.row == 10
    assert "raises ValueError for the model to read" in finding.message
    assert "its text: 'amount must be positive (EUR, two decimals)'" in finding.notes
    assert "with masking turned on by FASTMCP_MASK_ERROR_DETAILS=true in .env" in said(finding)
    assert 'it receives "Error calling tool '"'"'refund'"'"'"' in said(finding)
    assert finding.fix is not None  # the same fix as under mask_error_details=True


@pytest.mark.parametrize(
    ("name", "text", "shown"),
    [
        (".env", "FASTMCP_MASK_ERROR_DETAILS=1\n", "=1 in .env"),
        (".env", 'export FASTMCP_MASK_ERROR_DETAILS="True"  # mask in production\n', "=True in .env"),
        (".env.production", "FASTMCP_MASK_ERROR_DETAILS=yes\n", "=yes in .env.production"),
        ("docker-compose.yml", 'services:\n  billing:\n    environment:\n      FASTMCP_MASK_ERROR_DETAILS: "on"\n', "=on in docker-compose.yml"),
        ("compose.yaml", "services:\n  billing:\n    environment:\n      - FASTMCP_MASK_ERROR_DETAILS=t\n", "=t in compose.yaml"),
        ("Dockerfile", "FROM python:3.12-slim\nENV FASTMCP_MASK_ERROR_DETAILS TRUE\n", "=TRUE in Dockerfile"),
        ("fastmcp.json", '{"deployment": {"env": {"FASTMCP_MASK_ERROR_DETAILS": "true"}}}\n', "=true in fastmcp.json"),
    ],
)
def test_every_truthy_spelling_fastmcp_reads_in_every_project_file(tmp_path: Path, name: str, text: str, shown: str) -> None:
    [finding] = lint_project(tmp_path, {name: text})
    assert f"masking turned on by FASTMCP_MASK_ERROR_DETAILS{shown}" in said(finding)


@pytest.mark.parametrize(
    "text",
    [
        "FASTMCP_MASK_ERROR_DETAILS=false\n",
        "FASTMCP_MASK_ERROR_DETAILS=0\n",
        "FASTMCP_MASK_ERROR_DETAILS=Off\n",
        "# FASTMCP_MASK_ERROR_DETAILS=true\n",
        "FASTMCP_MASK_ERROR_DETAILS=true\nFASTMCP_MASK_ERROR_DETAILS=false\n",  # the last assignment wins
        "FASTMCP_MASK_ERROR_DETAILS=${MASK_ERRORS:-true}\n",  # an interpolation: not a value
        "FASTMCP_MASK_ERROR_DETAILS_IN_LOGS=true\nMY_FASTMCP_MASK_ERROR_DETAILS=true\n",  # other variables
        "FASTMCP_SERVER_MASK_ERROR_DETAILS=true\n",  # fastmcp 2.5-2.13's spelling; 3.x does not read it
    ],
)
def test_values_and_lines_that_do_not_turn_masking_on(tmp_path: Path, text: str) -> None:
    assert lint_project(tmp_path, {".env": text}) == []


@pytest.mark.parametrize("name", [".env.example", ".env.sample", "example.env", "docker-compose.example.yml", "Dockerfile.template"])
def test_a_template_the_developer_copies_is_not_a_setting(tmp_path: Path, name: str) -> None:
    assert lint_project(tmp_path, {name: "FASTMCP_MASK_ERROR_DETAILS=true\n"}) == []
    # The file made from it is.
    [finding] = lint_project(tmp_path, {".env": "FASTMCP_MASK_ERROR_DETAILS=true\n"})
    assert "FASTMCP_MASK_ERROR_DETAILS=true in .env" in said(finding)


def test_a_switch_outside_the_project_root_is_not_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("FASTMCP_MASK_ERROR_DETAILS=true\n", encoding="utf-8")
    assert lint_project(tmp_path / "billing-mcp", {}) == []


def test_the_variable_means_nothing_to_an_mcp_1x_server(tmp_path: Path) -> None:
    server = SERVER.replace("from fastmcp import FastMCP", "from mcp.server.fastmcp import FastMCP").replace("@app.tool\n", "@app.tool()\n")
    write_tree(
        tmp_path,
        {
            "pyproject.toml": pyproject("mcp>=1.9,<2"),
            ".env": "FASTMCP_MASK_ERROR_DETAILS=true\n",
            "billing/__init__.py": "",
            "billing/server.py": server.format(argument=""),
        },
    )
    assert [f for f in lint_tree(tmp_path) if f.code == "MCP008"] == []


def test_an_explicit_false_argument_beats_the_variable_on_fastmcp_3(tmp_path: Path) -> None:
    # fastmcp 3.x/4.x: `mask_error_details if mask_error_details is not None else settings...`.
    assert lint_project(tmp_path, {".env": "FASTMCP_MASK_ERROR_DETAILS=true\n"}, argument=", mask_error_details=False") == []


def test_an_explicit_false_argument_does_not_beat_the_variable_on_fastmcp_2_8_to_2_14(tmp_path: Path) -> None:
    # fastmcp 2.8-2.14: ToolManager takes `mask_error_details or settings.mask_error_details`.
    [finding] = lint_project(
        tmp_path, {".env": "FASTMCP_MASK_ERROR_DETAILS=true\n"}, dependency="fastmcp>=2.8,<3", argument=", mask_error_details=False"
    )
    assert "masking turned on by FASTMCP_MASK_ERROR_DETAILS=true in .env" in said(finding)


def test_fastmcp_2_5_to_2_7_read_the_server_prefixed_variable(tmp_path: Path) -> None:
    dependency = "fastmcp>=2.5,<2.8"
    assert lint_project(tmp_path / "a", {".env": "FASTMCP_MASK_ERROR_DETAILS=true\n"}, dependency=dependency) == []
    [finding] = lint_project(tmp_path / "b", {".env": "FASTMCP_SERVER_MASK_ERROR_DETAILS=1\n"}, dependency=dependency)
    assert "masking turned on by FASTMCP_SERVER_MASK_ERROR_DETAILS=1 in b/.env" in said(finding)


def test_masking_in_the_code_is_credited_to_the_code(tmp_path: Path) -> None:
    [finding] = lint_project(tmp_path, {".env": "FASTMCP_MASK_ERROR_DETAILS=true\n"}, argument=", mask_error_details=True")
    assert "with mask_error_details=True only ToolError's text reaches the model" in said(finding)


def test_a_module_linted_from_memory_reads_the_files_it_is_given() -> None:
    source = SERVER.format(argument="")
    assert lint_source(source, target="fastmcp>=3") == []
    [finding] = lint_source(source, target="fastmcp>=3", env_files={".env": "FASTMCP_MASK_ERROR_DETAILS=true\n"})
    assert finding.code == "MCP008" and "masking turned on by FASTMCP_MASK_ERROR_DETAILS=true in .env" in said(finding)


def test_the_reader_returns_what_it_consulted(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": pyproject("fastmcp"), "deploy/Dockerfile": "ENV X=1\n", "billing/server.py": "", "README.md": ""})
    reading = read_env_setting(str(tmp_path / "billing"), "FASTMCP_MASK_ERROR_DETAILS")
    assert reading.setting is None
    # The directories walked (a created .env moves their mtime) and the settings files read.
    assert set(reading.consulted) == {str(tmp_path / "billing"), str(tmp_path), str(tmp_path / "pyproject.toml")}


def test_the_switch_also_keeps_caught_text_from_the_model_so_mcp002_is_silent() -> None:
    # The text of a caught exception passed on is MCP002's; masking by the project's .env hides
    # it from the model exactly as mask_error_details=True does.
    source = """\
import httpx
from fastmcp import FastMCP

mcp = FastMCP("weather")


@mcp.tool
def forecast(city: str) -> str:
    try:
        return httpx.get("https://api.example.com/forecast", params={"city": city}).text
    except httpx.HTTPError as e:
        raise RuntimeError(f"forecast service failed: {e}")
"""
    assert [(f.code, f.location.row) for f in lint_source(source, target="fastmcp>=3")] == [("MCP002", 12)]
    assert lint_source(source, target="fastmcp>=3", env_files={".env": "FASTMCP_MASK_ERROR_DETAILS=true\n"}) == []


# -- the spellings of the switch each release line reads (fastmcp/settings.py of the wheels) -------
NEW, OLD = "FASTMCP_MASK_ERROR_DETAILS", "FASTMCP_SERVER_MASK_ERROR_DETAILS"


@pytest.mark.parametrize(
    ("dependency", "text", "shown"),
    [
        # 2.5-2.7: `ServerSettings` with env_prefix FASTMCP_SERVER_ only.
        ("fastmcp>=2.5,<2.8", f"{OLD}=true\n", f"{OLD}=true"),
        ("fastmcp>=2.5,<2.8", f"{NEW}=true\n", None),
        # 2.8-2.13: the prefixes FASTMCP_ and the deprecated FASTMCP_SERVER_.
        ("fastmcp>=2.8,<2.14", f"{NEW}=true\n", f"{NEW}=true"),
        ("fastmcp>=2.8,<2.14", f"{OLD}=true\n", f"{OLD}=true"),
        ("fastmcp==2.13.3", f"{OLD}=1\n", f"{OLD}=1"),
        # 2.14 and later: FASTMCP_ only.
        ("fastmcp>=2.14,<3", f"{OLD}=true\n", None),
        ("fastmcp>=2.14,<3", f"{NEW}=true\n", f"{NEW}=true"),
        ("fastmcp>=3,<4", f"{OLD}=true\n", None),
        ("fastmcp>=4", f"{OLD}=true\n", None),
        ("fastmcp>=4", f"{NEW}=on\n", f"{NEW}=on"),
    ],
)
def test_each_release_line_reads_its_own_spellings(tmp_path: Path, dependency: str, text: str, shown: str | None) -> None:
    findings = lint_project(tmp_path, {".env": text}, dependency=dependency)
    if shown is None:
        assert findings == []
        return
    [finding] = findings
    assert finding.location.row == 10
    assert f"with masking turned on by {shown} in .env" in said(finding)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (f"{NEW}=false\n{OLD}=true\n", None),  # FASTMCP_ is looked up first: its False decides
        (f"{OLD}=true\n{NEW}=off\n", None),  # whatever the order of the lines
        (f"{OLD}=false\n{NEW}=true\n", f"{NEW}=true"),
        (f"{OLD}=yes\n{NEW}=1\n", f"{NEW}=1"),  # both on: the one that decides is named
        (f"# {NEW}=false\n{OLD}=true\n", f"{OLD}=true"),  # a commented-out line sets nothing
    ],
)
def test_when_a_file_sets_both_spellings_the_first_looked_up_decides(tmp_path: Path, text: str, shown: str | None) -> None:
    findings = lint_project(tmp_path, {".env": text}, dependency="fastmcp>=2.8,<2.14")
    assert [f"{shown} in .env" in said(f) for f in findings] == ([] if shown is None else [True])


def test_the_reader_follows_the_lookup_order_it_is_given(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": pyproject("fastmcp"), "deploy/compose.yaml": f"services:\n  app:\n    environment:\n      {OLD}: 'true'\n"})
    deploy = str(tmp_path / "deploy")
    assert read_env_setting(deploy, (NEW,)).setting is None
    found = read_env_setting(deploy, (NEW, OLD)).setting
    assert found is not None and found.describe() == f"{OLD}=true in {Path('deploy', 'compose.yaml')}"


# -- `FastMCP(name, **options)`: a mapping that may carry mask_error_details ------------------------
@pytest.mark.parametrize(
    ("dependency", "argument", "found"),
    [
        # 3.x/4.x take the argument over the variable: `**options` may carry it, so the code decides.
        ("fastmcp>=3", ", **SERVER_OPTIONS", False),
        ("fastmcp>=3", ", **settings.fastmcp_kwargs()", False),
        ("fastmcp>=3", ', **{"mask_error_details": DEBUG is False}', False),
        ("fastmcp>=3", ', **{**BASE_OPTIONS, "instructions": "Refunds"}', False),
        # ... but a literal that does not name it leaves the variable in charge.
        ("fastmcp>=3", ', **{"instructions": "Refunds in EUR"}', True),
        # 2.8-2.14 OR the argument with the variable: nothing passed can turn the .env's True off.
        ("fastmcp>=2.8,<3", ", **SERVER_OPTIONS", True),
        # 2.5-2.7 replace the setting with an explicit argument, as 3.x does.
        ("fastmcp>=2.5,<2.8", ", **SERVER_OPTIONS", False),
    ],
)
def test_unpacked_constructor_options_are_an_argument_that_may_be_set(tmp_path: Path, dependency: str, argument: str, found: bool) -> None:
    env = NEW if not dependency.endswith("<2.8") else OLD
    findings = lint_project(tmp_path, {".env": f"{env}=true\n"}, dependency=dependency, argument=argument)
    assert [(f.location.row, f"masking turned on by {env}=true in .env" in said(f)) for f in findings] == ([(10, True)] if found else [])


def test_unpacked_options_that_set_masking_on_are_masking_in_the_code(tmp_path: Path) -> None:
    [finding] = lint_project(tmp_path, {}, argument=', **{"instructions": "Refunds in EUR", "mask_error_details": True}')
    assert finding.location.row == 10 and "with mask_error_details=True only ToolError's text reaches the model" in said(finding)
