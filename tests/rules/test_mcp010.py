"""MCP010 sensitive-detail-in-message: secrets and infrastructure in a tool's failure text.

Each snippet marks the rows where a finding is expected with `# expect: MCP010`; the test lints
it with only MCP010 selected (it is off by default) and asserts the exact set of rows, so a
negative case asserts silence on the whole snippet.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mcp_lint.config import SettingsResolver
from mcp_lint.discovery import discover
from mcp_lint.pipeline import lint_paths, lint_source

from mcp_lint.findings import Location

from ._support import expected, said, write_tree

FASTMCP = """\
import os
import traceback
from pathlib import Path

import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("svc")
"""

MCP1 = """\
import os
import traceback
from pathlib import Path

import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("svc")
"""


def _findings(source: str, target: str | None = None):
    text = textwrap.dedent(source)
    return text, lint_source(text, filename="server.py", target=target, select=("MCP010",))


def check(source: str, target: str | None = None):
    text, findings = _findings(source, target)
    found, wanted = {(f.code, f.location.row) for f in findings}, expected(text)
    assert found == wanted, f"not expected: {sorted(found - wanted)}, missing: {sorted(wanted - found)}"
    return findings


# -- what leaks -----------------------------------------------------------------------------------

LEAKS = [
    pytest.param(
        """
        @mcp.tool
        def sync_backend() -> str:
            raise ToolError(f"Backend {os.environ['BACKEND_HOST']} did not answer")  # expect: MCP010
        """,
        "Tool 'sync_backend' puts environment variable 'BACKEND_HOST' into its error message",
        id="os-environ-subscript",
    ),
    pytest.param(
        """
        @mcp.tool
        def sync_backend() -> str:
            host = os.getenv("BACKEND_HOST", "localhost")
            raise ToolError("Backend " + host + " did not answer")  # expect: MCP010
        """,
        "read at `os.getenv(\"BACKEND_HOST\", \"localhost\")`, then held in `host`",
        id="getenv-through-a-local-and-concatenation",
    ),
    pytest.param(
        """
        DATABASE_URL = os.environ.get("DATABASE_URL")

        @mcp.tool
        def count_rows(table: str) -> int:
            try:
                return run_count(DATABASE_URL, table)
            except ConnectionError:
                raise ToolError("Cannot reach the database at {}".format(DATABASE_URL))  # expect: MCP010
        """,
        "puts environment variable 'DATABASE_URL' into its error message",
        id="module-constant-from-env-through-format",
    ),
    pytest.param(
        """
        @mcp.tool
        def sync_backend() -> str:
            raise ToolError("Backend %s did not answer" % os.getenv("BACKEND_HOST"))  # expect: MCP010
        """,
        "environment variable 'BACKEND_HOST'",
        id="percent-format",
    ),
    pytest.param(
        """
        from .config import API_TOKEN

        @mcp.tool
        def sync_backend() -> str:
            raise ToolError(f"Upstream refused token {API_TOKEN}")  # expect: MCP010
        """,
        "a secret ('API_TOKEN')",
        id="secret-named-import",
    ),
    pytest.param(
        """
        class Client:
            def __init__(self) -> None:
                self.api_key = load_key()

            def fetch(self, item: str) -> dict:
                response = httpx.get(f"https://api.example.com/{item}")
                if response.status_code == 401:
                    raise ToolError(f"Key {self.api_key} was rejected")  # expect: MCP010
                return response.json()

        CLIENT = Client()

        @mcp.tool
        def fetch(item: str) -> dict:
            return CLIENT.fetch(item)
        """,
        "a secret ('self.api_key')",
        id="secret-attribute-in-a-helper",
    ),
    pytest.param(
        """
        BASE_DIR = Path(__file__).resolve().parent

        @mcp.tool
        def read_template(name: str) -> str:
            template = BASE_DIR / "templates" / name
            if not template.exists():
                raise ToolError(f"Template {template} not found")  # expect: MCP010
            return template.read_text()
        """,
        "puts a path of the server's own files into its error message\nread at `__file__`, then held in `BASE_DIR`, `template`",
        id="path-under-file",
    ),
    pytest.param(
        """
        @mcp.tool
        def list_exports() -> list[str]:
            folder = os.path.join(os.getcwd(), "exports")
            if not os.path.isdir(folder):
                return {"error": f"Export folder {folder} is missing"}  # expect: MCP010
            return os.listdir(folder)
        """,
        "puts the server's working directory into a failure it returns\nread at `os.getcwd()`, then held in `folder`",
        id="cwd-in-an-error-dict",
    ),
    pytest.param(
        """
        @mcp.tool
        def convert(document_id: str) -> str:
            try:
                return CONVERTER.run(document_id)
            except Exception:
                return f"Conversion failed:\\n{traceback.format_exc()}"  # expect: MCP010
        """,
        "puts a traceback into a failure it returns\nread at `traceback.format_exc()`",
        id="traceback-returned",
    ),
    pytest.param(
        """
        @mcp.tool
        def top_customers(limit: int) -> list:
            query = f"SELECT name, total FROM billing.customers ORDER BY total DESC LIMIT {limit}"
            try:
                return DB.fetch(query)
            except Exception:
                raise ToolError(f"Query failed: {query}")  # expect: MCP010
        """,
        "puts the SQL text of the query into its error message",
        id="sql-the-server-wrote",
    ),
    pytest.param(
        """
        TARGET = "postgresql://app:s3cret@db.internal:5432/app"

        @mcp.tool
        def sync() -> str:
            try:
                return SYNC.run(TARGET)
            except ConnectionError:
                raise ToolError("Cannot connect to " + TARGET)  # expect: MCP010
        """,
        "a URL with credentials",
        id="credentials-in-a-literal-url",
    ),
    pytest.param(
        """
        from pydantic_settings import BaseSettings

        class Settings(BaseSettings):
            storage_root: str = "/srv/data"
            max_results: int = 50

        settings = Settings()

        @mcp.tool
        def read(name: str) -> str:
            if not STORE.has(name):
                raise ToolError(f"{name} is not in {settings.storage_root}")  # expect: MCP010
            return STORE.get(name)
        """,
        "a configuration value ('settings.storage_root')",
        id="pydantic-settings-field",
    ),
    pytest.param(
        """
        from fastmcp.server.dependencies import get_http_request

        @mcp.tool
        def whoami() -> str:
            request = get_http_request()
            if "x-user" not in request.headers:
                raise ToolError(f"No user header among {dict(request.headers)}")  # expect: MCP010
            return request.headers["x-user"]
        """,
        "puts the request's headers into its error message\nread at `request.headers`",
        id="request-headers",
    ),
    pytest.param(
        """
        def describe_failure(what: str) -> str:
            return f"{what} failed; contact the admin"

        @mcp.tool
        def sync_backend() -> str:
            raise ToolError(describe_failure(f"Call to {os.getenv('BACKEND_URL')}"))  # expect: MCP010
        """,
        "environment variable 'BACKEND_URL'",
        id="through-a-project-message-builder",
    ),
    pytest.param(
        """
        SIGNUP_PASSWORD = "welcome-2024"

        @mcp.tool
        def create_user(name: str) -> str:
            return f"Error: could not sign up {name} with {SIGNUP_PASSWORD}"  # expect: MCP010
        """,
        "a secret ('SIGNUP_PASSWORD')",
        id="a-text-constant-named-like-a-secret",
    ),
    pytest.param(
        """
        @mcp.tool
        def connect(name: str) -> str:
            raise ToolError(f"Could not connect {name} with {SETTINGS.get('api-token')}")  # expect: MCP010
        """,
        "a secret ('api-token')",
        id="a-mapping-item-keyed-like-a-secret",
    ),
]


@pytest.mark.parametrize(("body", "named"), LEAKS)
def test_sensitive_value_in_failure_text_is_flagged(body: str, named: str) -> None:
    findings = check(FASTMCP + textwrap.dedent(body))
    # One line of what the finding says (message, help, notes) per line of `named`.
    assert all(line in said(findings[0]) for line in named.split("\n")), said(findings[0])
    assert findings[0].help == "Log the value on the server; say which operation failed without it"


def test_message_names_what_leaks_where_it_was_read_and_the_tool() -> None:
    findings = check(
        FASTMCP
        + textwrap.dedent(
            """
            ROOT = os.getenv("NOTES_ROOT")

            @mcp.tool
            def read_note(name: str) -> str:
                path = os.path.join(ROOT, name)
                if not os.path.exists(path):
                    raise ToolError(f"Note not found at {path}")  # expect: MCP010
                return open(path).read()
            """
        )
    )
    finding = findings[0]
    assert finding.message == "Tool 'read_note' puts environment variable 'NOTES_ROOT' into its error message"
    assert finding.notes == (
        "read at `os.getenv(\"NOTES_ROOT\")`, then held in `ROOT`, `path`",
        "the model reads a ToolError's text verbatim",
        "whoever reads the transcript sees the value too",
    )
    # The read is a related location: `os.getenv("NOTES_ROOT")` after `ROOT = `, below the header.
    assert [(r.filename, r.location, r.end_location, r.message) for r in finding.related] == [
        ("server.py", Location(11, 8), Location(11, 31), "the value is read here")
    ]


def test_a_helper_finding_names_the_tool_that_reaches_it() -> None:
    findings = check(
        FASTMCP
        + textwrap.dedent(
            """
            def connect():
                url = os.environ["CACHE_URL"]
                raise ToolError(f"cache at {url} is down")  # expect: MCP010

            @mcp.tool
            def warm_cache() -> str:
                connect()
                return "warm"
            """
        )
    )
    finding = findings[0]
    assert finding.message == "Helper 'connect' puts environment variable 'CACHE_URL' into its error message"
    assert finding.notes[:2] == ("reached from tool 'warm_cache'", "read at `os.environ[\"CACHE_URL\"]`, then held in `url`")
    assert [(r.location.row, r.message) for r in finding.related] == [(12, "the value is read here"), (16, "tool 'warm_cache' reaches this helper")]


# -- what does not leak ---------------------------------------------------------------------------

SILENT = [
    pytest.param(
        """
        @mcp.tool
        def read_file(path: str, api_key: str) -> str:
            if not os.path.exists(path):
                raise ToolError(f"{path} does not exist")
            if len(api_key) < 20:
                raise ToolError(f"api_key {api_key!r} is too short")
            return open(path).read()
        """,
        id="the-tools-own-arguments-echoed",
    ),
    pytest.param(
        """
        @mcp.tool
        def fetch(url: str) -> str:
            response = httpx.get(url)
            if response.status_code == 404:
                raise ToolError(f"{url} answered 404; check the address")
            return response.text
        """,
        id="a-public-url-the-model-passed",
    ),
    pytest.param(
        """
        @mcp.tool
        def list_items(page_token: str = "") -> dict:
            next_page_token = STORE.cursor(page_token)
            if next_page_token is None:
                raise ToolError(f"Page token {page_token} expired; start again without page_token")
            if STORE.stale(next_page_token):
                return {"error": f"Listing changed; continue from {next_page_token}"}
            return STORE.page(next_page_token)
        """,
        id="ids-the-model-can-use",
    ),
    pytest.param(
        """
        BASE_DIR = Path(__file__).parent

        @mcp.tool
        def read_template(name: str) -> str:
            template = BASE_DIR / name
            if not template.exists():
                raise ToolError(f"Template {template.name} not found; call list_templates")
            return template.read_text()
        """,
        id="only-the-file-name-of-a-server-path",
    ),
    pytest.param(
        """
        @mcp.tool
        def sync_backend() -> str:
            if not os.getenv("BACKEND_TOKEN"):
                raise ToolError("BACKEND_TOKEN is not set; ask the user to configure it")
            limit = int(os.getenv("PING_LIMIT", "5"))
            if PINGS.count() > limit:
                raise ToolError(f"At most {limit} pings per minute")
            token = os.environ["BACKEND_TOKEN"]
            if len(token) < 10:
                raise ToolError(f"The configured token is {len(token)} characters long, expected 40")
            return PINGS.send(token)
        """,
        id="variable-names-numbers-and-lengths",
    ),
    pytest.param(
        """
        @mcp.tool
        def sync_backend() -> str:
            token = os.environ["BACKEND_TOKEN"]
            if not AUTH.valid(token):
                raise ToolError(f"Token {token[:4]}... was rejected; ask the user to renew it")
            return "pong"
        """,
        id="a-masked-prefix",
    ),
    pytest.param(
        """
        @mcp.tool
        def banner() -> str:
            return f"Connected to {os.getenv('BACKEND_HOST')} from {os.getcwd()}"
        """,
        id="a-success-result-is-not-failure-text",
    ),
    pytest.param(
        """
        @mcp.tool
        def run_query(sql: str) -> list:
            try:
                return DB.fetch(sql)
            except Exception:
                raise ToolError(f"Query failed: {sql}")
        """,
        id="sql-the-model-wrote",
    ),
    pytest.param(
        """
        import logging

        logger = logging.getLogger(__name__)

        @mcp.tool
        def sync_backend() -> str:
            try:
                return PINGS.send(os.environ["BACKEND_TOKEN"])
            except Exception:
                logger.error("ping via %s failed: %s", os.getenv("BACKEND_HOST"), traceback.format_exc())
                raise ToolError("The backend did not answer the ping; try again in a minute")
        """,
        id="logged-not-sent",
    ),
]


SILENT += [
    pytest.param(
        """
        EXAMPLE = "postgresql://user:password@host:5432/db"

        @mcp.tool
        def connect(dsn: str) -> str:
            if "://" not in dsn:
                raise ToolError("Invalid DSN; expected a URL like postgresql://user:password@host:5432/db")
            if not dsn.startswith("postgresql"):
                raise ToolError(f"Unsupported DSN scheme; use one like {EXAMPLE}")
            return POOL.connect(dsn)
        """,
        id="a-format-example-of-a-connection-string",
    ),
    pytest.param(
        """
        @mcp.tool
        def summarize(text: str, model: str = "") -> str:
            model = model or os.getenv("DEFAULT_MODEL", "small")
            if model not in MODELS:
                raise ToolError(f"Unknown model {model}; use one of {sorted(MODELS)}")
            if os.environ["LOG_LEVEL"] == "off":
                raise ToolError(f"Logging is {os.environ['LOG_LEVEL']}; summaries need it on")
            return MODELS[model].run(text)
        """,
        id="environment-values-that-say-nothing-about-the-server",
    ),
    pytest.param(
        """
        MIN_PASSWORD = 8
        TOKEN_TTL = -1

        @mcp.tool
        def create_user(name: str, password: str) -> str:
            if len(password) < MIN_PASSWORD:
                return f"Error: password must be at least {MIN_PASSWORD} characters"
            if TOKEN_TTL < 0:
                raise ToolError(f"Tokens never expire here (ttl {TOKEN_TTL})")
            return "created"
        """,
        id="a-number-named-like-a-secret-is-a-rule-about-it",
    ),
    pytest.param(
        """
        @mcp.tool
        async def collect_login(poll_key: str) -> str:
            reply = await CLIENT.get(f"{API_ROOT}/login/token", params={"key": poll_key})
            if reply.status_code != 200:
                raise ToolError(f"Login is not finished yet: {reply.reason_phrase}")
            return "logged in"
        """,
        id="an-http-get-of-a-url-ending-in-token-is-no-secret-lookup",
    ),
]


@pytest.mark.parametrize("body", SILENT)
def test_nothing_sensitive_is_not_flagged(body: str) -> None:
    check(FASTMCP + textwrap.dedent(body))


def test_plain_exception_text_counts_only_where_the_framework_forwards_it() -> None:
    body = textwrap.dedent(
        """
        @mcp.tool()
        def sync_backend() -> str:
            raise RuntimeError(f"Backend {os.environ['BACKEND_HOST']} did not answer")  # expect: MCP010
        """
    )
    check(MCP1 + body, target="mcp>=1.9,<2")
    masked = FASTMCP.replace('FastMCP("svc")', 'FastMCP("svc", mask_error_details=True)') + body.replace("@mcp.tool()", "@mcp.tool")
    _, findings = _findings(masked)
    assert findings == []


def test_off_by_default() -> None:
    text = FASTMCP + textwrap.dedent(
        """
        @mcp.tool
        def sync_backend() -> str:
            raise ToolError(f"Backend {os.environ['BACKEND_HOST']} did not answer")
        """
    )
    assert [f for f in lint_source(text, filename="server.py") if f.code == "MCP010"] == []


def test_a_helper_in_another_module(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "svc"\ndependencies = ["fastmcp>=2.12"]\n',
            "svc/__init__.py": "",
            "svc/store.py": textwrap.dedent(
                """\
                import os

                from fastmcp.exceptions import ToolError

                STORE_DSN = os.environ["STORE_DSN"]


                def open_store():
                    raise ToolError(f"store {STORE_DSN} unreachable")
                """
            ),
            "svc/server.py": textwrap.dedent(
                """\
                from fastmcp import FastMCP

                from svc.store import open_store

                mcp = FastMCP("svc")


                @mcp.tool
                def count() -> int:
                    return open_store().count()
                """
            ),
        },
    )
    resolver = SettingsResolver(overrides={"select": ["MCP010"]})
    findings = lint_paths(discover([tmp_path], resolver), resolver).findings
    assert [(Path(f.filename).name, f.location.row) for f in findings] == [("store.py", 9)]
    assert findings[0].notes[0] == "reached from tool 'count'"
    # The read is in the helper's own file, the tool in another.
    assert [(Path(r.filename).name, r.location.row, r.message) for r in findings[0].related] == [
        ("store.py", 5, "the value is read here"),
        ("server.py", 9, "tool 'count' reaches this helper"),
    ]


def test_a_parameter_the_function_fills_itself_is_followed() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            def resolve(path: str, base_dir: str | None = None) -> Path:
                if base_dir is None:
                    base_dir = os.getcwd()
                resolved = (Path(base_dir) / path).resolve()
                if not resolved.is_relative_to(base_dir):
                    raise ToolError(f"{path} is outside {base_dir}")  # expect: MCP010
                return resolved

            @mcp.tool
            def read(path: str) -> str:
                return resolve(path).read_text()
            """
        )
    )


def test_a_helper_exception_that_the_tool_catches_and_returns() -> None:
    findings = check(
        FASTMCP.replace('FastMCP("svc")', 'FastMCP("svc", mask_error_details=True)')
        + textwrap.dedent(
            """
            class StoreError(Exception):
                pass

            def open_store():
                raise StoreError(f"store {os.environ['STORE_DSN']} unreachable")  # expect: MCP010

            @mcp.tool
            def count() -> int:
                try:
                    return open_store().count()
                except StoreError as e:
                    return f"Counting failed: {e}"
            """
        )
    )
    assert findings[0].message == "Helper 'open_store' puts environment variable 'STORE_DSN' into an exception's text"
    assert "caught and sent on to the model: tool 'count' returns it" in said(findings[0])


def test_a_secret_from_the_request_context_is_not_the_models_argument() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            from fastmcp import Context

            @mcp.tool
            def sync_backend(ctx: Context, host: str) -> str:
                app = ctx.request_context.lifespan_context
                if not app.reachable(host):
                    raise ToolError(f"{host} is unreachable")
                if not app.accepts(app.api_token):
                    raise ToolError(f"Token {ctx.request_context.lifespan_context.api_token} was refused")  # expect: MCP010
                return "pong"
            """
        )
    )


# -- through the module's helpers: their parameters and what they return ----------------------------


def test_a_helper_that_describes_its_parameter_carries_the_value_it_was_given() -> None:
    findings = check(
        FASTMCP
        + textwrap.dedent(
            """
            def describe(conn_str):
                return f"cannot reach {conn_str}"

            @mcp.tool
            def count_orders() -> int:
                message = describe(os.environ["DB_URL"])
                raise ToolError(message)  # expect: MCP010
            """
        )
    )
    assert findings[0].message == "Tool 'count_orders' puts environment variable 'DB_URL' into its error message"
    assert findings[0].notes[0] == 'read at `os.environ["DB_URL"]`, then held in `conn_str`, `describe()`, `message`'


def test_a_helper_that_returns_a_settings_secret() -> None:
    findings = check(
        FASTMCP
        + textwrap.dedent(
            """
            from pydantic_settings import BaseSettings

            class Settings(BaseSettings):
                api_token: str
                timeout: int = 10

            settings = Settings()

            def current_token() -> str:
                return settings.api_token

            def current_timeout() -> int:
                return settings.timeout

            @mcp.tool
            def sync() -> str:
                if current_timeout() < 1:
                    raise ToolError(f"Timeout {current_timeout()} is too short; raise SYNC_TIMEOUT")
                raise ToolError(f"Token {current_token()} was refused")  # expect: MCP010
            """
        )
    )
    assert "a secret ('settings.api_token')" in findings[0].message
    assert findings[0].notes[0] == "read at `settings.api_token`, then held in `current_token()`"


def test_a_helper_that_raises_with_what_its_caller_passed() -> None:
    findings = check(
        FASTMCP
        + textwrap.dedent(
            """
            def unreachable(target: str) -> None:
                raise ToolError(f"{target} did not answer")  # expect: MCP010

            @mcp.tool
            def sync_backend() -> str:
                host = os.getenv("BACKEND_HOST")
                unreachable(host)
                return "pong"
            """
        )
    )
    assert findings[0].message == "Helper 'unreachable' puts environment variable 'BACKEND_HOST' into its error message"
    assert 'read at `os.getenv("BACKEND_HOST")` in sync_backend(), then held in `host`, `target`' in findings[0].notes
    # The read, in the caller, is the related location.
    assert (findings[0].related[0].location.row, findings[0].related[0].message) == (16, "the value is read here")


HELPERS_SILENT = [
    pytest.param(
        """
        API_KEY = os.environ["API_KEY"]

        def shown(value: str) -> str:
            return value[:4] + "..."

        @mcp.tool
        def check_key() -> str:
            raise ToolError(f"The key starting {shown(API_KEY)} was refused; rotate it in the dashboard")
        """,
        id="a-helper-that-masks-its-parameter",
    ),
    pytest.param(
        """
        def describe(conn_str):
            return f"cannot reach {conn_str}"

        def unreachable(target: str) -> None:
            raise ToolError(f"{target} did not answer")

        @mcp.tool
        def sync_backend(host: str) -> str:
            if not host:
                raise ToolError(describe(host))
            unreachable(host)
            return "pong"
        """,
        id="the-tools-own-argument-through-helpers",
    ),
    pytest.param(
        """
        def service_name() -> str:
            return "the orders database"

        @mcp.tool
        def count_orders() -> int:
            raise ToolError(f"Could not reach {service_name()}; try again in a minute")
        """,
        id="a-helper-that-returns-the-authors-words",
    ),
    pytest.param(
        """
        @mcp.tool
        def count_orders() -> int:
            target = os.environ["DB_URL"]
            target = "the orders database"
            raise ToolError(f"Could not reach {target}")
        """,
        id="a-value-replaced-before-the-message",
    ),
]


@pytest.mark.parametrize("body", HELPERS_SILENT)
def test_helpers_that_pass_on_nothing_sensitive_are_not_flagged(body: str) -> None:
    check(FASTMCP + textwrap.dedent(body))


def test_an_environment_variable_named_by_a_constant() -> None:
    findings = check(
        FASTMCP
        + textwrap.dedent(
            """
            URL_VARIABLE = "TRACKER_URL"
            LEVEL_VARIABLE = "TRACKER_LOG_LEVEL"

            @mcp.tool
            def sync_backend() -> str:
                if os.environ.get(LEVEL_VARIABLE) == "off":
                    raise ToolError(f"Logging is {os.environ.get(LEVEL_VARIABLE)}; set it to info")
                raise ToolError(f"No answer from {os.environ.get(URL_VARIABLE)}")  # expect: MCP010
            """
        )
    )
    assert findings[0].message == "Tool 'sync_backend' puts environment variable 'TRACKER_URL' into its error message"


def test_an_environment_variable_named_through_a_helper_parameter() -> None:
    findings = check(
        FASTMCP
        + textwrap.dedent(
            """
            def setting(name: str) -> str:
                return os.environ.get(name, "")

            @mcp.tool
            def login() -> str:
                raise ToolError(f"The password {setting('SERVICE_PASSWORD')} was refused")  # expect: MCP010
            """
        )
    )
    assert findings[0].message == "Tool 'login' puts environment variable 'SERVICE_PASSWORD' into its error message"


FOUND_ON_UNSEEN_SERVERS = [
    pytest.param(
        """
        BASE_URL = os.getenv("LAWS_API_URL", "https://laws.example.org/api")

        class LawsError(Exception):
            def __init__(self, code: str, message: str, details: object = None) -> None:
                self.code = code
                self.details = details
                super().__init__(message)

        def fetch(endpoint: str) -> dict:
            url = f"{BASE_URL}/{endpoint}"
            response = httpx.get(url)
            if response.status_code == 404:
                raise LawsError(code="NOT_FOUND", message="No such law.", details={"url": url})
            return response.json()

        @mcp.tool
        def law(law_id: str) -> dict:
            return fetch(f"laws/{law_id}")
        """,
        id="a-detail-kept-on-the-exception-but-not-in-its-text",
    ),
    pytest.param(
        """
        def current_project() -> dict:
            root = Path.cwd()
            return {"name": root.parts[-1], "root": str(root)}

        @mcp.tool
        def list_tasks(status: str) -> str:
            project = current_project()
            if status not in {"open", "done"}:
                raise ToolError(f"Project {project['name']} has no status {status!r}")
            return "..."
        """,
        id="a-project-name-beside-the-working-directory-in-a-dict",
    ),
    pytest.param(
        """
        def project_name() -> str:
            return Path(os.getcwd()).parts[-1]

        @mcp.tool
        def list_tasks() -> str:
            raise ToolError(f"Project {project_name()} has no task list yet; call create_list")
        """,
        id="a-project-name-taken-from-the-working-directorys-parts",
    ),
    pytest.param(
        """
        class QueryLexer:
            def __init__(self, text: str) -> None:
                self.tokens = text.replace("(", " ( ").split()
                self.pos = 0

            def parse(self) -> list:
                terms = []
                for token in self.tokens:
                    if token in {"AND", "OR"} and not terms:
                        raise ValueError(f"Unexpected token {token} at the start of the query")
                    terms.append(token)
                return terms

        @mcp.tool
        def search(query: str) -> list:
            return QueryLexer(query).parse()
        """,
        id="a-lexers-loop-variable-over-the-text-it-was-given",
    ),
    pytest.param(
        """
        class QueryParser:
            def __init__(self, text: str) -> None:
                self.tokens = text.split()
                self.pos = 0
                self.current_token = None

            def advance(self) -> None:
                self.current_token = self.tokens[self.pos]
                self.pos += 1

            def expect(self, word: str) -> None:
                self.advance()
                if self.current_token != word:
                    raise ValueError(f"Expected {word}, found {self.current_token}")

        @mcp.tool
        def query(text: str) -> str:
            QueryParser(text).expect("FIND")
            return "ok"
        """,
        id="a-parsers-current-token-taken-from-the-text-it-was-given",
    ),
    pytest.param(
        """
        @mcp.tool
        def lint_subject(subject: str) -> dict:
            errors = []
            for token in ["{op}", "{path}", "{summary}"]:
                if token not in subject:
                    errors.append(f"Required token {token} missing in subject")
            return {"ok": not errors, "errors": errors}
        """,
        id="a-loop-variable-over-the-authors-words",
    ),
    pytest.param(
        """
        class Tracker:
            def __init__(self) -> None:
                self._http = httpx.Client()
                self.token = os.environ["TRACKER_TOKEN"]

            def _auth_headers(self) -> dict:
                return {"Authorization": f"Bearer {self.token}"}

            def get(self, path: str) -> dict:
                response = self._http.request("GET", path, headers=self._auth_headers())
                if response.is_error:
                    raise ToolError(f"Tracker answered {response.status_code} for {path}")
                return response.json()

        tracker = Tracker()

        @mcp.tool
        def issue(issue_id: str) -> dict:
            return tracker.get(f"/issues/{issue_id}")
        """,
        id="the-response-of-a-request-sent-with-secret-headers",
    ),
    pytest.param(
        """
        TOOLS = {"graph": {"env": "GRAPH_BIN"}}

        @mcp.tool
        def run(provider: str) -> dict:
            binary = os.environ.get(str(TOOLS[provider]["env"]), "")
            if not binary:
                return {"ok": False, "error": f"no binary for {provider}", "binary": binary}
            return {"ok": True}
        """,
        id="an-environment-variable-the-code-computes",
    ),
]


@pytest.mark.parametrize("body", FOUND_ON_UNSEEN_SERVERS)
def test_false_alarms_met_on_unseen_servers_stay_silent(body: str) -> None:
    check(FASTMCP + textwrap.dedent(body))


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(
            """
            class Api:
                def __init__(self, token: str) -> None:
                    self.token = token

                def fail(self) -> None:
                    raise ToolError(f"The service refused the token {self.token}")  # expect: MCP010

            api = Api(os.environ["SERVICE_TOKEN"])

            @mcp.tool
            def ping() -> str:
                api.fail()
                return "ok"
            """,
            id="an-attribute-filled-from-a-parameter-named-as-a-token",
        ),
        pytest.param(
            """
            class Api:
                def __init__(self) -> None:
                    self.session_token = None

                def login(self) -> None:
                    self.session_token = httpx.post("https://auth.example/login").json()["session"]

                def fail(self) -> None:
                    raise ToolError(f"The session {self.session_token} expired")  # expect: MCP010

            api = Api()

            @mcp.tool
            def ping() -> str:
                api.fail()
                return "ok"
            """,
            id="an-attribute-filled-from-a-library-answer",
        ),
        pytest.param(
            """
            class Lexer:
                def __init__(self) -> None:
                    self.tokens = os.environ["SERVICE_TOKENS"].split(",")

                def first(self) -> str:
                    for token in self.tokens:
                        raise ToolError(f"Token {token} is not valid")  # expect: MCP010
                    return ""

            @mcp.tool
            def check_tokens() -> str:
                return Lexer().first()
            """,
            id="a-loop-variable-over-what-the-environment-holds",
        ),
    ],
)
def test_a_value_named_like_a_secret_whose_flow_the_trace_cannot_clear_is_flagged(body: str) -> None:
    check(FASTMCP + textwrap.dedent(body))


def test_what_an_exception_class_hands_to_its_base_is_its_text() -> None:
    body = """
        BASE_URL = os.getenv("LAWS_API_URL", "https://laws.example.org/api")

        class LawsError(Exception):
            def __init__(self, code: str, message: str, details: object = None) -> None:
                self.code = code
                self.details = details
                text = f"{code}: {message}"
                super().__init__(text)

        def fetch(endpoint: str) -> dict:
            url = f"{BASE_URL}/{endpoint}"
            response = httpx.get(url)
            if response.status_code == 404:
                raise LawsError("NOT_FOUND", f"Nothing at {url}", details={"status": 404})  # expect: MCP010
            return response.json()

        @mcp.tool
        def law(law_id: str) -> dict:
            return fetch(f"laws/{law_id}")
        """
    check(FASTMCP + textwrap.dedent(body))


def test_an_exception_class_with_its_own_str_keeps_its_message_keywords_as_text() -> None:
    body = """
        BASE_URL = os.getenv("LAWS_API_URL", "https://laws.example.org/api")

        class LawsError(Exception):
            def __init__(self, message: str, details: object = None) -> None:
                self.details = details
                super().__init__(message)

            def __str__(self) -> str:
                return f"{self.args[0]} ({self.details})"

        def fetch(endpoint: str) -> dict:
            url = f"{BASE_URL}/{endpoint}"
            response = httpx.get(url)
            if response.status_code == 404:
                raise LawsError("No such law.", details={"url": url})  # expect: MCP010
            return response.json()

        @mcp.tool
        def law(law_id: str) -> dict:
            return fetch(f"laws/{law_id}")
        """
    check(FASTMCP + textwrap.dedent(body))


def test_the_working_directory_beside_a_name_in_a_dict_is_flagged_where_it_is_taken() -> None:
    body = """
        def current_project() -> dict:
            root = Path.cwd()
            return {"name": root.parts[-1], "root": str(root)}

        @mcp.tool
        def list_tasks(status: str) -> str:
            project = current_project()
            if status not in {"open", "done"}:
                raise ToolError(f"Project at {project['root']} has no status {status!r}")  # expect: MCP010
            return "..."
        """
    findings = check(FASTMCP + textwrap.dedent(body))
    assert findings[0].message == "Tool 'list_tasks' puts the server's working directory into its error message"


CLIENT = """
class Client:
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")

    def fetch(self, path: str) -> dict:
        url = f"{self.base_url}/api{path}"
        try:
            return httpx.get(url).json()
        except httpx.ConnectError:
            raise ToolError(f"Could not reach {url}")  # expect: MCP010
"""


MODULE_CLIENT = """
client = Client(os.environ["TRACKER_URL"])

@mcp.tool
def issue(path: str) -> dict:
    return client.fetch(path)
"""

SERVER_CLIENT = """
class Server:
    def start(self) -> None:
        self.client = Client(os.getenv("TRACKER_URL", ""))

server = Server()

@mcp.tool
def issue(path: str) -> dict:
    return server.client.fetch(path)
"""


@pytest.mark.parametrize(
    ("construction", "flagged"),
    [
        pytest.param(MODULE_CLIENT, True, id="module-level-from-the-environment"),
        pytest.param(SERVER_CLIENT, True, id="in-a-method-from-the-environment"),
        pytest.param(MODULE_CLIENT.replace('os.environ["TRACKER_URL"]', '"https://tracker.example.com"'), False, id="an-address-written-in-the-code"),
    ],
)
def test_an_attribute_filled_by_the_constructor_is_what_the_construction_passes(construction: str, flagged: bool) -> None:
    client = CLIENT if flagged else CLIENT.replace("  # expect: MCP010", "")
    findings = check(FASTMCP + client + construction)
    if flagged:
        assert findings[0].message == "Helper 'fetch' puts environment variable 'TRACKER_URL' into its error message"


def test_an_attribute_filled_by_the_constructor_from_the_models_argument_is_not_flagged() -> None:
    check(
        FASTMCP
        + CLIENT.replace("  # expect: MCP010", "")
        + textwrap.dedent(
            """
            @mcp.tool
            def issue(base_url: str, path: str) -> dict:
                return Client(base_url).fetch(path)
            """
        )
    )


# -- names and helpers of other modules (decided at link time from their module's records) -------

_PYPROJECT = '[project]\nname = "svc"\ndependencies = ["fastmcp>=2.12"]\n'
_TOOLS_HEAD = """\
import logging

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

{imports}

mcp = FastMCP("svc")
logger = logging.getLogger(__name__)
"""


def check_project(tmp_path: Path, modules: dict[str, str], imports: str, tools: str) -> list:
    """Lint package `svc` (its modules, and `svc/server.py` holding `tools` under `imports`) as
    `mcp-lint check` does; the findings' rows in server.py are the `# expect: MCP010` marks."""
    server = _TOOLS_HEAD.format(imports=imports) + textwrap.dedent(tools)
    files = {"pyproject.toml": _PYPROJECT, "svc/__init__.py": "", "svc/server.py": server}
    files.update({f"svc/{name}": textwrap.dedent(text) for name, text in modules.items()})
    write_tree(tmp_path, files)
    resolver = SettingsResolver(overrides={"select": ["MCP010"]})
    findings = lint_paths(discover([tmp_path], resolver), resolver).findings
    found = {(Path(f.filename).name, f.location.row) for f in findings}
    assert found == {("server.py", row) for _, row in expected(server)}, found
    return findings


_CONFIG = """\
import os
from pathlib import Path

from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    instance_url: str = "https://tracker.internal"
    api_token: str = ""
    max_results: int = 50


settings = Settings()
DATA_DIR = Path(os.environ["DATA_DIR"])
PAGE_SIZE = int(os.environ.get("PAGE_SIZE", "20"))
"""

_HELPERS = """\
import logging
import os
import traceback

from .config import settings

logger = logging.getLogger(__name__)


def unreachable_text() -> str:
    return f"the tracker at {settings.instance_url} did not answer"


def crash_report() -> str:
    return f"crashed:\\n{traceback.format_exc()}"


def cache_missing() -> str:
    return f"no cache in {os.environ['CACHE_DIR']}"


def logged_failure() -> str:
    logger.error("cache dir %s unreadable", os.environ["CACHE_DIR"])
    return "the cache could not be read; try again later"


def fetch_failed(url: str) -> str:
    return f"could not fetch {url}"
"""


def test_a_helper_of_another_module_that_returns_an_environment_value(tmp_path: Path) -> None:
    findings = check_project(
        tmp_path,
        {"config.py": _CONFIG, "helpers.py": _HELPERS},
        "from .helpers import cache_missing",
        """
        @mcp.tool
        def warm() -> str:
            raise ToolError(cache_missing())  # expect: MCP010
        """,
    )
    (finding,) = findings
    assert finding.message == "Tool 'warm' puts environment variable 'CACHE_DIR' into its error message"
    assert finding.notes[0] == "read at `os.environ['CACHE_DIR']` in cache_missing() (helpers.py)"
    # The read is a related location in the helper's file.
    assert [(Path(r.filename).name, r.location.row, r.message) for r in finding.related] == [("helpers.py", 19, "the value is read here")]


def test_a_helper_of_another_module_that_returns_a_traceback_or_a_settings_field(tmp_path: Path) -> None:
    findings = check_project(
        tmp_path,
        {"config.py": _CONFIG, "helpers.py": _HELPERS},
        "from .helpers import crash_report, unreachable_text",
        """
        @mcp.tool
        def sync() -> str:
            try:
                return run_sync()
            except TimeoutError:
                raise ToolError(unreachable_text())  # expect: MCP010
            except Exception:
                return {"error": crash_report()}  # expect: MCP010
        """,
    )
    assert [f.message for f in findings] == [
        "Tool 'sync' puts a configuration value ('settings.instance_url') into its error message",
        "Tool 'sync' puts a traceback into a failure it returns",
    ]


def test_helpers_of_another_module_that_log_the_detail_or_echo_the_models_url_are_not_flagged(tmp_path: Path) -> None:
    check_project(
        tmp_path,
        {"config.py": _CONFIG, "helpers.py": _HELPERS},
        "from .helpers import fetch_failed, logged_failure",
        """
        @mcp.tool
        def fetch(url: str) -> str:
            try:
                return download(url)
            except OSError:
                raise ToolError(fetch_failed(url))
            except Exception:
                raise ToolError(logged_failure())
        """,
    )


def test_a_configured_path_or_settings_object_imported_from_another_module(tmp_path: Path) -> None:
    findings = check_project(
        tmp_path,
        {"config.py": _CONFIG},
        "from .config import DATA_DIR, PAGE_SIZE, settings",
        """
        @mcp.tool
        def read_note(name: str) -> str:
            path = DATA_DIR / f"{name}.md"
            if not path.exists():
                raise ToolError(f"No note at {path}")  # expect: MCP010
            if len(name) > PAGE_SIZE:
                raise ToolError(f"Names are at most {PAGE_SIZE} characters; {settings.max_results} results at most")
            if not name:
                raise ToolError(f"Nothing to read at {settings.instance_url}")  # expect: MCP010
            return path.read_text()
        """,
    )
    assert findings[0].message == "Tool 'read_note' puts environment variable 'DATA_DIR' into its error message"
    assert findings[0].notes[0] == "read at `os.environ[\"DATA_DIR\"]` (config.py), then held in `DATA_DIR`, `path`"


def test_an_imported_name_the_project_does_not_define_is_not_flagged(tmp_path: Path) -> None:
    check_project(
        tmp_path,
        {"config.py": _CONFIG},
        "from .config import DATA_DIR\nfrom textwrap import shorten",
        """
        @mcp.tool
        def read_note(name: str) -> str:
            if not name:
                raise ToolError(shorten(f"no note named {name}", 40))
            return (DATA_DIR / name).read_text()
        """,
    )


# -- status reports: the configuration is their answer, a secret never is -----------------------

_STATUS = FASTMCP + """
from pydantic_settings import BaseSettings

class Settings(BaseSettings):
    instance_url: str = "https://tracker.internal"
    api_token: str = ""

settings = Settings()
TRACKER_DSN = "postgresql://tracker:s3cret@db.internal/tracker"
"""


def test_a_status_tool_may_report_the_configured_instance() -> None:
    check(
        _STATUS
        + textwrap.dedent(
            """
            def probe() -> dict:
                try:
                    httpx.get(settings.instance_url, timeout=5).raise_for_status()
                except httpx.HTTPError:
                    return {"authenticated": False, "error": "the tracker did not answer", "instance": settings.instance_url}
                return {"authenticated": True, "instance": settings.instance_url}

            @mcp.tool
            def get_status() -> dict:
                return probe()

            @mcp.tool
            def health_check() -> str:
                try:
                    httpx.get(os.environ["TRACKER_URL"], timeout=5)
                except httpx.HTTPError:
                    return f"Error: cannot reach {os.environ['TRACKER_URL']}"
                return "ok"
            """
        )
    )


def test_a_status_tool_never_reports_a_secret() -> None:
    findings = check(
        _STATUS
        + textwrap.dedent(
            """
            @mcp.tool
            def get_status() -> dict:
                try:
                    httpx.get(settings.instance_url, timeout=5).raise_for_status()
                except httpx.HTTPError:
                    return {"error": f"token {settings.api_token} was refused"}  # expect: MCP010
                return {"instance": settings.instance_url}

            @mcp.tool
            def check_database() -> str:
                try:
                    connect(TRACKER_DSN)
                except OSError:
                    return f"Error: cannot open {TRACKER_DSN}"  # expect: MCP010
                return "ok"

            @mcp.tool
            def list_issues() -> str:
                try:
                    return httpx.get(settings.instance_url).text
                except httpx.HTTPError:
                    return f"Error: cannot reach {settings.instance_url}"  # expect: MCP010
            """
        )
    )
    assert [f.message.split(" puts ")[1] for f in findings] == [
        "a secret ('settings.api_token') into a failure it returns",
        "a URL with credentials into a failure it returns",
        "a configuration value ('settings.instance_url') into a failure it returns",
    ]


# -- causes of misses and false alarms found on bench/blind010 (after its first scoring) -----------


def test_a_value_in_an_implicitly_concatenated_message_is_followed() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            def token_file() -> str:
                return os.getenv("TOKEN_FILE_PATH", "token.json")

            @mcp.tool
            def sync_calendar() -> str:
                target = token_file()
                raise ToolError(  # expect: MCP010
                    "No valid token was found at "
                    f"'{target}'. Run the sign-in command once in a terminal."
                )
            """
        )
    )


def test_a_path_returned_as_a_fallback_from_an_except_clause_is_not_a_message() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            def config_dir() -> Path:
                try:
                    return Path(os.environ["APP_CONFIG_DIR"])
                except KeyError:
                    return Path.home() / ".app"

            def describe_failure() -> str:
                try:
                    return load_state()
                except OSError:
                    return "state unreadable in " + str(Path.home())  # expect: MCP010

            @mcp.tool
            def show_settings() -> str:
                if not config_dir().exists():
                    raise ToolError("No configuration yet; run the setup tool first")
                return f"{describe_failure()} (configuration in {config_dir().name})"
            """
        )
    )


def test_a_tools_parameter_is_the_models_argument_whoever_else_calls_it() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            TRASH = os.environ.get("MAIL_TRASH_FOLDER", "Trash")

            @mcp.tool
            def move_message(uid: str, to_folder: str) -> str:
                if not copy(uid, to_folder):
                    raise ToolError(f"Could not copy message {uid} to '{to_folder}'")
                return f"Moved to {to_folder}"

            @mcp.tool
            def delete_message(uid: str) -> str:
                return move_message(uid, TRASH)

            def archive_all(uids: list[str]) -> None:
                for uid in uids:
                    move_one(uid, os.environ["ARCHIVE_DIR"])

            def move_one(uid: str, target: str) -> None:
                raise ToolError(f"Could not archive {uid} into {target}")  # expect: MCP010

            @mcp.tool
            def archive(uids: list[str]) -> str:
                archive_all(uids)
                return "archived"
            """
        )
    )


def test_a_helper_named_like_a_check_is_not_a_status_report() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            def validate_inside(path: str) -> Path:
                base = Path(os.getcwd()).resolve()
                resolved = (base / path).resolve()
                if not resolved.is_relative_to(base):
                    raise ValueError(f"{path} resolves outside {base}")  # expect: MCP010
                return resolved

            @mcp.tool
            def read_file(path: str) -> str:
                return validate_inside(path).read_text()
            """
        )
    )


def test_a_helper_of_another_module_that_raises_with_what_a_tool_passes(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": _PYPROJECT,
            "svc/__init__.py": "",
            "svc/config.py": _CONFIG,
            "svc/failures.py": textwrap.dedent(
                """\
                from fastmcp.exceptions import ToolError


                def unreachable(target: str) -> None:
                    raise ToolError(f"{target} did not answer")


                def not_found(name: str) -> None:
                    raise ToolError(f"No note named {name}")
                """
            ),
            "svc/server.py": _TOOLS_HEAD.format(imports="from .config import settings\nfrom .failures import not_found, unreachable")
            + textwrap.dedent(
                """
                @mcp.tool
                def sync() -> str:
                    base = settings.instance_url
                    unreachable(base)
                    return "synced"

                @mcp.tool
                def read_note(name: str) -> str:
                    not_found(name)
                    unreachable(name)
                    return ""
                """
            ),
        },
    )
    resolver = SettingsResolver(overrides={"select": ["MCP010"]})
    findings = lint_paths(discover([tmp_path], resolver), resolver).findings
    # Reported at the helper's raise, once; the tool's own argument passed there is not a leak.
    assert [(Path(f.filename).name, f.location.row) for f in findings] == [("failures.py", 5)]
    (finding,) = findings
    assert finding.message == "Helper 'unreachable' puts a configuration value ('settings.instance_url') into its error message"
    assert "read at `settings.instance_url` in sync() (server.py), then held in `base`, `target`" in finding.notes
    assert [(Path(r.filename).name, r.location.row) for r in finding.related][:1] == [("server.py", 14)]


def test_a_client_of_another_module_constructed_with_a_configured_url(tmp_path: Path) -> None:
    client = textwrap.dedent(
        """\
        import httpx
        from fastmcp.exceptions import ToolError


        class Client:
            def __init__(self, base_url: str, timeout: float = 10.0) -> None:
                self.base_url = base_url
                self.timeout = timeout

            def fetch(self, path: str) -> dict:
                try:
                    return httpx.get(f"{self.base_url}{path}", timeout=self.timeout).json()
                except httpx.ConnectError:
                    raise ToolError(f"Could not reach {self.base_url}")
        """
    )
    tools = """
        def client() -> Client:
            return Client(os.environ["TRACKER_URL"])

        @mcp.tool
        def issue(issue_id: str) -> dict:
            return client().fetch(f"/issues/{issue_id}")
        """

    def lint(root: Path, tools: str) -> list:
        server = _TOOLS_HEAD.format(imports="import os\nfrom .client import Client") + textwrap.dedent(tools)
        write_tree(root, {"pyproject.toml": _PYPROJECT, "svc/__init__.py": "", "svc/server.py": server, "svc/client.py": client})
        resolver = SettingsResolver(overrides={"select": ["MCP010"]})
        return lint_paths(discover([root], resolver), resolver).findings

    findings = lint(tmp_path / "configured", tools)
    assert [(Path(f.filename).name, f.location.row) for f in findings] == [("client.py", 14)]
    assert findings[0].message == "Helper 'fetch' puts environment variable 'TRACKER_URL' into its error message"
    # Built from the tool's own argument, the same client leaks nothing.
    given = tools.replace("def client() -> Client:", "def client(url: str) -> Client:").replace('Client(os.environ["TRACKER_URL"])', "Client(url)")
    assert lint(tmp_path / "given", given.replace("client().fetch", "client(issue_id).fetch")) == []


def test_an_item_of_a_dict_another_module_returns_is_judged_on_its_own(tmp_path: Path) -> None:
    resolved = _CONFIG + textwrap.dedent(
        """

        def resolved_config() -> dict:
            return {"token": settings.api_token, "api_url": settings.instance_url, "page_size": PAGE_SIZE}
        """
    )
    findings = check_project(
        tmp_path,
        {"config.py": resolved},
        "from .config import resolved_config",
        """
        @mcp.tool
        def list_items(page: int) -> str:
            config = resolved_config()
            if page > config["page_size"]:
                raise ToolError(f"Pages go up to {config['page_size']}")
            raise ToolError(f"Nothing at {config['api_url']}")  # expect: MCP010
        """,
    )
    # The URL beside the token is what is sent, not the token.
    assert findings[0].message == "Tool 'list_items' puts a configuration value ('settings.instance_url') into its error message"


def test_a_function_of_another_module_returns_only_what_it_passes_on(tmp_path: Path) -> None:
    helpers = """\
    import yaml


    def default_account(accounts_file: str) -> str:
        with open(accounts_file) as handle:
            return yaml.safe_load(handle)["default"]


    def unreachable_text(target: str) -> str:
        return f"{target} did not answer"
    """
    check_project(
        tmp_path,
        {"config.py": _CONFIG, "helpers.py": helpers},
        "import os\nfrom .helpers import default_account, unreachable_text",
        """
        @mcp.tool
        def send(to: str) -> str:
            accounts = os.environ["ACCOUNTS_FILE"]
            account = default_account(accounts)
            if not to:
                raise ToolError(f"No recipient given for account {account}")
            raise ToolError(unreachable_text(accounts))  # expect: MCP010
        """,
    )


# -- a command-line option through a closure, sent on in a protocol error -----------------------

_ENTRY = """\
import argparse
import asyncio

from . import server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--{option}", type=str)
    args = parser.parse_args()
    asyncio.run(server.serve(args.{option}))
"""

_LOW_LEVEL = """\
import os

from mcp.server.lowlevel import Server
from mcp.shared.exceptions import McpError
from mcp.types import INTERNAL_ERROR, ErrorData, TextContent


def read_attachment(folder: str, name: str) -> bytes:
    path = os.path.join(folder, name)
    if not os.path.isfile(path):
        raise ValueError(f"{{path}} does not exist")
    with open(path, "rb") as handle:
        return handle.read()


async def serve({option}: str) -> None:
    app = Server("mail")

    @app.call_tool()
    async def call_tool(name: str, arguments: dict) -> list[TextContent]:
        try:
            data = read_attachment({option}, arguments["file"])
        except Exception as e:
            raise {raised}
        return [TextContent(type="text", text=f"{{len(data)}} bytes")]
"""


def _cli_findings(root: Path) -> list[dict]:
    import json

    from click.testing import CliRunner

    from mcp_lint.cli import cli

    result = CliRunner().invoke(
        cli, ["check", str(root), "--no-cache", "--jobs", "1", "--output-format", "json", "--select", "MCP010"], catch_exceptions=False
    )
    return json.loads(result.output)


def _mail_project(tmp_path: Path, option: str = "dir", raised: str = "McpError(ErrorData(code=INTERNAL_ERROR, message=str(e)))") -> Path:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "mail"\ndependencies = ["mcp>=1.9,<2"]\n',
            "mail/__init__.py": _ENTRY.format(option=option),
            "mail/server.py": _LOW_LEVEL.format(option=option, raised=raised),
        },
    )
    return tmp_path


def test_a_command_line_folder_through_a_closure_sent_on_in_a_protocol_error(tmp_path: Path) -> None:
    """The operator's `--dir` reaches `serve`, whose nested `call_tool` hands it to a helper that
    raises with it; the clause sends the text on as the protocol error's message (a prefiltered
    run: the entry module is analysed because the finding waits on `serve`'s callers)."""
    (finding,) = _cli_findings(_mail_project(tmp_path))
    assert (Path(finding["filename"]).name, finding["location"]["row"]) == ("server.py", 11)
    assert finding["message"] == "Helper 'read_attachment' puts a configuration value ('args.dir') into an exception's text"
    assert "read at `args.dir` in main() (__init__.py), then held in `dir`, `folder`, `path`" in finding["notes"]
    passed_on = [note for note in finding["notes"] if note.startswith("caught and sent on to the model: ")]
    assert passed_on and "tool 'call_tool' puts it into a protocol error's message (" in passed_on[0]
    assert passed_on[0].endswith("mail/server.py:24)")  # the clause's `raise McpError(...)`


def test_a_command_line_option_that_names_no_place_is_not_flagged(tmp_path: Path) -> None:
    assert _cli_findings(_mail_project(tmp_path, option="label")) == []


def test_a_clause_that_sends_its_own_words_in_the_protocol_error_is_not_flagged(tmp_path: Path) -> None:
    raised = 'McpError(ErrorData(code=INTERNAL_ERROR, message="The attachment could not be read"))'
    assert _cli_findings(_mail_project(tmp_path, raised=raised)) == []


def test_a_closure_variable_the_enclosing_function_sets_itself() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            def make_tools(server: FastMCP) -> None:
                data_dir = os.environ["DATA_DIR"]
                label = "reports"

                @server.tool
                def read_report(name: str) -> str:
                    path = os.path.join(data_dir, name)
                    if not os.path.exists(path):
                        raise ToolError(f"No report at {path}")  # expect: MCP010
                    if not name.endswith(".txt"):
                        raise ToolError(f"Only text files are {label}")
                    return open(path).read()

            make_tools(mcp)
            """
        )
    )


# -- two names of other modules in one message -----------------------------------------------------

_TEXTS = """\
PREFIX = "Lookup failed"
"""

_PLACES = """\
import os

DATA_DIR = os.environ["DATA_DIR"]
ARCHIVE = "archive"
"""


@pytest.mark.parametrize(
    ("names", "flagged"),
    [
        ("PREFIX, DATA_DIR", True),  # the first name carries nothing: the second is still tried
        ("DATA_DIR, PREFIX", True),
        ("PREFIX, ARCHIVE", False),  # neither carries anything
    ],
)
def test_a_message_with_two_names_of_other_modules(tmp_path: Path, names: str, flagged: bool) -> None:
    first, second = names.split(", ")
    mark = "  # expect: MCP010" if flagged else ""
    findings = check_project(
        tmp_path,
        {"texts.py": _TEXTS, "places.py": _PLACES},
        "from .texts import PREFIX\nfrom .places import ARCHIVE, DATA_DIR",
        f"""
        @mcp.tool
        def read_note(name: str) -> str:
            raise ToolError(f"{{{first}}}: no note {{name}} in {{{second}}}"){mark}
        """,
    )
    if flagged:
        assert [f.message for f in findings] == ["Tool 'read_note' puts environment variable 'DATA_DIR' into its error message"]
        assert findings[0].notes[0] == "read at `os.environ[\"DATA_DIR\"]` (places.py), then held in `DATA_DIR`"


# -- an unpacked element of a helper's result ------------------------------------------------------


def test_an_unpacked_element_of_a_result_is_judged_as_that_element() -> None:
    """`token, name = upload(path)`: `name` is the file's name, not the token beside it; `token`
    is still judged by its name, and a literal's element by its value."""
    check(
        FASTMCP
        + textwrap.dedent(
            """
            def upload(path: str) -> tuple[str, str]:
                response = httpx.post("https://files.example.com/uploads", content=open(path, "rb").read())
                token = response.json()["upload_token"]
                return token, os.path.basename(path)

            @mcp.tool
            def attach(path: str, issue: int) -> str:
                token, name = upload(path)
                try:
                    httpx.put(f"https://files.example.com/issues/{issue}", json={"token": token})
                except httpx.HTTPError:
                    return f"Uploaded '{name}', but linking it to issue {issue} failed"
                return "attached"

            @mcp.tool
            def attach_again(path: str, issue: int) -> str:
                token, name = upload(path)
                return f"Could not link upload {token}"  # expect: MCP010

            @mcp.tool
            def where(issue: int) -> str:
                folder, label = os.environ["UPLOAD_DIR"], "uploads"
                if issue < 0:
                    raise ToolError(f"No {label} for issue {issue} in {folder}")  # expect: MCP010
                return label
            """
        )
    )


def test_only_the_message_arguments_of_a_raised_exception_are_its_text() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            class TaskError(Exception):
                def __init__(self, message: str, *, file_path: Path | None = None, detail: str = "", hint: str = "") -> None:
                    super().__init__(message if not detail else f"{message}: {detail}")
                    self.file_path = file_path
                    self.hint = hint  # the tools return it beside the message

            @mcp.tool
            def read_task(ref: str) -> str:
                path = Path.home() / ".tasks" / ref
                if not path.exists():
                    raise TaskError(f"No task {ref}", file_path=path)
                if path.is_dir():
                    raise TaskError(f"Task {ref} is a folder", detail=f"found at {path}")  # expect: MCP010
                if path.is_symlink():
                    raise TaskError(f"Task {ref} is a link", hint=f"replace the link at {path}")  # expect: MCP010
                return path.read_text()
            """
        )
    )


# -- fields of a configuration object made by a factory ---------------------------------------------


_FACTORY = """
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Options:
        service_url: str = "https://svc.example"
        service_key: str = ""
        page_size: int = 20

        @classmethod
        def load(cls, env: dict[str, str] | None = None) -> "Options":
            env = os.environ if env is None else env
            url = (env.get("SVC_SERVICE_URL") or "").strip() or "https://svc.example"
            return cls(service_url=url.rstrip("/"), service_key=env.get("SVC_KEY", ""), page_size=int(env.get("SVC_PAGE", "20")))

    class Client:
        def __init__(self, options: Options | None = None) -> None:
            self.options = options or Options.load()

        def fetch(self, ref: str) -> dict:
            try:
                return httpx.get(f"{self.options.service_url}/items/{ref}").json()
            except httpx.HTTPError:
                raise ToolError(f"Could not reach {self.options.service_url}")  # expect: MCP010

        def page(self, ref: str) -> dict:
            try:
                return httpx.get(f"https://svc.example/items/{ref}").json()
            except httpx.HTTPError:
                raise ToolError(f"Page {self.options.page_size} of {ref} is unavailable")

    client = Client()

    @mcp.tool
    def get_item(ref: str) -> dict:
        return client.fetch(ref)

    @mcp.tool
    def get_page(ref: str) -> dict:
        return client.page(ref)
    """


def test_a_field_given_by_a_classmethod_factory_from_the_environment() -> None:
    check(FASTMCP + textwrap.dedent(_FACTORY))


def test_a_field_the_factory_fills_from_its_own_words_is_silent() -> None:
    # The same client, its factory filling the URL from the author's constant only, and a field
    # the environment fills that is no place (a page size): nothing of the server's setup leaks.
    source = _FACTORY.replace('(env.get("SVC_SERVICE_URL") or "").strip() or "https://svc.example"', '"https://svc.example"')
    source = source.replace("  # expect: MCP010", "")
    check(FASTMCP + textwrap.dedent(source))


def test_a_mapping_get_is_an_environment_read_only_when_the_local_holds_the_environment() -> None:
    check(
        FASTMCP
        + textwrap.dedent(
            """
            def settings_url(given: dict[str, str]) -> str:
                env = os.environ
                return env.get("SVC_SERVICE_URL", "")

            def option_url(given: dict[str, str]) -> str:
                env = dict(given)
                return env.get("SVC_SERVICE_URL", "")

            @mcp.tool
            def fetch_page(ref: str) -> str:
                try:
                    return httpx.get(ref).text
                except httpx.HTTPError:
                    raise ToolError(f"No answer from {settings_url({})}")  # expect: MCP010

            @mcp.tool
            def fetch_given_page(ref: str) -> str:
                try:
                    return httpx.get(ref).text
                except httpx.HTTPError:
                    raise ToolError(f"No answer from {option_url({'SVC_SERVICE_URL': ref})}")
            """
        )
    )


_MAIL_CONFIG = """\
from pydantic import BaseModel
from pydantic_settings import BaseSettings


class MailServer(BaseModel):
    host: str
    port: int = 993
    user_name: str = ""
    retry_count: int = 0


class Account(BaseModel):
    incoming: MailServer
    label: str = ""


class Settings(BaseSettings):
    accounts: list[Account] = []


class Draft(BaseModel):
    host: str = ""
"""

_MAIL_CLIENT = """\
import logging

from svc.config import Draft, MailServer

logger = logging.getLogger(__name__)


class MailError(Exception):
    pass


class Mailbox:
    def __init__(self, server: MailServer) -> None:
        self.server = server

    def connect(self, server: MailServer | None = None, draft: Draft | None = None) -> None:
        server = server or self.server
        host = server.host
        try:
            open_socket(host, server.port)
        except OSError as e:
            raise MailError(f"Cannot reach the mail server {host}:{server.port}") from e
        if draft is not None:
            raise MailError(f"Draft for {draft.host} was not sent")
        if server.retry_count < 0:
            raise MailError(f"Bad retry count {server.retry_count}")


def open_socket(host: str, port: int) -> None:
    pass
"""


def test_a_field_of_a_settings_part_of_another_module_typed_on_a_helper_parameter(tmp_path: Path) -> None:
    # `MailServer` is the type of a field of the settings (through `Account`): its host is the
    # server's configuration. `Draft` is a model of the module outside the settings, and a
    # count is no place: both silent.
    server = _TOOLS_HEAD.format(imports="from svc.mail import Mailbox\nfrom svc.config import MailServer") + textwrap.dedent(
        """
        box = Mailbox(MailServer(host="mail.example"))

        @mcp.tool
        def read_inbox() -> str:
            box.connect()
            return "ok"
        """
    )
    files = {"pyproject.toml": _PYPROJECT, "svc/__init__.py": "", "svc/server.py": server, "svc/config.py": _MAIL_CONFIG, "svc/mail.py": _MAIL_CLIENT}
    write_tree(tmp_path, files)
    resolver = SettingsResolver(overrides={"select": ["MCP010"]})
    findings = lint_paths(discover([tmp_path], resolver), resolver).findings
    raise_row = _MAIL_CLIENT.splitlines().index('            raise MailError(f"Cannot reach the mail server {host}:{server.port}") from e') + 1
    assert [(Path(f.filename).name, f.location.row) for f in findings] == [("mail.py", raise_row)]
    assert "a configuration value ('server.host')" in findings[0].message
    # The same helper with the field typed as a model outside the settings: silent.
    write_tree(tmp_path, {**files, "svc/config.py": _MAIL_CONFIG.replace("    incoming: MailServer\n", "    incoming: str\n")})
    assert lint_paths(discover([tmp_path], resolver), resolver).findings == []


_STORE_CORE = """\
def open_store(store_path: str) -> dict:
    if not store_path.endswith(".db"):
        raise ValueError(f"No store at {store_path}")
    return {}
"""

_STORE_CLI = """\
import argparse

from svc import core


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--store-path")
    args = parser.parse_args()
    print(core.open_store(args.store_path))
"""


def test_a_helper_parameter_holds_what_callers_on_the_tools_way_pass(tmp_path: Path) -> None:
    # The tool passes its own argument; a command-line script of the package passes its option
    # to the same helper: that is not the way the model reaches it. Silent.
    tools = """
        @mcp.tool
        def read_store(store_path: str) -> dict:
            return core.open_store(store_path)
        """
    check_project(tmp_path, {"core.py": _STORE_CORE, "cli.py": _STORE_CLI}, "from svc import core", tools)


def test_a_helper_parameter_given_configuration_by_a_caller_on_the_tools_way(tmp_path: Path) -> None:
    # The same helper, called by a function the tool reaches with the configured path: flagged
    # at the helper's raise.
    tools = """
        from svc.store import read_default

        @mcp.tool
        def read_store() -> dict:
            return read_default()
        """
    store = "import os\n\nfrom svc import core\n\n\ndef read_default() -> dict:\n    return core.open_store(os.environ['STORE_PATH'])\n"
    files = {"pyproject.toml": _PYPROJECT, "svc/__init__.py": "", "svc/core.py": _STORE_CORE, "svc/cli.py": _STORE_CLI, "svc/store.py": store}
    files["svc/server.py"] = _TOOLS_HEAD.format(imports="") + textwrap.dedent(tools)
    write_tree(tmp_path, files)
    resolver = SettingsResolver(overrides={"select": ["MCP010"]})
    findings = lint_paths(discover([tmp_path], resolver), resolver).findings
    assert [(Path(f.filename).name, f.location.row) for f in findings] == [("core.py", 3)]
    assert "environment variable 'STORE_PATH'" in findings[0].message


_DATACLASS_CLIENT = """
    from dataclasses import dataclass, field

    @dataclass(frozen=True)
    class Options:
        service_url: str = "https://svc.example"

        @classmethod
        def load(cls) -> "Options":
            return cls(service_url=os.environ.get("SVC_SERVICE_URL", "https://svc.example"))

    @dataclass
    class Client:
        options: Options = field(default_factory=Options.load)

        def fetch(self, ref: str) -> dict:
            try:
                return httpx.get(f"{self.options.service_url}/items/{ref}").json()
            except httpx.HTTPError:
                raise ToolError(f"Could not reach {self.options.service_url}")  # expect: MCP010

    client = Client()

    @mcp.tool
    def get_item(ref: str) -> dict:
        return client.fetch(ref)
    """


def test_a_dataclass_field_whose_default_factory_reads_the_environment() -> None:
    check(FASTMCP + textwrap.dedent(_DATACLASS_CLIENT))


def test_a_dataclass_field_whose_default_is_the_authors_constant_is_silent() -> None:
    source = _DATACLASS_CLIENT.replace('os.environ.get("SVC_SERVICE_URL", "https://svc.example")', '"https://svc.example"')
    check(FASTMCP + textwrap.dedent(source.replace("  # expect: MCP010", "")))
    plain = _DATACLASS_CLIENT.replace("field(default_factory=Options.load)", 'field(default=Options(service_url="https://svc.example"))')
    check(FASTMCP + textwrap.dedent(plain.replace("  # expect: MCP010", "")))


# -- comprehensions -------------------------------------------------------------------------------

_LISTING = """
NOTES = Path(os.environ["NOTES_DIR"])
SETTINGS = {{"notes": {{"api_key": os.environ["NOTES_API_KEY"]}}}}


@mcp.tool
def open_note(name: str) -> str:
    if not (NOTES / name).is_file():
        raise ToolError(f"No note {{name!r}}; there are: {{ {listed} }}"){mark}
    return (NOTES / name).read_text()
"""


@pytest.mark.parametrize(
    "listed",
    [
        "[str(p) for p in NOTES.iterdir()]",
        "', '.join(f'{p}' for p in NOTES.glob('*.md'))",
        "{p.stem: str(p) for p in NOTES.iterdir()}",
    ],
)
def test_a_comprehension_over_the_configured_folder_that_sends_its_paths(listed: str) -> None:
    findings = check(FASTMCP + _LISTING.format(listed=listed, mark="  # expect: MCP010"))
    assert findings[0].message == "Tool 'open_note' puts environment variable 'NOTES_DIR' into its error message"


@pytest.mark.parametrize(
    "listed",
    [
        "[p.name for p in NOTES.iterdir()]",  # the notes' own names
        "', '.join(sorted(p.stem for p in NOTES.glob('*.md')))",
        "', '.join(sorted(SETTINGS))",  # a mapping's keys: the names of what is configured
        "[word for word in name.split('/')]",  # the tool's own argument
        "len([p for p in NOTES.iterdir()])",
    ],
)
def test_a_comprehension_that_sends_names_or_the_tool_s_own_input_is_silent(listed: str) -> None:
    check(FASTMCP + _LISTING.format(listed=listed, mark=""))


def test_a_generator_of_the_environment_s_values_in_a_message() -> None:
    source = """
    @mcp.tool
    def show_setting(prefix: str) -> str:
        raise ToolError("No such setting; set: " + ", ".join(f"{k}={v}" for k, v in os.environ.items() if k.startswith(prefix)))  # expect: MCP010
    """
    findings = check(FASTMCP + textwrap.dedent(source))
    assert findings[0].message == "Tool 'show_setting' puts the server's environment variables into its error message"
    names_only = source.replace('f"{k}={v}" for k, v in os.environ.items()', "k for k in os.environ").replace("  # expect: MCP010", "")
    check(FASTMCP + textwrap.dedent(names_only))


# -- a record an exception keeps, sent on by a catching clause of another module -----------------

_POLICY = """\
import os
from pathlib import Path

ROOT = Path(os.environ.get("NOTES_ROOT", "."))


class PolicyError(ValueError):
    def __init__(self, code: str, message: str, details: dict | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}


def check_note(name: str) -> Path:
    path = (ROOT / name).resolve()
    if not path.is_relative_to(ROOT):
        raise PolicyError("outside", "The note is outside the notes folder.", {"root": str(ROOT)})
    return path
"""

_CATCHING_TOOL = """
@mcp.tool
def read_note(name: str) -> dict:
    try:
        path = check_note(name)
    except PolicyError as exc:
        {handled}
    return {{"ok": True, "text": path.read_text()}}
"""


def _record_findings(tmp_path: Path, handled: str) -> list:
    files = {"pyproject.toml": _PYPROJECT, "svc/__init__.py": "", "svc/policy.py": _POLICY}
    files["svc/server.py"] = _TOOLS_HEAD.format(imports="from svc.policy import PolicyError, check_note") + textwrap.dedent(_CATCHING_TOOL.format(handled=handled))
    write_tree(tmp_path, files)
    resolver = SettingsResolver(overrides={"select": ["MCP010"]})
    return lint_paths(discover([tmp_path], resolver), resolver).findings


@pytest.mark.parametrize(
    "handled",
    [
        'return {"ok": False, "code": exc.code, "message": exc.message, "details": exc.details}',
        'response = {"ok": False, "error": exc.message, "details": getattr(exc, "details", None)}\n        return response',
    ],
)
def test_a_record_an_exception_keeps_is_a_leak_where_a_clause_sends_it_on(tmp_path: Path, handled: str) -> None:
    findings = _record_findings(tmp_path, handled)
    assert [(Path(f.filename).name, f.location.row) for f in findings] == [("policy.py", 18)]
    assert findings[0].message == "Helper 'check_note' puts environment variable 'NOTES_ROOT' into the `details` its exception keeps"
    assert "kept in the exception's `details`, which a clause catching it sends to the model (server.py)" in said(findings[0])


@pytest.mark.parametrize(
    "handled",
    [
        'return {"ok": False, "code": exc.code, "message": exc.message}',  # the record stays on the server
        'logger.warning("refused: %s", exc.details)\n        return {"ok": False, "message": exc.message}',
    ],
)
def test_a_record_no_clause_sends_on_stays_on_the_server(tmp_path: Path, handled: str) -> None:
    assert _record_findings(tmp_path, handled) == []


# -- a constructor called as another module is imported; several callers of one parameter ------------

_BOARD_CLIENT = """\
import requests


class BoardError(Exception):
    pass


class BoardClient:
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url

    def fetch(self, path: str) -> dict:
        try:
            return requests.get(f"{self.base_url}{path}", timeout=5).json()
        except requests.RequestException as e:
            raise BoardError(f"Request to {self.base_url}{path} failed") from e
"""


def _board_findings(tmp_path: Path, server: str) -> list:
    files = {"pyproject.toml": _PYPROJECT, "svc/__init__.py": "", "svc/client.py": _BOARD_CLIENT, "svc/server.py": textwrap.dedent(server)}
    files["svc/addresses.py"] = 'PUBLIC_URL = "https://boards.example.com"\n'  # another module's name: decided at link time
    write_tree(tmp_path, files)
    resolver = SettingsResolver(overrides={"select": ["MCP010"]})
    return lint_paths(discover([tmp_path], resolver), resolver).findings


_BOARD_SERVER = """\
import os

from fastmcp import FastMCP

from svc.client import BoardClient

mcp = FastMCP("svc")
{made}


@mcp.tool
def get_card(card_id: str) -> dict:
    return CLIENT.fetch(f"/cards/{{card_id}}")
"""


def test_a_client_constructed_as_the_server_module_is_imported_carries_what_it_is_given(tmp_path: Path) -> None:
    findings = _board_findings(tmp_path, _BOARD_SERVER.format(made='CLIENT = BoardClient(os.environ["BOARD_URL"])'))
    assert [(Path(f.filename).name, f.location.row) for f in findings] == [("client.py", 16)]
    assert findings[0].message == "Helper 'fetch' puts environment variable 'BOARD_URL' into an exception's text"


def test_one_caller_with_nothing_sensitive_does_not_hide_another_that_passes_a_setting(tmp_path: Path) -> None:
    made = 'from svc.addresses import PUBLIC_URL\nPUBLIC = BoardClient(PUBLIC_URL)\nCLIENT = BoardClient(os.environ["BOARD_URL"])'
    findings = _board_findings(tmp_path, _BOARD_SERVER.format(made=made))
    assert [(Path(f.filename).name, f.location.row) for f in findings] == [("client.py", 16)]


@pytest.mark.parametrize(
    "made",
    [
        'CLIENT = BoardClient("https://boards.example.com")',
        # a script's way in, never the tools'
        'CLIENT = BoardClient("https://boards.example.com")\nif __name__ == "__main__":\n    BoardClient(os.environ["BOARD_URL"]).fetch("/")',
    ],
)
def test_a_client_constructed_with_a_public_address_or_only_by_a_script_is_silent(tmp_path: Path, made: str) -> None:
    assert _board_findings(tmp_path, _BOARD_SERVER.format(made=made)) == []
