"""MCP004: a constructor that checks what it is given is a check (issue 21, "checks not
recognised"): a class handed an argument's items (`Task(**fields)`) or a pydantic model of the
module built from arguments. Flagged and silent cases on made-up code.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

CASES = [
    case(
        "a-class-handed-an-arguments-items-after-a-write",
        """\
        from dataclasses import dataclass


        @dataclass
        class Card:
            title: str
            column: str


        @mcp.tool()
        def add_card(card_id: str, fields: dict) -> str:
            NOTES[card_id] = fields  # expect: MCP004
            card = Card(**fields)
            return card.title
        """,
    ),
    case(
        "a-class-handed-an-arguments-items-before-the-write",
        """\
        from dataclasses import dataclass


        @dataclass
        class Card:
            title: str
            column: str


        @mcp.tool()
        def add_card(card_id: str, fields: dict) -> str:
            card = Card(**fields)
            NOTES[card_id] = fields
            return card.title
        """,
    ),
    case(
        "a-pydantic-model-of-the-module-built-from-arguments-after-a-write",
        """\
        from pydantic import BaseModel


        class Base(BaseModel):
            pass


        class Reminder(Base):
            text: str
            minutes: int


        @mcp.tool()
        def remind(reminder_id: str, text: str, minutes: int) -> str:
            NOTES[reminder_id] = {"text": text}  # expect: MCP004
            reminder = Reminder(text=text, minutes=minutes)
            return reminder.text
        """,
    ),
    case(
        "a-plain-class-built-from-arguments-is-no-check",
        """\
        class Reminder:
            def __init__(self, text: str, minutes: int) -> None:
                self.text = text
                self.minutes = minutes


        @mcp.tool()
        def remind(reminder_id: str, text: str, minutes: int) -> str:
            NOTES[reminder_id] = {"text": text}
            reminder = Reminder(text=text, minutes=minutes)
            return reminder.text
        """,
    ),
    case(
        "a-reply-built-from-the-writes-result-is-no-check",
        """\
        from dataclasses import dataclass


        @dataclass
        class Saved:
            id: str
            size: int


        @mcp.tool()
        def save(note_id: str, text: str) -> str:
            NOTES[note_id] = {"text": text}
            result = {"id": note_id, "size": len(text)}
            return str(Saved(**result))
        """,
    ),
]


@pytest.mark.parametrize("body", CASES)
def test_constructor_checks(body: str) -> None:
    _mcp004(body)
