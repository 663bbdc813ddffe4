"""A stdio server that otherwise works but print()s a banner to stdout, the MCP channel, first."""

import json
import sys

print("Server ready, listening on stdio " + "=" * 200)
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue  # a notification
    if message["method"] == "initialize":
        result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}}, "serverInfo": {"name": "banner", "version": "1"}}
    elif message["method"] == "tools/list":
        result = {"tools": [{"name": "echo", "inputSchema": {"type": "object", "properties": {}}}]}
    elif message["method"] == "tools/call":
        result = {"content": [{"type": "text", "text": "ok"}], "isError": False}
    else:
        result = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n")
    sys.stdout.flush()
