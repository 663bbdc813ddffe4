"""Run the command line as a user does: from inside a project directory (a directory walk, so the
prefilter decides which files are read), through click's test runner."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner, Result

from mcp_lint.cli import cli


def invoke_in(root: Path, args: list[str], **options: object) -> Result:
    """`mcp-lint *args` run with `root` as the working directory, which is restored afterwards
    (other tests' relative paths must not move)."""
    cwd = os.getcwd()
    os.chdir(root)
    try:
        return CliRunner().invoke(cli, args, **options)
    finally:
        os.chdir(cwd)
