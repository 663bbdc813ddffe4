from mcp_lint.cli import entry

if __name__ == "__main__":
    entry()
