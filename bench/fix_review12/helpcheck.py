#!/usr/bin/env python3
"""helpcheck.py SAMPLE_JSON: does each sampled finding's `help` show the edit its fix applies?

For every finding of a sampled statement: the call the help quotes (`Raise X(...)`, `raise X(...)`,
`X(...) from e`; a help may cut a long argument with `...`/`…`) must appear in the fix's edit
contents (whitespace-normalised, the cut part matched as a prefix). A help that quotes no call is
reported as "generic" (it names no edit), one whose quote is not in the edits as "differs"."""
import json
import re
import sys

rows = json.load(open(sys.argv[1]))["sample"]
CALL = re.compile(r"(?:[Rr]aise\s+)?([A-Za-z_][\w.]*\((?:.|\n)*\))(?:\s+from\s+\w+)?(?:\s+instead)?\s*$")


def norm(text: str) -> str:
    return re.sub(r"\s+", "", text)


def matches(quote: str, edits: str) -> bool:
    q = norm(quote)
    for cut in ("...)", "…)", "...", "…"):
        if cut in q:
            head = q.split(cut)[0]
            return head in edits
    return q in edits


for i, row in enumerate(rows, 1):
    for code, help_text, edits in zip(row["codes"] * len(row["help"]), row["help"], row["edits"]):
        joined = norm("".join(e["content"] for e in edits))
        m = CALL.search(help_text or "")
        if not m:
            status = "generic"
        elif matches(m.group(1), joined):
            status = "equal"
        else:
            status = "differs"
        print(f"#{i}\t{row['package']}\t{row['file']}:{row['line']}\t{status}\t{help_text}")
