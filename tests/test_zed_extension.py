"""The Zed extension in editors/zed/ (Zed starts only language servers an extension registers):
its manifest has the fields Zed's extension manifest requires, registers the server for Python
under the name its Rust code reads the `lsp.<name>` settings of, and starts the `server`
subcommand `mcp-lint` has. (Building it needs Rust's wasm target and crates.io: not done here.)"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from click.testing import CliRunner

from mcp_lint.cli import cli

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

EXTENSION = Path(__file__).resolve().parents[1] / "editors" / "zed"


def test_the_manifest_registers_the_server_for_python() -> None:
    manifest = tomllib.loads((EXTENSION / "extension.toml").read_text(encoding="utf-8"))
    assert {"id", "name", "version", "schema_version"} <= manifest.keys()
    assert manifest["schema_version"] == 1
    [(name, server)] = manifest["language_servers"].items()
    assert server["languages"] == ["Python"]
    source = (EXTENSION / "src" / "lib.rs").read_text(encoding="utf-8")
    # The settings are looked up under the registered name (`lsp.mcp-lint` in settings.json).
    assert re.search(rf'const SERVER: &str = "{re.escape(name)}";', source)
    assert "zed::register_extension!(" in source


def test_the_crate_builds_a_webassembly_library_with_zeds_api() -> None:
    cargo = tomllib.loads((EXTENSION / "Cargo.toml").read_text(encoding="utf-8"))
    assert cargo["lib"]["crate-type"] == ["cdylib"]
    assert "zed_extension_api" in cargo["dependencies"]
    assert (EXTENSION / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_the_default_command_is_a_subcommand_mcp_lint_has() -> None:
    source = (EXTENSION / "src" / "lib.rs").read_text(encoding="utf-8")
    [argument] = re.findall(r'vec!\["(\w+)"\.to_string\(\)\]', source)
    result = CliRunner().invoke(cli, [argument, "--help"])
    assert result.exit_code == 0, result.output
