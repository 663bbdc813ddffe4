

def test_parse_of_a_local_taken_from_a_parameter_is_the_models_input() -> None:
    # `pattern = filters[name]` / `raw = arguments.get("when")`: still what the model sent.
    check(
        """\
        import json
        import re

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("catalog")


        @mcp.tool()
        async def filter_values(names: list[str], filters: dict[str, str]) -> dict:
            result = {}
            for name in names:
                values = await fetch_values(name)
                if name in filters:
                    pattern = filters[name]
                    try:
                        compiled = re.compile(pattern)
                        values = [v for v in values if compiled.search(v)]
                    except re.error as e:
                        return {"message": f"Invalid pattern for {name}: {e}"}
                result[name] = values
            return result


        @mcp.tool()
        def schedule(arguments: dict) -> str:
            raw = arguments.get("options")
            try:
                options = json.loads(raw)
            except json.JSONDecodeError as e:
                return f"options is not valid JSON: {e}"
            return f"scheduled with {len(options)} options"
        """
    )


def test_parse_of_a_fetched_local_stays_flagged() -> None:
    check(
        """\
        import json

        import httpx
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("catalog")


        @mcp.tool()
        def load_settings(url: str) -> str:
            raw = httpx.get(url).text
            try:
                settings = json.loads(raw)
            except json.JSONDecodeError as e:
                return f"settings are not valid JSON: {e}"  # expect: MCP002, MCP005
            return f"{len(settings)} settings"
        """
    )
