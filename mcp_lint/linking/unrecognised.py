"""Modules that register tools mcp-lint could not tie to an MCP server: what a run left unchecked.

Rules report only in code a tool reaches, so a registration the link step drops checks nothing,
and a run that dropped a registration must say so rather than pass (the project brief: "a run
never passes silently"). A module is named here, with the tools dropped, when it registers tools
the link step did not recognise (all of its tools, or some beside recognised ones) in a way that
looks like MCP:

- on a server made by a class named like a framework's server class but imported from a module
  outside the project and the frameworks (a library's re-export), which the project's declared
  requirements do not let mcp-lint take for the framework's (Project.server_family);
- on an object mcp-lint cannot tie to a server (made by a call it cannot follow), in a project
  that declares an MCP framework;
- on a parameter of a register function (`def register(app): @app.tool()`) to which no caller
  the run reads hands a server, in a module or project that names an MCP framework.

A registration on an object known to be something else (`agent = Agent(...)`: a library class
of another name) is not MCP and is never named here.

A server with no tool at all is named too (empty_servers): whatever registers its tools (a
loader, a registrar, a reflection loop) was not read as a registration, so nothing on it was
checked. Not a server that takes other servers in (`main.mount(sub)`: their tools are its
tools), nor one of a project whose other tools are on servers mcp-lint could not name (tools
registered on a parameter annotated with the server class), nor one in a test module, nor a
function that makes a server or a subclass of a server class in a project that has tools elsewhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_lint.inventory import ServerTools
from mcp_lint.model.frameworks import NON_TOOL_ATTRS, Family, distribution_for, reexported_server_families
from mcp_lint.model.names import last_name

if TYPE_CHECKING:
    from mcp_lint.model.summary import ModuleSummary
    from mcp_lint.project_links import Project

__all__ = ["empty_servers", "unrecognised_servers"]


def unrecognised_servers(project: Project, found: list[ServerTools] | None = None) -> list[ServerTools]:
    """One entry per module with a tool registration that was dropped, with why (sorted by path):
    a module whose other tools were recognised is named too, with only the dropped ones; and,
    given what the link step found (`found`: Project.inventory()), one per server left empty."""
    registering = {summary.path for _, summary in project.tool_registrations()}
    out: list[ServerTools] = []
    for summary in project.summaries:
        if not project.registers_here(summary):
            continue
        tools, why = _dropped(project, summary)
        if why:
            partial = summary.path in registering
            out.append(ServerTools("", summary.path, Family.UNKNOWN, "", "", tuple(sorted(set(tools))), unrecognised=why, partial=partial))
    if found is not None:
        out.extend(empty_servers(project, found))
    return sorted(out, key=lambda entry: entry.path)


EMPTY_REASON = (
    "no tool is registered on it in a way mcp-lint follows (a loader, a registrar or a loop it does not "
    "read), so none of its tools was checked"
)


def empty_servers(project: Project, found: list[ServerTools]) -> list[ServerTools]:
    """The servers the link step found with no tool, in a project whose tools are not all
    elsewhere: each an unchecked entry (`server` set, no tools)."""
    if any(entry.tools and not entry.server for entry in found):
        return []  # tools on a server mcp-lint could not name: any empty one may be theirs
    from mcp_lint.project_links import is_test_module

    composing = _composing(project)
    # A function that makes a server (`def run_server(): ...; return mcp`, a module `__getattr__`
    # handing out the module's server) names the server it returns, and a project subclass of a
    # server class (`class _Server(MCPServer)`) the servers made from it: those hold the tools
    # when any other server does, so these are named only in a project with no tool at all.
    some_tools = any(entry.tools for entry in found)
    return [
        ServerTools(entry.server, entry.path, entry.family, entry.specifier, entry.source, (), unrecognised=EMPTY_REASON)
        for entry in found
        if entry.server and not entry.tools and not entry.unrecognised
        and not is_test_module(entry.path) and entry.server not in composing
        and not (some_tools and (entry.server in project.functions or project.is_project_class(entry.server)))
    ]


def _composing(project: Project) -> set[str]:
    """The servers a call hands another server to (`main.mount(sub)`, `main.import_server(sub)`)."""
    out: set[str] = set()
    for summary in project.summaries:
        for callee, _, _, server, _ in summary.server_arguments:
            owner, _, method = callee.rpartition(".")
            # `mcp.add_tool(tool)` hands it a tool (an object whose class decides), not a server.
            if server and owner and method not in _REGISTERING:
                out.add(project.resolve(owner))
    return out


_REGISTERING = frozenset({"add_tool", "tool", "add_middleware"}) | NON_TOOL_ATTRS


def _dropped(project: Project, summary: ModuleSummary) -> tuple[list[str], str]:
    """The tools of `summary` registered in a way that looks like MCP, and the first reason found."""
    declares = _declares_framework(project, summary.path)
    tools: list[str] = []
    reasons: list[str] = []
    for _, server, tool_name in summary.pending:
        if not server or project.server_family(server, summary.path) is not None:
            continue
        reexported = project.reexported_class(server)
        if reexported:
            tools.append(tool_name)
            reasons.append(_reexport_reason(project, summary.path, reexported))
        elif declares:
            tools.append(tool_name)
            made_by = project.made_by(project.resolve(server))
            reasons.append(f"its tools are registered on {made_by or server}, which mcp-lint cannot tie to an MCP server")
    if declares or summary.mentions_framework:
        for _, register, param, tool_name in summary.param_pending:
            if not project.servers_passed(register, param):
                tools.append(tool_name)
                reasons.append(
                    f"its tools are registered on parameter `{param}` of {last_name(register)}(), to which no caller "
                    "mcp-lint read hands a server it recognises"
                )
    return tools, reasons[0] if reasons else ""


def _reexport_reason(project: Project, path: str, reexported: str) -> str:
    module, _, name = reexported.rpartition(".")
    dists = sorted({distribution_for(family) for family in reexported_server_families(reexported)})
    wanted = " or ".join(dists)
    return (
        f"{name} comes from {module}, which mcp-lint cannot resolve; it takes that class for the framework's "
        f"only when the project's requirements name {wanted}, and {_found_requirements(project, path, dists)}"
    )


def _found_requirements(project: Project, path: str, dists: list[str]) -> str:
    """What the requirements read for `path` say of the frameworks, for the reason's end."""
    found = [f"{dist}{pin[0]}" for dist in ("fastmcp", "mcp") if (pin := project.pins(path, dist)) is not None]
    if not found:
        return "none was found (pyproject.toml, setup.py, setup.cfg, requirements files, PKG-INFO or METADATA)"
    return f"they name {' and '.join(found)}, no release of which has that class"


def _declares_framework(project: Project, path: str) -> bool:
    return any(project.pins(path, dist) is not None for dist in ("mcp", "fastmcp", "fastmcp-slim"))
