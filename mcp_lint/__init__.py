"""mcp-lint: a static analyzer for the error channels of Python MCP servers."""

__version__ = "0.1.0"
