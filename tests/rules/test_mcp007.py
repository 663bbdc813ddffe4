"""MCP007 unmasked-error-details: servers that forward unexpected exception text, at their constructor.

Each source marks the lines where a finding is expected with `# expect: MCPnnn`; the test asserts
the exact set of (code, row) of MCP007 for the whole snippet.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from mcp_lint.fixing.apply import fix_source
from mcp_lint.pipeline import lint_source

from ._support import said, expected, lint_tree, write_tree


def _check(source: str, target: str | None = None) -> list:
    text = textwrap.dedent(source)
    findings = [f for f in lint_source(text, filename="server.py", target=target, select=("MCP007",))]
    assert {(f.code, f.location.row) for f in findings} == {e for e in expected(text) if e[0] == "MCP007"}
    return findings


def _only(source: str, target: str | None = None):
    found = _check(source, target)
    assert len(found) == 1, found
    return found[0]


def _fixed(source: str, target: str | None) -> str:
    outcome = fix_source(textwrap.dedent(source), lambda s: lint_source(s, filename="server.py", target=target, select=("MCP007",)), unsafe=False)
    assert outcome.error is None, outcome.error
    return outcome.fixed


WEATHER = """\
import httpx
from fastmcp import FastMCP

mcp = FastMCP("weather")  # expect: MCP007


@mcp.tool
async def forecast(city: str) -> str:
    async with httpx.AsyncClient() as client:
        response = await client.get("https://api.example.com/forecast", params={"city": city})
    response.raise_for_status()
    return response.text


@mcp.tool
def units() -> list[str]:
    return ["metric", "imperial"]
"""


def _related(finding) -> list[tuple[str, int, str]]:  # type: ignore[no-untyped-def]
    return [(Path(r.filename).name, r.location.row, r.message) for r in finding.related]


def test_fastmcp_server_with_unwrapped_io_is_reported_at_its_constructor() -> None:
    finding = _only(WEATHER, "fastmcp>=2.5")
    assert finding.location.column == 7
    assert finding.message == "Server 'mcp' forwards raw exception text to the model; 1 tool does I/O outside any try"
    assert "reaches the model as 'Error calling tool 'forecast': <exception text>'" in said(finding)
    # The unwrapped call is a related location.
    assert _related(finding) == [("server.py", 10, "tool 'forecast' calls client.get outside any try")]
    assert finding.help == "Pass mask_error_details=True" == finding.fix.message
    assert "units" not in said(finding)  # no I/O there
    assert "with mask_error_details=True the model gets 'Error calling tool 'forecast''" in finding.notes
    assert finding.fix is not None and finding.fix.applicability.value == "safe"


def test_safe_fix_adds_the_setting_and_converges() -> None:
    fixed = _fixed(WEATHER, "fastmcp>=2.5")
    assert 'mcp = FastMCP("weather", mask_error_details=True)  # expect: MCP007' in fixed
    assert _check(fixed.replace("  # expect: MCP007", ""), "fastmcp>=2.5") == []
    assert _fixed(fixed, "fastmcp>=2.5") == fixed

# A plain exception raised with a message for the model: masking alone would hide its text.
PLAIN_MESSAGE = """\

@mcp.tool
def get_city(name: str) -> str:
    if name not in CITIES:
        raise ValueError(f"Unknown city {name}; call list_cities for the names")
    return CITIES[name]
"""

# The same raise of a programming error (no message for the model to act on).
PLAIN_INTERNAL = """\

@mcp.tool
def get_city(name: str) -> str:
    if name not in CITIES:
        raise NotImplementedError("city lookup is not written yet")
    return CITIES[name]
"""


def test_masking_is_no_safe_fix_where_plain_exceptions_carry_messages_for_the_model() -> None:
    """The rule decides this on its own records, whichever other rules are selected."""
    finding = _only(WEATHER + PLAIN_MESSAGE, "fastmcp>=2.5")
    assert finding.fix is not None and finding.fix.applicability.value == "unsafe"
    assert "mask_error_details=True" not in _fixed(WEATHER + PLAIN_MESSAGE, "fastmcp>=2.5")


def test_masking_stays_a_safe_fix_where_plain_exceptions_carry_no_message_for_the_model() -> None:
    finding = _only(WEATHER + PLAIN_INTERNAL, "fastmcp>=2.5")
    assert finding.fix is not None and finding.fix.applicability.value == "safe"



@pytest.mark.parametrize(
    ("constructor", "after"),
    [
        ("FastMCP()", "FastMCP(mask_error_details=True)"),
        ('FastMCP(\n    name="weather",\n    instructions="Forecasts by city",\n)', 'FastMCP(\n    name="weather",\n    instructions="Forecasts by city", mask_error_details=True,\n)'),
        # A parenthesized last argument: the setting goes after its closing parenthesis.
        (
            'FastMCP(\n    "weather",\n    instructions=(\n        "Forecasts "\n        "by city"\n    ),\n)',
            'FastMCP(\n    "weather",\n    instructions=(\n        "Forecasts "\n        "by city"\n    ), mask_error_details=True,\n)',
        ),
        ('FastMCP(("weather"))', 'FastMCP(("weather"), mask_error_details=True)'),
    ],
)
def test_fix_on_other_constructor_layouts_parses(constructor: str, after: str) -> None:
    source = WEATHER.replace('FastMCP("weather")', constructor)
    fixed = _fixed(source, "fastmcp>=3")
    assert after in fixed
    compile(fixed, "server.py", "exec")


def test_unpinned_fastmcp_is_judged_on_the_newest_release_but_gets_no_fix() -> None:
    # fastmcp 2.3 has no mask_error_details: the setting cannot be added for every candidate.
    finding = _only(WEATHER)
    assert "on fastmcp 4.x (the newest release allowed) a failure" in said(finding)
    assert finding.fix is None


def test_explicit_false_is_reported_without_a_fix() -> None:
    finding = _only(WEATHER.replace('FastMCP("weather")', 'FastMCP("weather", mask_error_details=False)'), "fastmcp>=2.5")
    assert finding.help == "Set mask_error_details=True; raise ToolError for failures the model can act on"
    assert finding.fix is None


@pytest.mark.parametrize(
    "argument",
    ["mask_error_details=True", "mask_error_details=settings.mask", "**server_options", '**{"mask_error_details": True}', "**{**defaults}"],
)
def test_masked_or_configured_servers_are_silent(argument: str) -> None:
    source = WEATHER.replace('FastMCP("weather")', f'FastMCP("weather", {argument})').replace("  # expect: MCP007", "")
    assert _check(source, "fastmcp>=2.5") == []


def test_unpacked_options_that_cannot_carry_the_switch_are_reported() -> None:
    # A `**{...}` literal without the key passes other settings only: the server still forwards.
    source = WEATHER.replace('FastMCP("weather")', 'FastMCP("weather", **{"instructions": "Forecasts by city"})')
    finding = _only(source, "fastmcp>=3")
    assert "with mask_error_details=True the model gets 'Error calling tool 'forecast''" in finding.notes
    assert '**{"instructions": "Forecasts by city"}, mask_error_details=True)' in _fixed(source, "fastmcp>=3")


def test_mcp1_server_has_no_switch() -> None:
    finding = _only(
        """\
        import sqlite3

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("notes")  # expect: MCP007


        def load_note(note_id: int) -> str:
            with sqlite3.connect("/srv/notes/notes.db") as db:
                row = db.execute("SELECT body FROM notes WHERE id = ?", (note_id,)).fetchone()
            return row[0] if row else ""


        @mcp.tool()
        def read_note(note_id: int) -> str:
            return load_note(note_id)
        """
    )
    assert "on mcp 1.x FastMCP a failure no `try` handles reaches the model as 'Error executing tool read_note: <exception text>'" in finding.notes
    assert _related(finding) == [("server.py", 9, "tool 'read_note' calls sqlite3.connect in 'load_note' outside any try")]
    assert "mcp 1.x has no switch to mask it (mcp >= 2.1 masks it)" in finding.notes
    assert finding.help == "Catch those failures in the tool and raise ToolError with your own message"
    assert finding.fix is None


def test_mcp2_server_masks_from_2_1() -> None:
    source = """\
    import subprocess

    from mcp.server.mcpserver import MCPServer

    mcp = MCPServer("git")  # expect: MCP007


    @mcp.tool()
    def git_log(repo: str) -> str:
        return subprocess.run(["git", "-C", repo, "log", "-5"], capture_output=True, text=True, check=True).stdout
    """
    finding = _only(source, "mcp==2.0.0")
    assert finding.help == "Catch those failures and raise ToolError with your own message, or move to mcp >= 2.1"
    assert _check(source.replace("  # expect: MCP007", ""), "mcp>=2.1,<3") == []
    assert _check(source.replace("  # expect: MCP007", "")) == []  # the newest 2.x masks


def test_wrapped_io_and_tools_without_io_are_silent() -> None:
    _check(
        """\
        import logging

        import httpx
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        logger = logging.getLogger(__name__)
        mcp = FastMCP("weather")


        @mcp.tool
        async def forecast(city: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    response = await client.get("https://api.example.com/forecast", params={"city": city})
                response.raise_for_status()
            except httpx.HTTPError:
                logger.exception("forecast for %s failed", city)
                raise ToolError(f"The forecast service did not answer for {city}; try again in a minute")
            return response.text


        @mcp.tool
        def convert(celsius: float) -> float:
            return celsius * 9 / 5 + 32
        """,
        "fastmcp>=2.5",
    )


def test_a_bare_reraise_does_not_wrap() -> None:
    finding = _only(
        """\
        import logging

        import requests
        from fastmcp import FastMCP

        logger = logging.getLogger(__name__)
        mcp = FastMCP("status")  # expect: MCP007


        @mcp.tool
        def service_status(service: str) -> dict:
            try:
                return requests.get(f"https://status.example.com/{service}", timeout=10).json()
            except requests.RequestException:
                logger.exception("status of %s", service)
                raise
        """,
        "fastmcp>=2.5",
    )
    assert _related(finding) == [("server.py", 13, "tool 'service_status' calls requests.get outside any try")]


def test_a_decorator_that_catches_wraps_the_tool() -> None:
    _check(
        """\
        import functools

        import httpx
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        mcp = FastMCP("weather")


        def tool_errors(fn):
            @functools.wraps(fn)
            async def wrapper(*args, **kwargs):
                try:
                    return await fn(*args, **kwargs)
                except Exception:
                    raise ToolError(f"{fn.__name__} failed; the upstream service did not answer")
            return wrapper


        @mcp.tool
        @tool_errors
        async def forecast(city: str) -> str:
            async with httpx.AsyncClient() as client:
                response = await client.get("https://api.example.com/forecast", params={"city": city})
            return response.text
        """,
        "fastmcp>=2.5",
    )


def test_a_method_on_an_untyped_parameter_is_left_to_its_caller() -> None:
    _check(
        """\
        from fastmcp import FastMCP

        mcp = FastMCP("warehouse")


        def run_query(sql: str, db):
            return db.query(sql)


        @mcp.tool
        def count_orders() -> int:
            return run_query("SELECT count(*) FROM orders", WAREHOUSE)
        """,
        "fastmcp>=2.5",
    )


def test_many_tools_are_counted_and_a_local_server_is_named() -> None:
    tools = "\n".join(
        f"""
    @mcp.tool
    def read_{name}(path: str) -> str:
        return open(path).read()
"""
        for name in ("a", "b", "c", "d", "e")
    )
    source = f"""\
from fastmcp import FastMCP


def build_server() -> FastMCP:
    mcp = FastMCP("files")  # expect: MCP007
{tools}
    return mcp
"""
    finding = _only(source, "fastmcp>=2.5")
    assert finding.message == "Server 'mcp' forwards raw exception text to the model; 5 tools do I/O outside any try"
    assert [(row, message) for _, row, message in _related(finding)] == [
        (9, "tool 'read_a' calls open outside any try"),
        (14, "tool 'read_b' calls open outside any try"),
        (19, "tool 'read_c' calls open outside any try"),
    ]
    assert "and 2 more tools: 'read_d', 'read_e'" in finding.notes


def test_on_by_default_and_noqa() -> None:
    # Like MCP001-MCP009, the default selection runs it: the finding is at the constructor.
    findings = lint_source(textwrap.dedent(WEATHER), filename="server.py", target="fastmcp>=2.5")
    assert [(f.code, f.location.row) for f in findings] == [("MCP007", 4)]
    assert findings[0].message.startswith("Server 'mcp' forwards raw exception text to the model")
    assert _check(WEATHER.replace("  # expect: MCP007", "  # noqa: MCP007"), "fastmcp>=2.5") == []


# -- projects on disk: helpers in other modules, the environment switch ----------------------------

PYPROJECT = """\
[project]
name = "weather-mcp"
version = "0.1.0"
dependencies = ["fastmcp>=2.10,<3", "httpx"]

[tool.mcp-lint]
select = ["MCP007"]
"""

SERVER = """\
from fastmcp import FastMCP

from weather_mcp.api import fetch_forecast

mcp = FastMCP("weather")


@mcp.tool
async def forecast(city: str) -> str:
    return await fetch_forecast(city)
"""

API = """\
import httpx

API_URL = "https://api.example.com"


async def fetch_forecast(city: str) -> str:
    async with httpx.AsyncClient(base_url=API_URL) as client:
        response = await client.get("/forecast", params={"city": city})
    response.raise_for_status()
    return response.text
"""


def test_io_in_a_helper_of_another_module_is_named_with_its_place(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": PYPROJECT, "weather_mcp/__init__.py": "", "weather_mcp/server.py": SERVER, "weather_mcp/api.py": API})
    [finding] = lint_tree(tmp_path)
    assert finding.code == "MCP007" and finding.filename.endswith("server.py") and finding.location.row == 5
    assert "on fastmcp 2.x (from " in said(finding) and "pyproject.toml) a failure" in said(finding)
    assert _related(finding) == [("api.py", 8, "tool 'forecast' calls client.get in 'fetch_forecast' outside any try")]


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (".env", "WEATHER_API_KEY=abc\nFASTMCP_MASK_ERROR_DETAILS=true\n"),
        ("docker-compose.yml", "services:\n  weather:\n    environment:\n      FASTMCP_MASK_ERROR_DETAILS: \"true\"\n"),
        ("Dockerfile", "FROM python:3.12\nENV FASTMCP_MASK_ERROR_DETAILS=1\n"),
    ],
)
def test_the_environment_switch_in_a_project_file_masks(tmp_path: Path, name: str, text: str) -> None:
    write_tree(
        tmp_path,
        {"pyproject.toml": PYPROJECT, name: text, "weather_mcp/__init__.py": "", "weather_mcp/server.py": SERVER, "weather_mcp/api.py": API},
    )
    assert lint_tree(tmp_path) == []


def test_the_environment_switch_turned_off_does_not_mask(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": PYPROJECT,
            ".env": "FASTMCP_MASK_ERROR_DETAILS=false\n",
            "weather_mcp/__init__.py": "",
            "weather_mcp/server.py": SERVER,
            "weather_mcp/api.py": API,
        },
    )
    assert [f.code for f in lint_tree(tmp_path)] == ["MCP007"]


@pytest.mark.parametrize(
    "text",
    [
        "# FASTMCP_MASK_ERROR_DETAILS=true\n",  # commented out
        "FASTMCP_MASK_ERROR_DETAILS=true\nFASTMCP_MASK_ERROR_DETAILS=0\n",  # the last assignment wins
        "MY_FASTMCP_MASK_ERROR_DETAILS=true\nFASTMCP_MASK_ERROR_DETAILS_IN_LOGS=1\n",  # other variables
    ],
)
def test_lines_that_do_not_turn_the_switch_on_do_not_mask(tmp_path: Path, text: str) -> None:
    files = {"pyproject.toml": PYPROJECT, ".env": text, "weather_mcp/__init__.py": "", "weather_mcp/server.py": SERVER, "weather_mcp/api.py": API}
    write_tree(tmp_path, files)
    assert [f.code for f in lint_tree(tmp_path)] == ["MCP007"]


@pytest.mark.parametrize(("dependency", "codes"), [("fastmcp>=2.10,<3", []), ("fastmcp>=3", ["MCP007"])])
def test_an_explicit_false_against_the_environment_switch_follows_the_release(tmp_path: Path, dependency: str, codes: list[str]) -> None:
    # fastmcp 2.8-2.14 mask when the argument or the setting says so; 3.x/4.x take the argument.
    write_tree(
        tmp_path,
        {
            "pyproject.toml": PYPROJECT.replace("fastmcp>=2.10,<3", dependency),
            ".env": "FASTMCP_MASK_ERROR_DETAILS=true\n",
            "weather_mcp/__init__.py": "",
            "weather_mcp/server.py": SERVER.replace('FastMCP("weather")', 'FastMCP("weather", mask_error_details=False)'),
            "weather_mcp/api.py": API,
        },
    )
    assert [f.code for f in lint_tree(tmp_path)] == codes


def test_a_server_built_by_a_factory_of_another_module(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": PYPROJECT,
            "weather_mcp/__init__.py": "",
            "weather_mcp/app.py": """\
            from fastmcp import FastMCP


            def create_server() -> FastMCP:
                server = FastMCP("weather", instructions="Forecasts by city")
                return server
            """,
            "weather_mcp/tools.py": """\
            import httpx

            from weather_mcp.app import create_server

            mcp = create_server()


            @mcp.tool
            def forecast(city: str) -> str:
                return httpx.get("https://api.example.com/forecast", params={"city": city}).text
            """,
        },
    )
    [finding] = lint_tree(tmp_path)
    assert finding.filename.endswith("app.py") and finding.location.row == 5
    assert finding.message.startswith("Server 'server' forwards")
    assert [message for _, _, message in _related(finding)] == ["tool 'forecast' calls httpx.get outside any try"]


# -- selection: on by default, like MCP001-MCP009 ---------------------------------------------------

PLAIN_PYPROJECT = PYPROJECT.replace('\n[tool.mcp-lint]\nselect = ["MCP007"]\n', "")


def _cli_codes(root: Path, *options: str) -> tuple[int, list[tuple[str, str, int]]]:
    from click.testing import CliRunner

    from mcp_lint.cli import cli

    result = CliRunner().invoke(cli, ["check", str(root), "--no-cache", "--jobs", "1", "--output-format", "json", *options], catch_exceptions=False)
    return result.exit_code, [(f["code"], Path(f["filename"]).name, f["location"]["row"]) for f in json.loads(result.output)]


@pytest.fixture
def weather_project(tmp_path: Path) -> Path:
    write_tree(tmp_path, {"pyproject.toml": PLAIN_PYPROJECT, "weather_mcp/__init__.py": "", "weather_mcp/server.py": SERVER, "weather_mcp/api.py": API})
    return tmp_path


def test_the_default_run_of_the_cli_reports_it(weather_project: Path) -> None:
    assert _cli_codes(weather_project) == (1, [("MCP007", "server.py", 5)])
    assert _cli_codes(weather_project, "--select", "MCP0") == (1, [("MCP007", "server.py", 5)])
    assert _cli_codes(weather_project, "--select", "MCP00") == (1, [("MCP007", "server.py", 5)])
    assert _cli_codes(weather_project, "--select", "MCP") == (1, [("MCP007", "server.py", 5)])


@pytest.mark.parametrize(
    "options",
    [
        pytest.param(("--ignore", "MCP007"), id="ignore"),
        pytest.param(("--select", "MCP0", "--ignore", "MCP007"), id="prefix-select-exact-ignore"),
        pytest.param(("--ignore", "MCP00"), id="prefix-ignore"),
        pytest.param(("--select", "MCP001,MCP002,MCP003,MCP004,MCP005,MCP006,MCP008,MCP009"), id="not-selected"),
    ],
)
def test_ignored_or_not_selected_it_is_gone(weather_project: Path, options: tuple[str, ...]) -> None:
    assert _cli_codes(weather_project, *options) == (0, [])


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        pytest.param('select = ["MCP0"]', [("MCP007", "server.py", 5)], id="config-prefix-select"),
        pytest.param('ignore = ["MCP007"]', [], id="config-ignore"),
        pytest.param('[tool.mcp-lint.per-file-ignores]\n"weather_mcp/server.py" = ["MCP007"]', [], id="per-file-ignores"),
        pytest.param('[tool.mcp-lint.per-file-ignores]\n"weather_mcp/api.py" = ["MCP007"]', [("MCP007", "server.py", 5)], id="per-file-ignores-of-another-file"),
    ],
)
def test_configuration_selects_it_like_any_rule(weather_project: Path, table: str, expected: list) -> None:
    (weather_project / "pyproject.toml").write_text(PLAIN_PYPROJECT + "\n[tool.mcp-lint]\n" + table + "\n", encoding="utf-8")
    assert _cli_codes(weather_project) == (1 if expected else 0, expected)


@pytest.mark.parametrize(
    ("dependency", "text", "codes"),
    [
        ("fastmcp>=2.10,<2.14", "FASTMCP_SERVER_MASK_ERROR_DETAILS=true\n", []),  # 2.8-2.13 still read the old prefix
        ("fastmcp>=2.10,<2.14", "FASTMCP_MASK_ERROR_DETAILS=0\nFASTMCP_SERVER_MASK_ERROR_DETAILS=true\n", ["MCP007"]),  # FASTMCP_ first
        ("fastmcp>=2.14,<3", "FASTMCP_SERVER_MASK_ERROR_DETAILS=true\n", ["MCP007"]),  # 2.14 dropped it
        ("fastmcp>=3", "FASTMCP_SERVER_MASK_ERROR_DETAILS=true\n", ["MCP007"]),
    ],
)
def test_the_old_spelling_of_the_switch_masks_only_where_the_release_reads_it(tmp_path: Path, dependency: str, text: str, codes: list[str]) -> None:
    files = {"pyproject.toml": PYPROJECT.replace("fastmcp>=2.10,<3", dependency), ".env": text, "weather_mcp/__init__.py": "", "weather_mcp/server.py": SERVER, "weather_mcp/api.py": API}
    write_tree(tmp_path, files)
    assert [(f.code, f.location.row) for f in lint_tree(tmp_path)] == [(code, 5) for code in codes]
