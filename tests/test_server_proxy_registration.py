"""A server handed through a project function that wraps it (a proxy that filters or decorates the
registrations, `server = restrict(server)`) is still the server its register functions receive."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_cross_module import APP_V1, REGISTER, findings

# A proxy class answering `tool` itself and passing other attributes on to the wrapped server.
PROXY = """\
class Gate:
    def __init__(self, inner, hidden):
        self._inner = inner
        self._hidden = hidden

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def tool(self, *args, **kwargs):
        register = self._inner.tool(*args, **kwargs)

        def decorator(fn):
            if fn.__name__ in self._hidden:
                return fn
            return register(fn)

        return decorator


def gated(inner, hidden=()):
    return Gate(inner, frozenset(hidden))


def configured(inner):
    inner.settings = {}
    return inner
"""


def _wiring(rebind: str) -> str:
    return f"from .registry import register_tools\nfrom .proxy import gated, configured, Gate\n\ndef register_all(server):\n    {rebind}\n    register_tools(server, None)\n"


@pytest.mark.parametrize(
    "rebind",
    ["server = gated(server)", "server = gated(server, hidden=['other'])", "server = configured(server)"],
    ids=["factory", "factory-keyword", "returns-its-argument"],
)
def test_tools_registered_on_a_proxy_of_the_server_are_its_tools(tmp_path: Path, rebind: str) -> None:
    files = {
        "app.py": APP_V1,
        "proxy.py": PROXY,
        "registry.py": REGISTER,
        "wiring.py": _wiring(rebind),
        "main.py": "from .app import mcp\nfrom .wiring import register_all\n\nregister_all(mcp)\n",
    }
    assert findings(tmp_path, files) == [("registry.py", "t")]


def test_a_project_object_built_from_the_server_without_a_tool_method_is_no_server(tmp_path: Path) -> None:
    # `Recorder` keeps the server but neither answers `tool` nor passes attributes on.
    proxy = "class Recorder:\n    def __init__(self, inner):\n        self.inner = inner\n\n    def tool(self):\n        return None\n"
    files = {
        "app.py": APP_V1,
        "proxy.py": proxy.replace("    def tool(self):\n        return None\n", "    def names(self):\n        return []\n")
        + "\n\ndef recorded(inner):\n    return Recorder(inner)\n",
        "registry.py": REGISTER,
        "wiring.py": "from .registry import register_tools\nfrom .proxy import recorded\n\ndef register_all(server):\n    server = recorded(server)\n    register_tools(server, None)\n",
        "main.py": "from .app import mcp\nfrom .wiring import register_all\n\nregister_all(mcp)\n",
    }
    assert findings(tmp_path, files) == []


def test_a_proxy_of_something_that_is_no_server_registers_nothing(tmp_path: Path) -> None:
    files = {
        "proxy.py": PROXY,
        "registry.py": REGISTER,
        "wiring.py": _wiring("server = gated(server)"),
        "main.py": "from .wiring import register_all\n\nregister_all(make_registry())\n",
    }
    assert findings(tmp_path, files) == []
