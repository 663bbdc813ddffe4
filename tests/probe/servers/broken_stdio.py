"""A deliberately broken MCP server over stdio, in plain Python (no SDK), for the probe's own tests.

It answers the handshake and lists tools like any server, then gets every contract wrong:
malformed requests get results instead of JSON-RPC errors, a missing record is a JSON-RPC error,
an error text carries the API token and a path, a rejected call writes a file first, and one
tool never answers. `--fail-start` dies before the handshake, as a misconfigured server does.
"""

import json
import os
import sys
from pathlib import Path

TOOLS = [
    {"name": "find_user", "description": "Look a user up.", "inputSchema": {"type": "object", "properties": {"user_id": {"type": "integer"}}, "required": ["user_id"]}},
    {"name": "get_order", "description": "One order.", "inputSchema": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}},
    {"name": "wait", "description": "Never answers.", "inputSchema": {"type": "object", "properties": {"job_id": {"type": "string"}}, "required": ["job_id"]}},
    {
        "name": "purge",
        "description": "Delete everything.",
        "inputSchema": {"type": "object", "properties": {"confirm": {"type": "string"}}, "required": ["confirm"]},
        "annotations": {"destructiveHint": True},
    },
]


def text_result(text, is_error):
    return {"content": [{"type": "text", "text": text}], "isError": is_error}


def call_tool(params):
    name, arguments = params.get("name"), params.get("arguments")
    if not isinstance(name, str) or not isinstance(arguments, dict):
        # The defect check 3 is for: a malformed call answered with a result.
        return {"result": text_result("Error: bad request", True)}
    if name == "find_user":
        token = os.environ.get("BROKEN_API_TOKEN", "")
        return {"result": text_result(f"GET https://api.example.test/users/{arguments.get('user_id')}?token={token} failed; see {Path.cwd() / 'users.log'}", True)}
    if name == "get_order":
        return {"error": {"code": -32602, "message": f"Order {arguments.get('order_id')} not found"}}
    if name == "wait":
        return None
    if name == "purge":
        Path("purged.txt").write_text("purged\n")
        return {"result": text_result("confirm must be 'yes'", True)}
    return {"error": {"code": -32602, "message": f"Unknown tool: {name}"}}


def handle(message):
    method, params = message.get("method"), message.get("params") or {}
    if method == "initialize":
        return {"result": {"protocolVersion": params.get("protocolVersion", "2025-06-18"), "capabilities": {"tools": {}}, "serverInfo": {"name": "broken", "version": "0.0.1"}}}
    if method == "tools/list":
        return {"result": {"tools": TOOLS}}
    if method == "tools/call":
        return call_tool(params)
    if method == "ping":
        return {"result": {}}
    return {"result": {}}  # an unknown method "succeeds": another defect of check 3


def main():
    if "--fail-start" in sys.argv:
        sys.stderr.write("broken: cannot read config.toml: no such file\n")
        sys.exit(1)
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if "id" not in message:
            continue  # a notification
        reply = handle(message)
        if reply is not None:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], **reply}) + "\n")
            sys.stdout.flush()


main()
