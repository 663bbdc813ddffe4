"""MCP002: a library function named for parsing or validating its input (the vocabulary's
INPUT_PARSER_NAME: `parse`, `Parse`, `from_json`, `validate_...`), applied to the tool's own
argument, fails with text about what the model sent; so does a validator's class caught around
calls that take only the function's parameters. Anything else in the `try` that may raise the
caught class, a value the tool did not receive, or the project's own function keeps it foreign."""

from __future__ import annotations

from ._support import check

HELPER = """\
import querykit
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("reports")


class Refused(Exception):
    pass


def read_only(sql: str) -> None:
    try:
        tree = querykit.parse(sql)
        BODY
    except Exception as exc:
        raise Refused(f"could not parse the query: {exc}") from exc  MARK
    if tree.kind != "select":
        raise Refused("only SELECT statements run here")


@mcp.tool
def run_query(sql: str) -> str:
    try:
        read_only(SQL)
    except Refused as exc:
        raise ToolError(str(exc)) from exc
    return "ok"
"""


def test_a_named_library_parser_of_the_tools_argument_is_not_reported() -> None:
    check(HELPER.replace("BODY", "pass").replace("MARK", "").replace("SQL", "sql"))


def test_another_library_call_in_the_try_keeps_it_foreign() -> None:
    body = "querykit.connect().explain(sql)"
    check(HELPER.replace("BODY", body).replace("MARK", "# expect: MCP002").replace("SQL", "sql"))


def test_a_value_the_tool_did_not_receive_keeps_it_foreign() -> None:
    source = HELPER.replace("BODY", "pass").replace("MARK", "# expect: MCP002").replace("SQL", 'open("/etc/reports/default.sql").read()')
    check(source.replace("@mcp.tool\ndef run_query(sql: str)", "@mcp.tool\ndef run_query()"))


def test_a_parse_error_class_caught_in_the_tool_is_not_reported() -> None:
    check(
        """\
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        from protokit import codec

        from reports import messages

        mcp = FastMCP("reports")


        @mcp.tool
        def save_profile(profile_json: str) -> str:
            message = messages.Profile()
            try:
                codec.Parse(profile_json, message)
            except codec.ParseError as err:
                raise ToolError(f"Invalid profile: {err}") from None
            return "saved"
        """
    )


def test_the_projects_own_function_named_parse_is_not_a_library_parser() -> None:
    check(
        """\
        from fastmcp import FastMCP

        mcp = FastMCP("reports")


        def parse(path: str) -> dict:
            with open(path) as handle:
                return {"lines": handle.read().splitlines()}


        @mcp.tool
        def load_report(path: str) -> str:
            try:
                return str(parse(path))
            except Exception as err:
                return f"Could not read the report: {err}"  # expect: MCP002, MCP005
        """
    )


VALIDATING_WRAPPER = """\
from typing import Any

import reportkit
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from pydantic import BaseModel, ValidationError

mcp = FastMCP("reports")
client = reportkit.Client()


class DailyArgs(BaseModel):
    name: str


class WeeklyArgs(BaseModel):
    name: str
    weeks: int = 1


MODELS = {"daily": DailyArgs, "weekly": WeeklyArgs}


@mcp.tool
def report(kind: str, params: dict[str, Any]) -> dict[str, Any]:
    input_model = MODELS[kind]
    try:
        args = input_model(**params)
        EXTRA
    except ValidationError as e:
        raise ToolError(f"Invalid arguments: {e}") from e  MARK
    return {"name": args.name}
"""


def test_a_validators_error_around_the_wrappers_own_arguments_is_not_reported() -> None:
    check(VALIDATING_WRAPPER.replace("EXTRA", "pass").replace("MARK", ""))


def test_a_validators_error_beside_a_call_of_other_data_is_reported() -> None:
    source = VALIDATING_WRAPPER.replace("EXTRA", "client.reports.create(args)").replace("MARK", "# expect: MCP002")
    check(source)


CAMEL = """\
from typing import Any

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from wireformat import json_format
from wireformat.json_format import ParseError

from .messages import Profile

mcp = FastMCP("devices")


def _to_message(data: dict[str, Any], what: str, message: Any) -> Any:
    try:
        return json_format.ParseDict(data, message)
    except ParseError as err:
        raise ToolError(f"Invalid {what}: {err}") from None  MARK


@mcp.tool()
def create_profile(fields: dict[str, Any]) -> str:
    profile = _to_message(FIELDS, "profile fields", Profile())
    return profile.id
"""


def test_a_camel_case_parser_of_the_tools_argument_forwarded_from_none_is_not_reported() -> None:
    # A generated message class's `ParseDict` names the field of the model's own JSON that is wrong.
    check(CAMEL.replace("MARK", "").replace("FIELDS", "fields"))


def test_a_camel_case_parser_of_a_fetched_value_stays_foreign() -> None:
    source = CAMEL.replace("MARK", "# expect: MCP002").replace("FIELDS", "json_format.MessageToDict(Profile.Fetch())")
    check(source.replace("def create_profile(fields: dict[str, Any])", "def create_profile()"))
