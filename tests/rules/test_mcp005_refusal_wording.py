"""MCP005 on refusals worded without a failure word: the author's cross mark, "refusing to",
"nothing to do", a declined confirmation, a request for the missing argument (in the languages of
the vocabulary), and the look-alikes that stay silent: a check mark with a caveat, an information
mark, a no-op that reached its goal, a success that names a cancellation.

Each source marks the lines where a finding is expected with `# expect: MCPnnn`."""

from __future__ import annotations

import textwrap

import pytest

from mcp_lint.rules.text import is_failure_text

from ._support import check

HEADER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("roster")
"""


def _src(body: str) -> str:
    return HEADER + "\n" + textwrap.dedent(body)


def test_refusals_returned_in_a_branch_are_reported() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            def remove_members(group_id: int, member_ids: list[int], role: str = "") -> str:
                if not member_ids and not role:
                    return "❌ Pass member_ids or a role — refusing to empty the group."  # expect: MCP005
                if group_id in member_ids:
                    return "Group and member are the same — nothing to do."  # expect: MCP005
                missing = [m for m in member_ids if m not in roster(group_id)]
                if missing:
                    return f"❌ Member {missing[0]} is not in group {group_id} — no change made."  # expect: MCP005
                done = drop(group_id, member_ids)
                if not done:
                    return "❌ Removed nobody."  # expect: MCP005
                return f"Removed {len(done)} members."


            @mcp.tool()
            def tag_members(member_ids: list[int]) -> str:
                if not member_ids:
                    return "No member_ids provided — nothing to tag."  # expect: MCP005
                return tag(member_ids)


            @mcp.tool()
            def confirm_login(code: str) -> str:
                answer = ask_user(code)
                if answer == "decline":
                    return "Login confirmation declined. Call confirm_login again later."  # expect: MCP005
                return "Logged in."
            """
        )
    )


def test_looks_alike_of_refusals_stay_silent() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            def archive_group(group_id: int) -> str:
                if is_archived(group_id):
                    return "Already archived — nothing to do."
                archived = archive(group_id)
                if not verify(group_id):
                    return "✅ Archived, but the automatic check could not run. Look at the group list."
                return f"✅ Archived {archived}."


            @mcp.tool()
            def prune_members(group_id: int) -> str:
                stale = stale_members(group_id)
                if not stale:
                    return "ℹ️ Nothing to remove — no stale members in the group."
                return prune(group_id, stale)


            @mcp.tool()
            def cancel_booking(booking_id: int) -> str:
                if cancel(booking_id):
                    return "Booking cancelled."
                raise ValueError(f"Booking {booking_id} could not be cancelled")
            """
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        "Specify the shop id. Known shops: {}",
        "Please provide a group id.",
        "Укажите shop_id. Доступные магазины: {}",
        "请提供店铺 ID",
        "店舗 ID を指定してください",
        "Por favor, indique el identificador",
        "Bitte geben Sie eine Gruppen-Id an",
        "Veuillez indiquer l'identifiant",
        "Не удалось сохранить заметку",
    ],
)
def test_a_request_for_the_missing_argument_is_a_failure_in_each_language(text: str) -> None:
    assert is_failure_text(text)


@pytest.mark.parametrize(
    "text",
    [
        "Provided 3 members.",  # a past participle, not a request
        "Specifications of the shop: {}",
        "Список магазинов: {}",
        "❌ db\n✅ cache\n✅ queue",  # a report of checks, one mark per line
    ],
)
def test_look_alikes_of_a_request_are_no_failure(text: str) -> None:
    assert not is_failure_text(text)


def test_a_request_for_the_missing_argument_in_its_branch_is_reported() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            def shop_report(shop_id: str = "") -> str:
                if not shop_id:
                    shops = known_shops()
                    if len(shops) != 1:
                        return f"Укажите shop_id. Доступные магазины: {list(shops)}"  # expect: MCP005
                    shop_id = shops[0]
                return report(shop_id)
            """
        )
    )


def test_a_requirement_the_argument_does_not_meet_is_a_refusal_a_report_of_contents_is_not() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            def add_member(record: dict) -> str:
                if "id" not in record:
                    return "The record must include an 'id' field."  # expect: MCP005
                enrol(record)
                return f"The roster now includes member {record['id']}."
            """
        )
    )
