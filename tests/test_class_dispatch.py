"""Class-hierarchy dispatch: a method called on an object typed by a project base class runs the
override of whichever project subclass the object is, so every override is on the tools' path.

The shape: a registry of handler objects (`HANDLERS = {"forecast": ForecastHandler(), ...}`), a
lookup typed by the base class, and `handler.run_tool(args)`, each subclass overriding `run_tool`.
"""

from __future__ import annotations

import re
from pathlib import Path


from cli_support import invoke_in
from mcp_lint.config import SettingsResolver
from mcp_lint.discovery import discover
from mcp_lint.pins import PinSource
from mcp_lint.pipeline import analyze_all
from mcp_lint.project_links import Project

BASE = """\
class Handler:
    name = ""

    def run_tool(self, args: dict) -> str:
        raise NotImplementedError

    def describe(self) -> str:
        return self.summary()

    def summary(self) -> str:
        return self.name
"""

FORECAST = """\
import httpx

from app.base import Handler


class ForecastHandler(Handler):
    name = "forecast"

    def run_tool(self, args: dict) -> str:
        try:
            return httpx.get("https://weather.invalid/" + args["city"]).text
        except httpx.HTTPError as e:
            return f"Error: {e}"
"""

TIDES = """\
import httpx

from app.base import Handler


class TidesHandler(Handler):
    name = "tides"

    def run_tool(self, args: dict) -> str:
        return "tides"

    def summary(self) -> str:
        try:
            return httpx.get("https://tides.invalid/").text
        except httpx.HTTPError as e:
            return f"Error: {e}"
"""

SERVER = """\
from mcp.server.lowlevel import Server
from mcp.types import TextContent

from app.base import Handler
from app.forecast import ForecastHandler
from app.tides import TidesHandler

server = Server("weather")
HANDLERS: dict[str, Handler] = {"forecast": ForecastHandler(), "tides": TidesHandler()}


def get_handler(name: str) -> Handler:
    return HANDLERS[name]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[TextContent]:
    handler = get_handler(name)
    result = handler.run_tool(arguments)
    return [TextContent(type="text", text=result)]
"""


def _tree(root: Path, server: str = SERVER) -> Path:
    files = {"app/__init__.py": "", "app/base.py": BASE, "app/forecast.py": FORECAST, "app/tides.py": TIDES, "app/server.py": server}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _check(root: Path) -> list[str]:
    """`mcp-lint check .` in `root` (a directory walk: the prefilter picks the files), as
    `file:row: code` lines."""
    result = invoke_in(root, ["check", "--no-cache", "--isolated", "--output-format", "concise", "-q", "."])
    return sorted(f"{line.split(':')[0]}:{line.split(':')[1]}: {line.split(' ')[1]}" for line in result.output.splitlines() if line.strip())


def test_each_subclass_override_of_a_method_called_on_the_base_type_is_on_the_tools_path(tmp_path: Path) -> None:
    found = _check(_tree(tmp_path))
    # ForecastHandler.run_tool returns the caught httpx error's text to the model, as a normal result.
    assert "app/forecast.py:13: MCP002" in found
    assert "app/forecast.py:13: MCP005" in found


def test_the_prefilter_analyses_the_modules_defining_the_subclasses(tmp_path: Path) -> None:
    # The subclasses' modules are neither seeds nor named by any call the tools make: only the
    # dispatch on the base class asks for them. The walk must give what a whole analysis gives.
    root = _tree(tmp_path)
    whole = [o.summary for o in analyze_all(discover([root], SettingsResolver(isolated=True)), 1) if o.summary is not None]
    expected = {(Path(f.filename).name, f.location.row, f.code) for f in Project(whole, PinSource(SettingsResolver(isolated=True))).findings()}
    assert ("forecast.py", 13, "MCP002") in expected
    assert {(Path(line.split(":")[0]).name, int(line.split(":")[1]), line.split(" ")[1]) for line in _check(root)} == expected


def test_a_subclass_of_a_base_named_through_its_module_is_analysed(tmp_path: Path) -> None:
    # `from app import base` / `class ForecastHandler(base.Handler)`: the import names the
    # module, not the class; the prefilter still reads the module defining the subclass.
    root = _tree(tmp_path)
    forecast = (root / "app/forecast.py").read_text()
    forecast = forecast.replace("from app.base import Handler", "from app import base").replace("(Handler)", "(base.Handler)")
    (root / "app/forecast.py").write_text(forecast)
    assert "app/forecast.py:13: MCP002" in _check(root)


def test_a_call_on_self_inside_the_hierarchy_runs_the_overrides_of_the_subclasses_inheriting_the_caller(tmp_path: Path) -> None:
    # Handler.describe calls self.summary(): a TidesHandler in the table runs the inherited
    # describe, and then its own summary (a leak), so that override is on the tool's path.
    server = SERVER.replace("result = handler.run_tool(arguments)", "result = handler.describe()")
    found = _check(_tree(tmp_path, server))
    assert "app/tides.py:16: MCP002" in found
    assert not [line for line in found if line.startswith("app/forecast.py")]  # run_tool is not called


def test_a_subclass_with_its_own_caller_does_not_run_the_inherited_self_call(tmp_path: Path) -> None:
    # TidesHandler defines its own describe, which never calls summary: Handler.describe's
    # self.summary() runs for Handler objects and the subclasses inheriting describe only.
    server = SERVER.replace("result = handler.run_tool(arguments)", "result = handler.describe()")
    root = _tree(tmp_path, server)
    tides = (root / "app/tides.py").read_text().replace(
        '    def run_tool(self, args: dict) -> str:\n        return "tides"',
        '    def run_tool(self, args: dict) -> str:\n        return "tides"\n\n    def describe(self) -> str:\n        return "tide tables"',
    )
    (root / "app/tides.py").write_text(tides)
    found = _check(root)
    assert not [line for line in found if line.startswith("app/tides.py")]


def test_the_overrides_are_reached_from_the_dispatching_tool_and_nothing_else_of_the_subclasses(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    summaries = [o.summary for o in analyze_all(discover([root], SettingsResolver(isolated=True)), 1) if o.summary is not None]
    project = Project(summaries, PinSource(SettingsResolver(isolated=True)))
    reached = project.trace_tools()
    assert {"app.forecast.ForecastHandler.run_tool", "app.tides.TidesHandler.run_tool"} <= set(reached)
    assert reached["app.forecast.ForecastHandler.run_tool"].tools == {"call_tool"}
    assert "app.tides.TidesHandler.summary" not in reached


def test_a_subclass_of_a_base_the_package_re_exports_under_another_name_is_analysed(tmp_path: Path) -> None:
    # `app/__init__.py` re-exports the base as `BaseHandler`; forecast.py imports neither the
    # name `Handler` nor the module `base`, only the package that imports it.
    root = _tree(tmp_path)
    (root / "app/__init__.py").write_text("from app.base import Handler as BaseHandler\n")
    forecast = (root / "app/forecast.py").read_text()
    forecast = forecast.replace("from app.base import Handler", "from app import BaseHandler").replace("(Handler)", "(BaseHandler)")
    (root / "app/forecast.py").write_text(forecast)
    assert "app/forecast.py:13: MCP002" in _check(root)


def _analysed(root: Path) -> list[str]:
    files = discover([root], SettingsResolver(isolated=True))
    return sorted(Path(o.display).relative_to(root).as_posix() for o in analyze_all(files, 1, explicit=[]) if o.summary is not None)


def test_a_module_of_another_package_spelling_the_base_modules_name_is_not_analysed(tmp_path: Path) -> None:
    # `tools/widgets.py` imports a module that is also called `base`, and defines a class with
    # a `run_tool` of the same name; nothing of the server's imports it, so it cannot subclass
    # `app.base.Handler` and nothing reaches it.
    root = _tree(tmp_path)
    (root / "tools").mkdir()
    (root / "tools/widgets.py").write_text(
        "import httpx\n\nfrom lib import base\n\n\nclass Widget(base.Handler):\n"
        "    def run_tool(self, args: dict) -> str:\n        try:\n            return httpx.get('https://w.invalid/').text\n"
        "        except httpx.HTTPError as e:\n            return f'Error: {e}'\n"
    )
    assert "tools/widgets.py" not in _analysed(root)
    assert {"app/forecast.py", "app/tides.py"} <= set(_analysed(root))
    assert not [line for line in _check(root) if line.startswith("tools/")]


def test_a_module_importing_the_base_module_without_naming_the_class_is_not_analysed(tmp_path: Path) -> None:
    # `app/report.py` imports a helper from `app/base.py` (and `app/cli.py` imports report.py),
    # but neither names `Handler`: they cannot subclass it, and no tool reaches them.
    root = _tree(tmp_path)
    (root / "app/base.py").write_text(BASE + "\n\ndef banner() -> str:\n    return 'weather'\n")
    (root / "app/report.py").write_text(
        "import httpx\n\nfrom app.base import banner\n\n\nclass Report:\n    def run_tool(self, args: dict) -> str:\n"
        "        try:\n            return httpx.get('https://r.invalid/').text\n        except httpx.HTTPError as e:\n"
        "            return f'Error: {e} {banner()}'\n"
    )
    (root / "app/cli.py").write_text("from app.report import Report\n\n\ndef main() -> None:\n    print(Report().run_tool({}))\n")
    analysed = _analysed(root)
    assert "app/report.py" not in analysed and "app/cli.py" not in analysed
    assert {"app/forecast.py", "app/tides.py"} <= set(analysed)
    assert not [line for line in _check(root) if line.startswith(("app/report.py", "app/cli.py"))]


def test_a_subclass_of_the_base_renamed_two_modules_away_is_analysed(tmp_path: Path) -> None:
    # Only `app/kinds.py` names `Handler` (importing it under another name); `app/plugins.py`
    # re-exports that name, and forecast.py subclasses it without ever spelling `Handler`.
    root = _tree(tmp_path)
    (root / "app/kinds.py").write_text("from app.base import Handler as Kind\n")
    (root / "app/plugins.py").write_text("from app.kinds import Kind as PluginBase\n")
    forecast = (root / "app/forecast.py").read_text()
    forecast = forecast.replace("from app.base import Handler", "from app.plugins import PluginBase").replace("(Handler)", "(PluginBase)")
    (root / "app/forecast.py").write_text(forecast)
    assert not re.search(r"\bHandler\b", forecast)
    assert "app/forecast.py" in _analysed(root)
    assert "app/forecast.py:13: MCP002" in _check(root)
