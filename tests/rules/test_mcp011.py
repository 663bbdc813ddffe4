"""MCP011 retry-invited-after-uncertain-mutation: a retry invited (or run) after a write whose
outcome is unknown.

Each snippet marks the rows where a finding is expected with `# expect: MCP011`; the test lints
it with only MCP011 selected (it is off by default) and asserts the exact set of rows, so a
negative case asserts silence on the whole snippet.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mcp_lint.pipeline import lint_source

from mcp_lint.findings import Location

from ._support import expected, said

FASTMCP = """\
import asyncio
import subprocess
import time

import httpx
import requests
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("svc")
"""


def check(source: str, target: str | None = None):
    text = textwrap.dedent(source)
    findings = lint_source(text, filename="server.py", target=target, select=("MCP011",))
    found, wanted = {(f.code, f.location.row) for f in findings}, expected(text)
    assert found == wanted, f"not expected: {sorted(found - wanted)}, missing: {sorted(wanted - found)}"
    return findings


FLAGGED = [
    pytest.param(
        """
        @mcp.tool
        async def create_ticket(title: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    response = await client.post("https://desk.example.com/tickets", json={"title": title})
                    response.raise_for_status()
            except httpx.ReadTimeout:
                raise ToolError("The help desk did not answer in time, please try again.")  # expect: MCP011
            return response.json()["id"]
        """,
        "an `except ReadTimeout` around it",
        id="timeout-around-a-post",
    ),
    pytest.param(
        """
        @mcp.tool
        def send_invoice(invoice_id: str) -> str:
            try:
                BILLING.invoices.send(invoice_id)
            except Exception:
                return {"error": f"Sending invoice {invoice_id} failed. Retry later."}  # expect: MCP011
            return "sent"
        """,
        "an `except Exception` around it",
        id="broad-except-around-a-saas-send",
    ),
    pytest.param(
        """
        @mcp.tool
        def close_incident(incident_id: str) -> str:
            response = requests.put(f"https://ops.example.com/incidents/{incident_id}", json={"state": "closed"})
            if response.status_code >= 500:
                raise ToolError("The incident service failed; please retry")  # expect: MCP011
            return "closed"
        """,
        "`response.status_code >= 500`",
        id="5xx-status-of-the-write-response",
    ),
    pytest.param(
        """
        @mcp.tool
        def add_row(sheet: str, value: str) -> str:
            try:
                DB.execute("INSERT INTO rows (sheet, value) VALUES (?, ?)", (sheet, value))
                DB.commit()
            except ConnectionResetError:
                raise ToolError("Lost the database connection. Try again.")  # expect: MCP011
            return "added"
        """,
        "writes to the database (INSERT)",
        id="connection-reset-around-an-insert",
    ),
    pytest.param(
        """
        def _publish(post: dict) -> None:
            httpx.post("https://blog.example.com/posts", json=post).raise_for_status()

        @mcp.tool
        def publish(title: str, body: str) -> str:
            try:
                _publish({"title": title, "body": body})
            except httpx.TimeoutException:
                raise ToolError("Publishing timed out, try again later")  # expect: MCP011
            return "published"
        """,
        "sends an HTTP POST (in _publish())",
        id="write-in-a-helper-of-the-module",
    ),
]


@pytest.mark.parametrize(("body", "named"), FLAGGED)
def test_retry_invited_after_an_uncertain_write_is_flagged(body: str, named: str) -> None:
    findings = check(FASTMCP + textwrap.dedent(body))
    assert named in said(findings[0])
    assert "so the write may already have happened; a retry may apply it twice" in findings[0].notes
    assert findings[0].help == "Say the write may have happened and how to check it, or send an idempotency key"


def test_message_names_the_tool_the_invitation_and_the_write() -> None:
    findings = check(FASTMCP + textwrap.dedent(FLAGGED[0].values[0]))
    finding = findings[0]
    assert finding.message == "Tool 'create_ticket' invites a retry ('try again') after a write that may have happened"
    assert finding.notes[0] == "it sends an HTTP POST, and the failure came from an `except ReadTimeout` around it"
    # The write is a related location: `client.post(...)`, in the `try` above the message.
    assert [(r.filename, r.location.row, r.message) for r in finding.related] == [("server.py", 16, "the write whose outcome is unknown")]


RERUNS = [
    pytest.param(
        """
        @mcp.tool
        def create_issue(title: str) -> str:
            for attempt in range(3):
                try:
                    response = httpx.post("https://issues.example.com/issues", json={"title": title})
                    break
                except httpx.ReadTimeout:  # expect: MCP011
                    time.sleep(2 ** attempt)
            return response.json()["id"]
        """,
        "the loop around it runs it again",
        id="retry-loop",
    ),
    pytest.param(
        """
        @mcp.tool
        def create_issue(title: str) -> str:
            try:
                response = httpx.post("https://issues.example.com/issues", json={"title": title})
            except httpx.TimeoutException:
                response = httpx.post("https://issues.example.com/issues", json={"title": title})  # expect: MCP011
            return response.json()["id"]
        """,
        "the `except` clause calls it again",
        id="called-again-in-the-clause",
    ),
    pytest.param(
        """
        from tenacity import retry, stop_after_attempt

        @retry(stop=stop_after_attempt(3))  # expect: MCP011
        def _charge(customer: str, cents: int) -> dict:
            return httpx.post("https://pay.example.com/charges", json={"customer": customer, "cents": cents}).json()

        @mcp.tool
        def charge(customer: str, cents: int) -> str:
            return _charge(customer, cents)["id"]
        """,
        "`@retry` runs the whole function again",
        id="retry-decorator",
    ),
]


@pytest.mark.parametrize(("body", "named"), RERUNS)
def test_code_that_runs_an_uncertain_write_again_is_flagged(body: str, named: str) -> None:
    findings = check(FASTMCP + textwrap.dedent(body))
    assert findings[0].message.endswith("runs a write again, though the first attempt may have happened")
    assert named in said(findings[0])
    assert "the write may be applied twice" in findings[0].notes
    # The write run again is a related location where it is not the flagged line itself.
    text = FASTMCP + textwrap.dedent(body)
    others = [row for row, line in enumerate(text.splitlines(), 1) if "httpx.post(" in line and row != findings[0].location.row]
    assert [r.location.row for r in findings[0].related if r.message == "the write it runs again"] == others


SILENT = [
    pytest.param(
        """
        @mcp.tool
        async def create_ticket(title: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    existing = await client.get("https://desk.example.com/tickets", params={"title": title})
            except httpx.ReadTimeout:
                raise ToolError("The help desk did not answer in time, please try again.")
            async with httpx.AsyncClient() as client:
                response = await client.post("https://desk.example.com/tickets", json={"title": title})
            return response.json()["id"]
        """,
        id="retry-before-any-write",
    ),
    pytest.param(
        """
        @mcp.tool
        def close_incident(incident_id: str) -> str:
            try:
                response = requests.put(f"https://ops.example.com/incidents/{incident_id}", json={"state": "closed"})
                response.raise_for_status()
            except requests.HTTPError as e:
                if e.response.status_code == 429:
                    raise ToolError("The incident service is rate limiting us (HTTP 429); retry in 60 seconds")
                raise ToolError(f"Closing incident {incident_id} was refused; it may have been closed already, check get_incident")
            return "closed"
        """,
        id="429-before-the-write-and-an-outcome-named",
    ),
    pytest.param(
        """
        @mcp.tool
        def close_incident(incident_id: str) -> str:
            response = requests.put(f"https://ops.example.com/incidents/{incident_id}", json={"state": "closed"})
            if response.status_code == 409:
                raise ToolError("Another update is in progress; try again in a few seconds")
            if response.status_code < 500 and not response.ok:
                raise ToolError("The incident service refused the change; fix the state and try again")
            return "closed"
        """,
        id="client-errors-mean-nothing-happened",
    ),
    pytest.param(
        """
        @mcp.tool
        def rotate(name: str) -> str:
            if not LOCK.acquire(blocking=False):
                raise ToolError("Another rotation holds the lock; try again in a minute")
            try:
                httpx.post("https://vault.example.com/rotate", json={"name": name})
            finally:
                LOCK.release()
            return "rotated"
        """,
        id="lock-not-acquired",
    ),
    pytest.param(
        """
        import uuid

        @mcp.tool
        def send_payment(account: str, cents: int) -> str:
            key = str(uuid.uuid4())
            try:
                httpx.post("https://pay.example.com/transfers", json={"to": account, "cents": cents}, headers={"Idempotency-Key": key})
            except httpx.TimeoutException:
                raise ToolError(f"The payment service timed out; retry with the same key {key}")
            return "sent"
        """,
        id="idempotency-key-sent",
    ),
    pytest.param(
        """
        @mcp.tool
        def create_issue(title: str) -> str:
            try:
                response = httpx.post("https://issues.example.com/issues", json={"title": title})
            except httpx.ConnectError:
                raise ToolError("Could not connect to the issue tracker; try again once it is up")
            return response.json()["id"]
        """,
        id="connection-refused-sent-nothing",
    ),
    pytest.param(
        """
        @mcp.tool
        def create_issue(title: str) -> str:
            try:
                response = httpx.post("https://issues.example.com/issues", json={"title": title})
            except httpx.TimeoutException:
                raise ToolError("The tracker timed out; do not retry, the issue may exist: call find_issue(title) first")
            return response.json()["id"]
        """,
        id="outcome-named-and-retry-negated",
    ),
    pytest.param(
        """
        @mcp.tool
        def export(path: str) -> str:
            try:
                with open(path, "w") as handle:
                    handle.write(REPORT.render())
            except OSError:
                raise ToolError(f"Could not write {path}; check the folder and try again")
            return path
        """,
        id="a-local-file-write-has-a-known-outcome",
    ),
    pytest.param(
        """
        @mcp.tool
        def create_issue(title: str) -> str:
            for attempt in range(3):
                try:
                    response = httpx.post("https://issues.example.com/issues", json={"title": title})
                    break
                except httpx.TimeoutException:
                    raise ToolError("The tracker timed out; the issue may exist, call find_issue first")
            return response.json()["id"]
        """,
        id="a-loop-whose-clause-leaves",
    ),
    pytest.param(
        """
        @mcp.tool
        def rename_board(board_id: str, name: str) -> str:
            try:
                board = httpx.get(f"https://boards.example.com/boards/{board_id}", timeout=5).json()
                try:
                    httpx.post("https://boards.example.com/audit", json={"board": board_id})
                except Exception:
                    pass  # the audit trail is best effort: its failure never leaves this clause
            except httpx.TimeoutException:
                raise ToolError("The board service timed out; please try again.")
            return board["name"]
        """,
        id="the-write-fails-into-a-nearer-clause",
    ),
    pytest.param(
        """
        @mcp.tool
        def close_ticket(ticket_id: str) -> str:
            for attempt in range(2):
                response = httpx.get(f"https://desk.example.com/tickets/{ticket_id}")
                if response.status_code >= 500:
                    raise ToolError("The help desk is down, try again later")
                response = httpx.post(f"https://desk.example.com/tickets/{ticket_id}/close")
            return "closed"
        """,
        id="status-of-a-read-made-before-the-write",
    ),
]


@pytest.mark.parametrize("body", SILENT)
def test_retry_that_cannot_repeat_a_write_is_not_flagged(body: str) -> None:
    check(FASTMCP + textwrap.dedent(body))


def test_plain_exception_text_counts_only_where_the_framework_forwards_it() -> None:
    body = """
    @mcp.tool
    def create_issue(title: str) -> str:
        try:
            response = httpx.post("https://issues.example.com/issues", json={"title": title})
        except httpx.TimeoutException:
            raise RuntimeError("The tracker timed out; please try again")  # expect: MCP011
        return response.json()["id"]
    """
    check(FASTMCP + textwrap.dedent(body), target="fastmcp>=2.12,<3")
    masked = FASTMCP.replace('FastMCP("svc")', 'FastMCP("svc", mask_error_details=True)')
    text = textwrap.dedent(masked + textwrap.dedent(body))
    assert lint_source(text, filename="server.py", select=("MCP011",)) == []


def test_off_by_default() -> None:
    text = FASTMCP + textwrap.dedent(FLAGGED[0].values[0])
    assert [f for f in lint_source(text, filename="server.py") if f.code == "MCP011"] == []


def test_a_request_helper_that_callers_use_for_writes() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            class Api:
                def __init__(self) -> None:
                    self._http = httpx.Client(base_url="https://boards.example.com")

                def _request(self, method: str, path: str, **kwargs) -> httpx.Response:
                    response = self._http.request(method, path, **kwargs)
                    if response.status_code == 429:
                        raise ToolError("Rate limited; try again in a minute")
                    if response.status_code >= 500:
                        raise ToolError("The board service failed. Please try again.")  # expect: MCP011
                    return response

                def get_board(self, board_id: str) -> dict:
                    return self._request("GET", f"boards/{board_id}").json()

                def create_card(self, board_id: str, title: str) -> dict:
                    return self._request("POST", "cards", json={"board": board_id, "title": title}).json()

            API = Api()

            @mcp.tool
            def create_card(board_id: str, title: str) -> dict:
                return API.create_card(board_id, title)
            """
        )
    )


def test_a_request_helper_only_used_for_reads_is_not_flagged() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            class Api:
                def __init__(self) -> None:
                    self._http = httpx.Client(base_url="https://boards.example.com")

                def _request(self, method: str, path: str) -> httpx.Response:
                    response = self._http.request(method, path)
                    if response.status_code >= 500:
                        raise ToolError("The board service failed. Please try again.")
                    return response

                def get_board(self, board_id: str) -> dict:
                    return self._request("GET", f"boards/{board_id}").json()

            API = Api()

            @mcp.tool
            def get_board(board_id: str) -> dict:
                return API.get_board(board_id)
            """
        )
    )


def test_a_helper_message_that_the_tool_catches_and_returns() -> None:
    findings = check(
        FASTMCP
        + textwrap.dedent(
            """
            class DeskError(Exception):
                pass

            def open_ticket(title: str) -> str:
                try:
                    return httpx.post("https://desk.example.com/tickets", json={"title": title}).json()["id"]
                except httpx.TimeoutException:
                    raise DeskError("The help desk timed out, please try again")  # expect: MCP011

            @mcp.tool
            def create_ticket(title: str) -> str:
                try:
                    return open_ticket(title)
                except DeskError as e:
                    return str(e)
            """
        ),
        target="fastmcp>=2.12,<3",
    )
    assert "caught and sent on to the model: tool 'create_ticket' returns it" in said(findings[0])


def test_a_helper_message_that_the_tool_catches_and_replaces() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            class DeskError(Exception):
                pass

            def open_ticket(title: str) -> str:
                try:
                    return httpx.post("https://desk.example.com/tickets", json={"title": title}).json()["id"]
                except httpx.TimeoutException:
                    raise DeskError("The help desk timed out, please try again")

            @mcp.tool
            def create_ticket(title: str) -> str:
                try:
                    return open_ticket(title)
                except DeskError:
                    raise ToolError("The help desk timed out; the ticket may exist, call find_ticket(title) to check")
            """
        ),
        target="fastmcp>=2.12,<3",
    )


RETRYING_SERVER = """\
import httpx
from fastmcp import FastMCP
from fastmcp.server.middleware.error_handling import RetryMiddleware

{server}


@mcp.tool
def get_issue(issue_id: str) -> dict:
    return httpx.get(f"https://issues.example.com/issues/{{issue_id}}").json()
"""

WRITING_TOOL = """

@mcp.tool
def create_issue(title: str) -> str:
    return httpx.post("https://issues.example.com/issues", json={"title": title}).json()["id"]
"""


@pytest.mark.parametrize(
    "server",
    [
        pytest.param('mcp = FastMCP("issues")\nmcp.add_middleware(RetryMiddleware())  # expect: MCP011', id="add-middleware"),
        pytest.param('mcp = FastMCP("issues", middleware=[RetryMiddleware(max_retries=3)])  # expect: MCP011', id="constructor"),
    ],
)
def test_retry_middleware_on_a_server_whose_tools_write(server: str) -> None:
    findings = check(RETRYING_SERVER.format(server=server) + WRITING_TOOL)
    finding = findings[0]
    assert finding.message == "RetryMiddleware runs a tool call again after a timeout, and tool 'create_issue' writes"
    assert finding.notes == (
        "tool 'create_issue' sends an HTTP POST",
        "it retries on ConnectionError and TimeoutError, after which the write may already have happened",
    )
    assert finding.help == "Retry only failures that guarantee nothing happened (retry_exceptions=)"
    # The tool's write is a related location (the last line of the source).
    rows = len((RETRYING_SERVER.format(server=server) + WRITING_TOOL).splitlines())
    assert [(r.location, r.message) for r in finding.related] == [(Location(rows, 12), "tool 'create_issue' writes here")]


@pytest.mark.parametrize(
    ("server", "tools"),
    [
        pytest.param('mcp = FastMCP("issues")\nmcp.add_middleware(RetryMiddleware())', "", id="tools-that-only-read"),
        pytest.param(
            'class RateLimited(Exception):\n    pass\n\n\nmcp = FastMCP("issues")\nmcp.add_middleware(RetryMiddleware(retry_exceptions=(RateLimited,)))',
            WRITING_TOOL,
            id="retrying-only-refusals",
        ),
    ],
)
def test_retry_middleware_that_cannot_repeat_a_write_is_not_flagged(server: str, tools: str) -> None:
    check(RETRYING_SERVER.format(server=server) + tools)


SESSIONS = [
    pytest.param(
        """
        LOGIN_URL = "https://tracker.example.com/login"

        class Tracker:
            def __init__(self) -> None:
                self.session = requests.Session()

            def _login(self) -> None:
                self.session.post(LOGIN_URL, data={"user": "bot"}, timeout=30).raise_for_status()

            def get(self, path: str) -> dict:
                for attempt in range(3):
                    try:
                        response = self.session.get(f"https://tracker.example.com{path}", timeout=30)
                        if response.status_code == 401:
                            self._login()
                            continue
                        return response.json()
                    except requests.RequestException:
                        time.sleep(2 ** attempt)
                raise RuntimeError("tracker unreachable")

        tracker = Tracker()

        @mcp.tool
        def issue(issue_id: str) -> dict:
            return tracker.get(f"/issues/{issue_id}")
        """,
        id="a-login-sent-again",
    ),
    pytest.param(
        """
        @mcp.tool
        async def token() -> str:
            try:
                async with httpx.AsyncClient() as client:
                    response = await client.post(f"https://id.example.com/oauth/token", data={"grant_type": "client_credentials"})
            except httpx.TimeoutException:
                raise ToolError("The identity service timed out; please try again")
            return "ok"
        """,
        id="a-token-grant-timed-out",
    ),
]


@pytest.mark.parametrize("body", SESSIONS)
def test_a_request_that_opens_a_session_is_not_a_write_to_repeat(body: str) -> None:
    check(FASTMCP + textwrap.dedent(body))


def test_a_post_to_a_resource_named_like_tokens_is_still_a_write() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            @mcp.tool
            async def create_api_token(name: str) -> str:
                try:
                    async with httpx.AsyncClient() as client:
                        response = await client.post("https://id.example.com/api/tokens", json={"name": name})
                except httpx.TimeoutException:
                    raise ToolError("The identity service timed out; please try again")  # expect: MCP011
                return response.json()["id"]
            """
        )
    )


HARMLESS_REPEATS = [
    pytest.param(
        """
        class Pool:
            @staticmethod
            def _close(conn) -> None:
                conn.client.close()

            def refresh(self, due: list) -> None:
                for conn in due:
                    try:
                        self._close(conn)
                        conn.client.ping()
                    except Exception:
                        self._close(conn)
                        continue

        pool = Pool()

        @mcp.tool
        def refresh() -> str:
            pool.refresh([])
            return "ok"
        """,
        id="closing-again-in-the-clause",
    ),
    pytest.param(
        """
        api = OpenAI()

        @mcp.tool
        def embed(text: str) -> list:
            for attempt in range(3):
                try:
                    return api.embeddings.create(model="small", input=text).data[0].embedding
                except Exception:
                    time.sleep(2 ** attempt)
            return []
        """,
        id="an-embedding-asked-again",
    ),
    pytest.param(
        """
        @mcp.tool
        async def add_note(text: str) -> str:
            async with pool.connection() as conn:
                while True:
                    try:
                        await conn.execute("INSERT INTO notes (text) VALUES (%s)", (text,))
                        await conn.commit()
                        return "saved"
                    except Exception:
                        await conn.rollback()
                        await asyncio.sleep(1)
        """,
        id="a-transaction-rolled-back-then-run-again",
    ),
]


@pytest.mark.parametrize("body", HARMLESS_REPEATS)
def test_what_repeats_harmlessly_is_not_flagged(body: str) -> None:
    check(FASTMCP + textwrap.dedent(body))


def test_a_transaction_run_again_without_a_rollback_is_flagged() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            @mcp.tool
            async def add_note(text: str) -> str:
                async with pool.connection() as conn:
                    while True:
                        try:
                            await conn.execute("INSERT INTO notes (text) VALUES (%s)", (text,))
                            await conn.commit()
                            return "saved"
                        except Exception:  # expect: MCP011
                            await asyncio.sleep(1)
            """
        )
    )


def test_a_poll_until_a_deadline_runs_a_probe_not_a_write() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            @mcp.tool
            def restart_app() -> str:
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline:
                    try:
                        done = subprocess.run(["app-status", "--ready"], timeout=3, capture_output=True)
                        if done.returncode == 0:
                            return "ready"
                    except Exception:
                        pass
                    time.sleep(0.5)
                return "not ready"
            """
        )
    )


# -- a request helper that sends the request again itself -------------------------------------

_SELF_RETRYING = """
class Api:
    def __init__(self) -> None:
        self._http = httpx.Client(base_url="https://boards.example.com")

    def _request(self, method: str, path: str, json: dict | None = None, retry: bool = True) -> dict:
        response = self._http.request(method, path, json=json)
        if response.status_code {test} and retry:
            time.sleep(1)
            return self._request(method, path, json=json, retry=False){mark}
        response.raise_for_status()
        return response.json()

    def create_card(self, board_id: str, title: str) -> dict:
        return self._request("POST", "cards", json={{"board": board_id, "title": title}})

API = Api()

@mcp.tool
def create_card(board_id: str, title: str) -> dict:
    return API.create_card(board_id, title)
"""


def test_a_request_helper_that_calls_itself_again_after_a_5xx() -> None:
    (finding,) = check(FASTMCP + _SELF_RETRYING.format(test=">= 500", mark="  # expect: MCP011"))
    assert finding.message == "Helper '_request' runs a write again, though the first attempt may have happened"
    assert (
        "it sends an HTTP POST when create_card() asks it to, and the function calls itself again after a failed status of its"
        " response (`response.status_code >= 500`)"
    ) in finding.notes


@pytest.mark.parametrize("test", ["== 401", "== 429", "in (400, 404)"])
def test_a_request_helper_that_calls_itself_again_after_a_refusal_is_not_flagged(test: str) -> None:
    check(FASTMCP + _SELF_RETRYING.format(test=test, mark=""))


# -- a request helper whose verb callers in other modules choose ------------------------------

_CLIENT = """\
import httpx
from fastmcp.exceptions import ToolError


class BoardClient:
    def __init__(self) -> None:
        self._http = httpx.AsyncClient(base_url="https://boards.example.com")

    async def request(self, method: str, path: str, json_body: dict | None = None) -> dict:
        try:
            response = await self._http.request(method, path, json=json_body)
        except httpx.TimeoutException:
            raise ToolError("The board service did not answer in time. Try again.")
        return response.json()
"""

_HANDLERS = """\
from svc.client import BoardClient


async def add_card(client: BoardClient, title: str) -> dict:
    return await client.request("{verb}", "/cards", json_body={{"title": title}})
"""

_SERVER = """\
from fastmcp import FastMCP

from svc.client import BoardClient
from svc.handlers import add_card

mcp = FastMCP("boards")
CLIENT = BoardClient()


@mcp.tool
async def create_card(title: str) -> dict:
    return await add_card(CLIENT, title)
"""


def _lint_boards(tmp_path: Path, verb: str) -> list:
    from ._support import write_tree

    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "svc"\ndependencies = ["fastmcp>=2.12"]\n',
            "svc/__init__.py": "",
            "svc/client.py": _CLIENT,
            "svc/handlers.py": _HANDLERS.format(verb=verb),
            "svc/server.py": _SERVER,
        },
    )
    from mcp_lint.config import SettingsResolver
    from mcp_lint.discovery import discover
    from mcp_lint.pipeline import lint_paths

    resolver = SettingsResolver(overrides={"select": ["MCP011"]})
    return lint_paths(discover([tmp_path], resolver), resolver).findings


def test_a_request_helper_another_module_asks_for_a_write(tmp_path: Path) -> None:
    findings = _lint_boards(tmp_path, "POST")
    assert [(Path(f.filename).name, f.location.row) for f in findings] == [("client.py", 13)]
    assert "invites a retry ('Try again')" in findings[0].message
    assert "it sends an HTTP POST when add_card() asks it to, and the failure came from an `except TimeoutException` around it" in said(findings[0])


def test_a_request_helper_other_modules_only_ask_for_reads_is_not_flagged(tmp_path: Path) -> None:
    assert _lint_boards(tmp_path, "GET") == []


# -- a request helper that repeats only its reads -------------------------------------------

_READS_ONLY = """
class Api:
    def __init__(self) -> None:
        self._http = httpx.Client(base_url="https://boards.example.com")

    def _request(self, method: str, path: str, json: dict | None = None) -> dict:
        try:
            response = self._http.request(method, path, json=json)
        except httpx.TransportError:
{guard}
            time.sleep(1)
            response = self._http.request(method, path, json=json){mark}
        return response.json()

    def create_card(self, title: str) -> dict:
        return self._request("POST", "cards", json={{"title": title}})

API = Api()

@mcp.tool
def create_card(title: str) -> dict:
    return API.create_card(title)
"""


@pytest.mark.parametrize(
    "guard",
    [
        '            if method.upper() != "GET":\n                raise ToolError("The board service did not answer; the card may exist, check list_cards")',
        '            if method not in ("GET", "HEAD"):\n                raise',
    ],
)
def test_a_request_helper_that_sends_again_only_its_reads_is_not_flagged(guard: str) -> None:
    check(FASTMCP + _READS_ONLY.format(guard=guard, mark=""))


@pytest.mark.parametrize(
    "guard",
    [
        "            pass",
        '            if method.upper() == "GET":\n                logger = None',  # a read only decides a log line, not the retry
    ],
)
def test_a_request_helper_that_sends_every_verb_again_is_flagged(guard: str) -> None:
    check(FASTMCP + _READS_ONLY.format(guard=guard, mark="  # expect: MCP011"))


# -- a retry loop that goes round again: from a clause that `continue`s, or on a status -------------


def test_a_clause_that_goes_round_before_its_last_break_reruns_the_write() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            client = httpx.AsyncClient(base_url="https://svc.example")

            async def send(method: str, path: str, body: dict) -> dict:
                for attempt in range(3):
                    try:
                        response = await client.request(method, path, json=body)
                        return response.json()
                    except httpx.TimeoutException:  # expect: MCP011
                        if attempt < 2:
                            await asyncio.sleep(2**attempt)
                            continue
                        break
                raise ToolError("The service did not answer")

            @mcp.tool
            async def create_item(name: str) -> dict:
                return await send("POST", "/items", {"name": name})
            """
        )
    )


def test_a_clause_whose_continue_belongs_to_a_nested_loop_does_not_go_round() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            client = httpx.AsyncClient(base_url="https://svc.example")

            async def send(method: str, path: str, body: dict) -> dict:
                for attempt in range(3):
                    try:
                        response = await client.request(method, path, json=body)
                        return response.json()
                    except httpx.TimeoutException:
                        for note in ("slow", "late"):
                            if not note:
                                continue
                        break
                raise ToolError("The service did not answer; check the item list before creating it again")

            @mcp.tool
            async def create_item(name: str) -> dict:
                return await send("POST", "/items", {"name": name})
            """
        )
    )


_STATUS_LOOP = """
    async def request(method: str, path: str, body: dict | None = None) -> dict:
        attempt = 0
        async with httpx.AsyncClient() as http:
            while True:
                response = await http.request(method, f"https://svc.example{path}", json=body)
                if response.status_code in (429, 503) and attempt < 3:  # expect: MCP011
                    await asyncio.sleep(2**attempt)
                    attempt += 1
                    continue
                return response.json()

    @mcp.tool
    async def create_item(name: str) -> dict:
        return await request("POST", "/items", {"name": name})
    """


def test_a_loop_that_goes_round_on_a_5xx_status_reruns_the_write() -> None:
    check(FASTMCP + textwrap.dedent(_STATUS_LOOP))


def test_a_loop_that_goes_round_only_on_a_refusal_or_for_reads_is_silent() -> None:
    refused = _STATUS_LOOP.replace("(429, 503)", "(429,)").replace("  # expect: MCP011", "")
    check(FASTMCP + textwrap.dedent(refused))
    reads = _STATUS_LOOP.replace('request("POST"', 'request("GET"').replace("  # expect: MCP011", "")
    check(FASTMCP + textwrap.dedent(reads))


def test_a_clause_that_goes_round_only_after_a_refusal_is_silent() -> None:
    source = """
        client = httpx.AsyncClient(base_url="https://svc.example")

        async def send(method: str, path: str, body: dict) -> dict:
            while True:
                try:
                    response = await client.request(method, path, json=body)
                    response.raise_for_status()
                    return response.json()
                except httpx.HTTPStatusError as exc:  # expect: MCP011
                    if exc.response.status_code == 429:
                        await asyncio.sleep(5)
                        continue
                    if 500 <= exc.response.status_code < 600:
                        await asyncio.sleep(1)
                        continue
                    raise ToolError("The service refused the item")

        @mcp.tool
        async def create_item(name: str) -> dict:
            return await send("POST", "/items", {"name": name})
        """
    check(FASTMCP + textwrap.dedent(source))  # goes round after a 5xx too: flagged
    refusal_only = source.replace("500 <= exc.response.status_code < 600", "exc.response.status_code == 409")
    check(FASTMCP + textwrap.dedent(refusal_only.replace("  # expect: MCP011", "")))


# -- a local rebuilt the same way each round is the same request ------------------------------

_REBUILT_HEADERS = """
class Api:
    def __init__(self, tokens) -> None:
        self._tokens = tokens

    async def request(self, method: str, path: str, *, json: dict | None = None) -> dict:
        attempt = 0
        async with httpx.AsyncClient(base_url="https://svc.example") as http:
            while True:
                token = self._tokens.current()
                headers = {"Authorization": f"Bearer {token}"}
                response = await http.request(method, path, json=json, headers=headers)
                if response.status_code in (429, 503) and attempt < 3:  # expect: MCP011
                    await asyncio.sleep(2**attempt)
                    attempt += 1
                    continue
                return response.json()

    async def add_item(self, name: str) -> dict:
        return await self.request("POST", "/items", json={"name": name})


API = Api(None)


@mcp.tool
async def add_item(name: str) -> dict:
    return await API.add_item(name)
"""


def test_a_header_rebuilt_each_round_from_the_same_values_is_the_same_request() -> None:
    findings = check(FASTMCP + _REBUILT_HEADERS)
    assert findings[0].message == "Helper 'request' runs a write again, though the first attempt may have happened"
    written = [r for r in findings[0].related if r.message == "the write it runs again"]
    assert [r.location.row for r in written] == [findings[0].location.row - 1]


@pytest.mark.parametrize(
    "varying",
    [
        # the next of several queued items, one per round
        ("                token = self._tokens.current()\n", "                token = self._tokens.current()\n                path = self._pending.pop()\n"),
        # a counter the request is built from
        ('headers = {"Authorization": f"Bearer {token}"}', 'headers = {"Authorization": f"Bearer {token}", "X-Page": str(attempt)}'),
        # a cursor the previous round's answer gave
        ("                return response.json()\n", "                path = response.json()[\"next\"]\n"),
    ],
)
def test_a_request_built_from_what_changes_each_round_is_another_request(varying: tuple[str, str]) -> None:
    source = _REBUILT_HEADERS.replace(*varying).replace("  # expect: MCP011", "")
    assert varying[1] in source
    check(FASTMCP + source)


# -- the verb handed to the request in a dict of keyword arguments ------------------------------

_OPTIONS_HELPER = """
class Api:
    async def _send(self, method: str, path: str, data: dict | None = None) -> dict:
        options = {{"method": method, "url": f"https://svc.example{{path}}", "timeout": 10}}
        if data:
            options["json"] = data
        for attempt in range(3):
            try:
                async with httpx.AsyncClient() as client:
                    response = await client.request(**options)
                    return response.json()
            except httpx.TimeoutException:{mark}
                await asyncio.sleep(2**attempt)
                continue
        raise ToolError("The service did not answer")

    async def add_item(self, name: str) -> dict:
        return await self._send("{verb}", "/items", {{"name": name}})


API = Api()


@mcp.tool
async def add_item(name: str) -> dict:
    return await API.add_item(name)
"""


def test_a_verb_handed_to_the_request_in_a_dict_of_options() -> None:
    findings = check(FASTMCP + _OPTIONS_HELPER.format(verb="POST", mark="  # expect: MCP011"))
    assert "it sends an HTTP POST when add_item() asks it to, and the loop around it runs it again" in said(findings[0])


def test_a_verb_in_a_dict_of_options_that_callers_only_ask_for_reads() -> None:
    check(FASTMCP + _OPTIONS_HELPER.format(verb="GET", mark=""))


# -- a wrapper that runs the function it is handed again -----------------------------------------

_WRAPPER = """
async def with_retries(send, *args, **kwargs):
    for attempt in range(3):
        try:
            return await send(*args, **kwargs)
        except httpx.ReadTimeout:{mark}
            await asyncio.sleep(2**attempt)
    raise ToolError("The service did not answer")


class Api:
    def __init__(self) -> None:
        self.client = httpx.AsyncClient(base_url="https://svc.example")

    async def add_item(self, name: str) -> dict:
        response = await with_retries(self.client.{verb}, "/items"{body})
        return response.json()


API = Api()


@mcp.tool
async def add_item(name: str) -> dict:
    return await API.add_item(name)
"""


def test_a_wrapper_that_runs_a_write_it_is_handed_again() -> None:
    findings = check(FASTMCP + _WRAPPER.format(verb="post", body=', json={"name": name}', mark="  # expect: MCP011"))
    assert findings[0].message == "Helper 'with_retries' runs a write again, though the first attempt may have happened"
    assert "it sends an HTTP POST when add_item() hands it `self.client.post`, and the loop around it runs it again" in said(findings[0])


def test_a_wrapper_handed_only_reads_is_not_flagged() -> None:
    check(FASTMCP + _WRAPPER.format(verb="get", body=', params={"name": name}', mark=""))


# -- whether a failure is worth another round, decided by another function ----------------------

_VERDICT_LOOP = """
class ServiceError(Exception):
    def __init__(self, message: str, retryable: bool = False) -> None:
        super().__init__(message)
        self.retryable = retryable


def classify(status: int, body: str) -> ServiceError:
    return ServiceError(f"HTTP {{status}}", retryable=status in (500, 502, 503))


async def request(method: str, path: str, body: dict | None = None) -> dict:
    attempt = 0
    async with httpx.AsyncClient(base_url="https://svc.example") as http:
        while True:
            response = await http.request(method, path, json=body)
            if response.status_code < 400:
                return response.json()
            error = classify(response.status_code, response.text)
            if {test} and attempt < 3:{mark}
                attempt += 1
                continue
            raise error


@mcp.tool
async def create_item(name: str) -> dict:
    return await request("POST", "/items", {{"name": name}})
"""


def test_a_loop_that_goes_round_on_another_function_s_verdict_that_the_failure_is_passing() -> None:
    findings = check(FASTMCP + _VERDICT_LOOP.format(test="error.retryable", mark="  # expect: MCP011"))
    assert "a verdict on its response that the failure is passing (`error.retryable`)" in said(findings[0])


@pytest.mark.parametrize(
    "test",
    [
        "not error.retryable",  # the other failures
        "error.rate_limited",  # a refusal, named as one
        "pending_retry",  # a local that is no verdict on the response
    ],
)
def test_a_loop_that_goes_round_on_no_verdict_of_a_passing_failure_is_silent(test: str) -> None:
    check(FASTMCP + _VERDICT_LOOP.format(test=test, mark="").replace("    attempt = 0\n", "    attempt = 0\n    pending_retry = True\n"))
