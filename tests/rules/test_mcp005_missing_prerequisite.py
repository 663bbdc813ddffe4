"""MCP005 on a call refused because one argument came without the one it depends on, worded as
a prerequisite and then a request for the missing argument ("A task requires a project. Please
specify project_name."): the request stands in the second sentence, where the argument-request
class (matched at the start) does not look. In a low-level dispatcher's TextContent and in a
FastMCP tool's string, in English and in another language. The same words describing a success
("... requires a restart to take effect") are no failure."""

from __future__ import annotations

from ._support import check


def test_a_prerequisite_then_a_request_in_a_low_level_dispatcher_is_a_failure() -> None:
    check(
        """\
from mcp.server import Server
from mcp.types import TextContent

server = Server("timesheet")
PROJECTS = {"alpha": "p1"}


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[TextContent]:
    if name == "log_hours":
        project = arguments.get("project")
        task = arguments.get("task")
        project_id = PROJECTS.get(project) if project else None
        if task and not project_id:
            return [  # expect: MCP005
                TextContent(type="text", text="A task requires a project. Please specify project."),
            ]
        return [TextContent(type="text", text=f"Logged {arguments['hours']} hours")]
    raise ValueError(f"Unknown tool: {name}")
"""
    )


def test_the_same_refusal_in_another_language_and_names_is_a_failure() -> None:
    check(
        """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("horas")
PROJETOS = {"alfa": "p1"}


@mcp.tool()
def lancar_horas(horas: float, tarefa: str = "", projeto: str = "") -> str:
    \"\"\"Lança horas numa tarefa.\"\"\"
    if tarefa and projeto not in PROJETOS:
        return "A tarefa requer um projeto. Informe o parâmetro projeto."  # expect: MCP005
    return f"{horas} horas lançadas"
"""
    )


def test_a_prerequisite_described_in_a_success_is_no_failure() -> None:
    check(
        """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("settings")
SETTINGS: dict[str, str] = {}


@mcp.tool()
def set_mode(mode: str) -> str:
    \"\"\"Set the engine mode.\"\"\"
    SETTINGS["mode"] = mode
    if mode == "fast":
        return "Fast mode requires a restart to take effect. Saved."
    return "Saved."
"""
    )
