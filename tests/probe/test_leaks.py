"""Check 2's scan of error texts."""

from __future__ import annotations

import pytest

from mcp_lint.probe.leaks import find_leaks, secret_values

TRACEBACK = 'Traceback (most recent call last):\n  File "/srv/app/orders.py", line 12, in get_order\n    row = db.fetch(order_id)\nKeyError: 7'


def kinds(text: str, secrets: list[str] | None = None, paths: list[str] | None = None) -> list[str]:
    return [leak.kind for leak in find_leaks(text, secrets or [], paths or [])]


def test_a_traceback_and_its_paths_are_leaks() -> None:
    assert kinds(TRACEBACK) == ["a stack trace", "an absolute path"]


@pytest.mark.parametrize(
    "text",
    [
        "[Errno 2] No such file or directory: '/home/deploy/app/data/orders.db'",
        "could not open /var/lib/app/state.json",
        "FileNotFoundError: C:\\Users\\deploy\\app\\orders.db",
    ],
)
def test_machine_paths_are_leaks(text: str) -> None:
    assert kinds(text) == ["an absolute path"]


@pytest.mark.parametrize(
    "text",
    [
        "GET https://api.example.com/v1/orders/7 returned 404",
        "Order 7 not found; call list_orders to see valid ids",
        "start_date must be YYYY-MM-DD, got 2024/01/01",
        "Use the /search command or the api/v2/items endpoint",
    ],
)
def test_urls_and_ordinary_texts_are_not_leaks(text: str) -> None:
    assert kinds(text) == []


def test_the_server_working_directory_is_a_leak_wherever_it_is() -> None:
    assert kinds("cannot write /scratch/run-1/out.csv", paths=["/scratch/run-1"]) == ["an absolute path"]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("upstream said: invalid key sk-proj-abcdefghijklmnopqrstuvwx", "an OpenAI-style API key"),
        ("auth failed for ghp_abcdefghijklmnopqrstuvwxyz0123456789", "a GitHub token"),
        ("headers: Authorization: Bearer abcdefghijklmnop1234", "a bearer token"),
        ("config error: password=hunter22hunter", "a credential assignment"),
        ("key AKIAABCDEFGHIJKLMNOP is disabled", "an AWS access key id"),
    ],
)
def test_tokens_are_leaks(text: str, kind: str) -> None:
    assert kinds(text) == [kind]


def test_a_found_token_is_masked_in_the_report() -> None:
    (leak,) = find_leaks("invalid key sk-proj-abcdefghijklmnopqrstuvwx")
    assert "abcdefghijklmnop" not in leak.describe()


@pytest.mark.parametrize(
    "text",
    [
        "could not connect to postgresql://app:s3cret@db.internal:5432/orders",
        "redis://cache.internal:6379/0 refused the connection",
        "https://deploy:hunter2@git.example.com/repo.git: 403",
    ],
)
def test_connection_strings_are_leaks(text: str) -> None:
    assert "a connection string" in kinds(text)


def test_values_of_secret_named_variables_are_leaks() -> None:
    environment = {"ORDERS_API_TOKEN": "tok-91d2f0a7", "HOME": "/root", "LANG": "C.UTF-8", "DB_PASSWORD": "abc"}
    secrets = secret_values(environment, extra=["custom-value-1"])
    assert secrets == ["custom-value-1", "tok-91d2f0a7"]  # "abc" is too short to tell from text
    assert kinds("upstream refused token tok-91d2f0a7", secrets) == ["a value of the server's environment"]
    assert kinds("Order 7 not found", secrets) == []


def test_author_names_are_not_secrets() -> None:
    assert secret_values({"GIT_AUTHOR_NAME": "Ada Lovelace", "GITHUB_AUTH": "gha-0123456789"}) == ["gha-0123456789"]
