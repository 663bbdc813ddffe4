"""`json-lines`: one finding per line, each the object the `json` format writes (ruff's shape),
so a consumer can stream the report and `grep` or `jq -c` it line by line."""

from __future__ import annotations

import json
from typing import Sequence, TextIO

from mcp_lint.findings import Finding
from mcp_lint.output import ReportOptions
from mcp_lint.output.json import finding_object


def write(findings: Sequence[Finding], out: TextIO, options: ReportOptions) -> None:
    for finding in findings:
        out.write(json.dumps(finding_object(finding), ensure_ascii=False) + "\n")
