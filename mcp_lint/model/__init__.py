"""The server model: which functions are MCP tools, of which server, on which framework."""
