"""MCP005 and status tools: a validator's "invalid" verdict about what it was asked to check is
its answer; a complaint about the call's own arguments is still a failure of the call."""

from __future__ import annotations

from ._support import check

HEADER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("recipes")
"""


def test_a_validators_verdict_is_its_answer() -> None:
    check(
        HEADER
        + """

@mcp.tool()
def validate_recipe(recipe: str) -> str:
    verdict = RECIPE_CHECKER.check(recipe)
    if verdict["valid"]:
        return "Valid recipe."
    return f"Invalid recipe: {verdict['reason']}"
"""
    )


def test_a_validator_complaining_about_an_argument_it_was_not_given_fails_the_call() -> None:
    check(
        HEADER
        + """

@mcp.tool()
def validate_recipe(recipe: str) -> str:
    if not recipe.strip():
        return "Invalid recipe: the recipe text must not be empty"  # expect: MCP005
    verdict = RECIPE_CHECKER.check(recipe)
    return "Valid recipe." if verdict["valid"] else f"Not valid: {verdict['reason']}"
"""
    )
