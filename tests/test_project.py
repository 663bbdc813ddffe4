"""Declared MCP framework dependencies, read from a project's metadata files."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_lint import project
from mcp_lint.project import (
    DeclaredDeps,
    Pin,
    declared_dependencies,
    fingerprint,
    parse_target,
)


@pytest.fixture(autouse=True)
def _fresh_cache():
    project.clear_cache()
    yield
    project.clear_cache()


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def pins(start: Path) -> dict[str, tuple[str, str]]:
    """distribution -> (specifier, source), with sources relative to start's tree for brevity."""
    return {p.distribution: (p.specifier, p.source) for p in declared_dependencies(start).pins}


# --- pyproject.toml ---------------------------------------------------------------------------


def test_pep621_dependencies_with_extras_and_markers(tmp_path: Path) -> None:
    pyproject = write(
        tmp_path / "pyproject.toml",
        """
[project]
name = "weather-server"
dependencies = [
    "mcp[cli]>=1.9,<2",
    "httpx>=0.27",
    "FastMCP_Slim >= 3.0 ; python_version >= '3.10'",
]
""",
    )
    assert declared_dependencies(tmp_path) == DeclaredDeps(
        (
            Pin("fastmcp-slim", ">=3.0", str(pyproject)),
            Pin("mcp", ">=1.9,<2", str(pyproject)),
        )
    )


def test_optional_dependencies_count_only_when_nothing_else_names_the_distribution(
    tmp_path: Path,
) -> None:
    pyproject = write(
        tmp_path / "pyproject.toml",
        """
[project]
name = "tools"
dependencies = ["mcp>=1.9"]
[project.optional-dependencies]
cli = ["mcp[cli]>=1.12"]
server = ["fastmcp~=2.10"]
""",
    )
    assert pins(tmp_path) == {
        "mcp": (">=1.9", str(pyproject)),  # the extra's narrower range is not always installed
        "fastmcp": ("~=2.10", str(pyproject)),
    }


def test_dependency_groups_ignore_include_group_tables(tmp_path: Path) -> None:
    write(
        tmp_path / "pyproject.toml",
        """
[dependency-groups]
test = ["pytest>=8"]
dev = [{include-group = "test"}, "mcp-types==0.4.1", "fastmcp>=2.8,<3"]
""",
    )
    assert {d: s for d, (s, _) in pins(tmp_path).items()} == {
        "mcp-types": "==0.4.1",
        "fastmcp": ">=2.8,<3",
    }


def test_uv_constraint_dependencies_intersect_with_project_dependencies(tmp_path: Path) -> None:
    write(
        tmp_path / "pyproject.toml",
        """
[project]
name = "srv"
dependencies = ["mcp>=1.6"]
[tool.uv]
constraint-dependencies = ["mcp<1.10"]
""",
    )
    assert declared_dependencies(tmp_path).get("mcp").specifier == ">=1.6,<1.10"


@pytest.mark.parametrize(
    ("constraint", "expected"),
    [
        ('"^1.2"', ">=1.2,<2"),
        ('"^0.3"', ">=0.3,<0.4"),
        ('"^0.0.3"', ">=0.0.3,<0.0.4"),
        ('"~1.2"', ">=1.2,<1.3"),
        ('"~1"', ">=1,<2"),
        ('"*"', ""),
        ('"1.9.4"', "==1.9.4"),
        ('">= 1.8, < 2"', ">=1.8,<2"),
        ('{version = "^2.3", extras = ["cli"]}', ">=2.3,<3"),
        ('{git = "https://github.com/modelcontextprotocol/python-sdk.git"}', ""),
    ],
)
def test_poetry_constraints_become_pep440(tmp_path: Path, constraint: str, expected: str) -> None:
    write(
        tmp_path / "pyproject.toml",
        f"""
[tool.poetry]
name = "srv"
[tool.poetry.dependencies]
python = "^3.10"
mcp = {constraint}
""",
    )
    assert declared_dependencies(tmp_path).get("mcp").specifier == expected


def test_poetry_group_dependencies_and_optional_dependencies(tmp_path: Path) -> None:
    write(
        tmp_path / "pyproject.toml",
        """
[tool.poetry.dependencies]
python = "^3.10"
fastmcp = {version = "^2.0", optional = true}
[tool.poetry.group.dev.dependencies]
mcp = "~1.9"
""",
    )
    assert {d: s for d, (s, _) in pins(tmp_path).items()} == {
        "fastmcp": ">=2.0,<3",
        "mcp": ">=1.9,<1.10",
    }


# --- requirements files -----------------------------------------------------------------------


def test_requirements_txt_skips_comments_options_and_invalid_lines(tmp_path: Path) -> None:
    requirements = write(
        tmp_path / "requirements.txt",
        """\
# runtime
--index-url https://pypi.org/simple
-e .
mcp[cli]>=1.9,<2 ; python_version >= "3.10"  # the SDK
fastmcp == 2.10.6 \\
    --hash=sha256:0123456789abcdef
mcp-types>=>0.1
./vendored/fastmcp_slim-3.0.tar.gz
""",
    )
    assert pins(tmp_path) == {
        "mcp": (">=1.9,<2", str(requirements)),
        "fastmcp": ("==2.10.6", str(requirements)),
    }


def test_requirements_with_windows_line_endings_and_continuations(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_bytes(
        b"mcp>=1.9 \\\r\n    --hash=sha256:00ff\r\nfastmcp-slim<4\r\n"
    )
    assert {d: s for d, (s, _) in pins(tmp_path).items()} == {"mcp": ">=1.9", "fastmcp-slim": "<4"}


def test_requirements_includes_are_followed_relative_to_the_including_file(tmp_path: Path) -> None:
    base = write(tmp_path / "requirements" / "base.txt", "mcp>=1.8\n")
    write(tmp_path / "requirements" / "prod.txt", "-r base.txt\n")
    write(tmp_path / "requirements-dev.txt", "--requirement=requirements/prod.txt\npytest\n")
    write(tmp_path / "constraints" / "pins.txt", "mcp<1.12\n")
    write(tmp_path / "ci" / "requirements.txt", "-c ../constraints/pins.txt\n")
    write(tmp_path / "requirements-ci.txt", "-r ci/requirements.txt\n")
    pin = declared_dependencies(tmp_path).get("mcp")
    assert pin.specifier == ">=1.8,<1.12"
    # Sources in reading order: requirements-ci.txt sorts before requirements-dev.txt.
    assert pin.source == f"{tmp_path / 'constraints' / 'pins.txt'}, {base}"


def test_requirements_include_cycle_terminates(tmp_path: Path) -> None:
    write(tmp_path / "requirements.txt", "-r requirements-a.txt\nfastmcp>=2\n")
    write(tmp_path / "requirements-a.txt", "-r requirements-b.txt\n")
    write(tmp_path / "requirements-b.txt", "-r requirements.txt\n-r requirements-a.txt\n")
    assert declared_dependencies(tmp_path).get("fastmcp").specifier == ">=2"


# --- setup.cfg / setup.py ---------------------------------------------------------------------


def test_setup_cfg_multiline_install_requires(tmp_path: Path) -> None:
    setup_cfg = write(
        tmp_path / "setup.cfg",
        """
[metadata]
name = legacy-server

[options]
packages = find:
install_requires =
    requests>=2
    # the MCP SDK
    mcp>=1.2,<1.10
    fastmcp; python_version>="3.10"
""",
    )
    assert pins(tmp_path) == {
        "mcp": (">=1.2,<1.10", str(setup_cfg)),
        "fastmcp": ("", str(setup_cfg)),
    }


def test_setup_py_is_read_statically_and_never_executed(tmp_path: Path) -> None:
    marker = tmp_path / "executed"
    setup_py = write(
        tmp_path / "setup.py",
        f"""
from pathlib import Path
from setuptools import setup

Path({str(marker)!r}).write_text("ran")
raise SystemExit("setup.py must not run")

REQUIRES = ["mcp>=1.5", "anyio"]

setup(
    name="old-server",
    install_requires=REQUIRES,
    extras_require={{"fast": ["fastmcp>=2.2"]}},
)
""",
    )
    assert pins(tmp_path) == {
        "mcp": (">=1.5", str(setup_py)),
        "fastmcp": (">=2.2", str(setup_py)),
    }
    assert not marker.exists()


def test_setup_py_with_syntax_error_is_skipped(tmp_path: Path) -> None:
    write(tmp_path / "setup.py", "setup(install_requires=['mcp>=1.0'\n")
    requirements = write(tmp_path / "requirements.txt", "mcp==1.9.0\n")
    assert pins(tmp_path) == {"mcp": ("==1.9.0", str(requirements))}


# --- lock files -------------------------------------------------------------------------------

UV_LOCK = """
version = 1
requires-python = ">=3.10"

[[package]]
name = "mcp"
version = "1.9.4"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "weather"
version = "0.1.0"
source = { editable = "." }
"""


def test_uv_lock_exact_version_wins_over_declared_ranges(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[project]\nname = "weather"\ndependencies = ["mcp>=1.6"]\n')
    uv_lock = write(tmp_path / "uv.lock", UV_LOCK)
    assert declared_dependencies(tmp_path).pins == (Pin("mcp", "==1.9.4", str(uv_lock)),)


def test_poetry_lock_exact_versions(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.poetry.dependencies]\nfastmcp = "^2.3"\n')
    poetry_lock = write(
        tmp_path / "poetry.lock",
        """
[[package]]
name = "fastmcp"
version = "2.3.4"
description = "The fast, Pythonic way to build MCP servers."
optional = false
python-versions = ">=3.10"

[[package]]
name = "mcp"
version = "1.8.1"
optional = false
python-versions = ">=3.10"

[metadata]
lock-version = "2.0"
""",
    )
    assert pins(tmp_path) == {
        "fastmcp": ("==2.3.4", str(poetry_lock)),
        "mcp": ("==1.8.1", str(poetry_lock)),
    }


def test_lock_with_forked_versions_gives_their_range(tmp_path: Path) -> None:
    write(
        tmp_path / "uv.lock",
        """
[[package]]
name = "mcp"
version = "1.10.0"
resolution-markers = ["python_full_version >= '3.11'"]

[[package]]
name = "mcp"
version = "1.9.4"
resolution-markers = ["python_full_version < '3.11'"]
""",
    )
    assert declared_dependencies(tmp_path).get("mcp").specifier == ">=1.9.4,<=1.10.0"


# --- unpacked sdist / wheel metadata ----------------------------------------------------------


def test_pkg_info_requires_dist_with_markers_and_extras(tmp_path: Path) -> None:
    pkg_info = write(
        tmp_path / "PKG-INFO",
        """\
Metadata-Version: 2.4
Name: weather-mcp
Version: 0.3.0
Requires-Dist: mcp>=1.9; python_version >= "3.10"
Requires-Dist: mcp[cli]>=1.11; extra == "cli"
Requires-Dist: fastmcp<3,>=2.5; extra == 'fast'
Requires-Dist: rich

A weather server.
""",
    )
    assert pins(tmp_path) == {
        "mcp": (">=1.9", str(pkg_info)),  # the cli extra's range is not used: mcp is required
        "fastmcp": (">=2.5,<3", str(pkg_info)),  # only an extra names it, so that is used
    }


def test_dist_info_metadata_of_a_framework_gives_its_exact_version(tmp_path: Path) -> None:
    metadata = write(
        tmp_path / "fastmcp-2.10.6.dist-info" / "METADATA",
        "Metadata-Version: 2.4\nName: fastmcp\nVersion: 2.10.6\nRequires-Dist: mcp<2,>=1.10\n",
    )
    assert pins(tmp_path / "fastmcp" / "server.py") == {
        "fastmcp": ("==2.10.6", str(metadata)),
        "mcp": (">=1.10,<2", str(metadata)),
    }


def test_metadata_headers_continuation_lines_and_description_body(tmp_path: Path) -> None:
    metadata = write(
        tmp_path / "weather_mcp-0.3.0.dist-info" / "METADATA",
        """\
Metadata-Version: 2.1
Name: weather-mcp
License: MIT License
        with a continuation line
Requires-Dist: mcp[cli]
 >=1.11,<2
Requires-Dist: FastMCP (>=2.3)

Requires-Dist: mcp==0.1  (in the description body: not a header)
""",
    )
    assert pins(tmp_path / "weather_mcp" / "server.py") == {
        "mcp": (">=1.11,<2", str(metadata)),
        "fastmcp": (">=2.3", str(metadata)),
    }


@pytest.mark.parametrize(
    "text",
    [
        "mcp",
        "mcp>=1.9",
        "MCP >= 1.9 , < 2",
        "mcp[cli]>=1.11",
        "mcp [cli, ws] (>=1.2,<2)",
        "mcp==1.*",
        "mcp~=1.9.0",
        "fast_mcp>=2",
        "fastmcp<3,>=2.5; extra == 'fast'",
        "mcp>=1.9; python_version >= '3.10'",
        "mcp @ https://example.com/mcp-1.0.tar.gz",
        "mcp>=1.9 ; extra == \"cli\" and python_version < \"3.13\"",
        "mcp>=",
        "mcp[cli",
        "mcp>=1.0 junk",
        "mcp (>=1.0",
        "mcpx>=1",
        "rich>=13",
    ],
)
def test_requirement_fast_path_agrees_with_packagings_parser(text: str) -> None:
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    try:
        reference = Requirement(text)
    except InvalidRequirement:
        expected = None
    else:
        name = canonicalize_name(reference.name)
        expected = (name, str(reference.specifier)) if name in project.DISTRIBUTIONS else None
    found = project._requirement(text)
    assert (None if found is None else (found.distribution, found.specifier)) == expected


# --- walking up -------------------------------------------------------------------------------


def test_walks_up_from_a_nested_package_file_to_the_first_directory_naming_mcp(
    tmp_path: Path,
) -> None:
    write(tmp_path / "requirements.txt", "mcp==1.0.0\n")  # beyond the project: never reached
    root = tmp_path / "weather"
    pyproject = write(root / "pyproject.toml", '[project]\ndependencies = ["mcp>=1.9"]\n')
    requirements = write(root / "requirements-dev.txt", "mcp<1.13\n")
    # A nested pyproject.toml that does not name an MCP distribution does not stop the walk.
    write(root / "src" / "pyproject.toml", '[project]\nname = "inner"\ndependencies = ["httpx"]\n')
    server = write(root / "src" / "weather" / "tools" / "server.py", "import mcp\n")
    assert declared_dependencies(server).pins == (
        Pin("mcp", ">=1.9,<1.13", f"{pyproject}, {requirements}"),
    )


def test_no_declared_dependencies_anywhere(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[project]\nname = "unrelated"\ndependencies = ["click"]\n')
    server = write(tmp_path / "server.py", "from mcp.server.fastmcp import FastMCP\n")
    deps = declared_dependencies(server)
    assert deps == DeclaredDeps(())
    assert deps.get("mcp") is None


def test_results_are_cached_per_directory_until_cleared(tmp_path: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "mcp>=1.9\n")
    assert declared_dependencies(tmp_path / "a.py").get("mcp").specifier == ">=1.9"
    requirements.write_text("mcp>=1.12\n", encoding="utf-8")
    assert declared_dependencies(tmp_path / "b.py").get("mcp").specifier == ">=1.9"
    project.clear_cache()
    assert declared_dependencies(tmp_path / "b.py").get("mcp").specifier == ">=1.12"


# --- robustness -------------------------------------------------------------------------------


def test_unreadable_and_malformed_files_are_skipped(tmp_path: Path, monkeypatch) -> None:
    write(tmp_path / "pyproject.toml", '[project\ndependencies = ["mcp>=1"]\n')
    (tmp_path / "requirements-binary.txt").write_bytes(b"mcp>=1\x00\xff\xfe\x00junk")
    (tmp_path / "requirements-latin1.txt").write_bytes("mcp>=1 # caf\xe9\n".encode("latin-1"))
    write(tmp_path / "setup.cfg", "[options\ninstall_requires = mcp\n")
    write(tmp_path / "uv.lock", "[[package]]\nname = 'mcp'\nversion = 'not a version'\n")
    write(tmp_path / "poetry.lock", "package = 'not a list'\n")
    write(tmp_path / "requirements-huge.txt", "mcp>=1\n" + "#" * 200)
    monkeypatch.setattr(project, "MAX_FILE_BYTES", 100)
    good = write(tmp_path / "requirements.txt", "fastmcp>=2.9\n")
    assert declared_dependencies(tmp_path).pins == (Pin("fastmcp", ">=2.9", str(good)),)


def test_wrongly_shaped_toml_values_are_skipped(tmp_path: Path) -> None:
    write(
        tmp_path / "pyproject.toml",
        """
[project]
dependencies = "mcp>=1.9"
optional-dependencies = ["mcp"]
[tool.poetry.dependencies]
mcp = 3
fastmcp = "^not.a.version"
[tool.uv]
constraint-dependencies = [1, "mcp-types<1"]
""",
    )
    assert {d: s for d, (s, _) in pins(tmp_path).items()} == {"mcp-types": "<1"}


# --- target and fingerprint -------------------------------------------------------------------


def test_parse_target() -> None:
    assert parse_target("FastMCP>=3.4,<4") == DeclaredDeps(
        (Pin("fastmcp", ">=3.4,<4", "[tool.mcp-lint] target"),)
    )
    assert parse_target("mcp").get("MCP") == Pin("mcp", "", "[tool.mcp-lint] target")


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("fastmcp>=>3", "invalid target 'fastmcp>=>3': "),
        (
            "django>=5",
            "invalid target 'django>=5': expected one of fastmcp, fastmcp-slim, mcp, mcp-types",
        ),
    ],
)
def test_parse_target_rejects_bad_targets(target: str, message: str) -> None:
    with pytest.raises(ValueError) as excinfo:
        parse_target(target)
    assert str(excinfo.value).startswith(message)


def test_fingerprint_is_stable_and_sensitive(tmp_path: Path) -> None:
    a = Pin("mcp", ">=1.9,<2", "/p/pyproject.toml")
    b = Pin("fastmcp", "==2.10.6", "/p/uv.lock")
    assert fingerprint(DeclaredDeps((a, b))) == fingerprint(DeclaredDeps((b, a)))
    assert fingerprint(DeclaredDeps((b, a))) == (
        '[["fastmcp","==2.10.6","/p/uv.lock"],["mcp",">=1.9,<2","/p/pyproject.toml"]]'
    )
    narrower = Pin("mcp", ">=1.10,<2", "/p/pyproject.toml")
    assert fingerprint(DeclaredDeps((narrower, b))) != fingerprint(DeclaredDeps((a, b)))
    assert fingerprint(DeclaredDeps()) == "[]"
    # Reading the same files twice gives the same fingerprint.
    write(tmp_path / "requirements.txt", "mcp<2,>=1.9\n")
    first = fingerprint(declared_dependencies(tmp_path))
    project.clear_cache()
    assert fingerprint(declared_dependencies(tmp_path)) == first
