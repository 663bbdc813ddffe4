from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from mcp_lint.config import ConfigError, Settings, SettingsResolver, load_settings
from mcp_lint.registry import RULES

# Every rule, and those on by default (all but MCP100), from the registry: a new rule needs no edit here.
ALL_CODES = tuple(rule.code for rule in RULES)
DEFAULT_CODES = [rule.code for rule in RULES if rule.default_enabled]
KNOWN = "known codes: " + ", ".join(ALL_CODES)


# The default rules and MCP100, in registry order (other opt-in rules, if any, stay off).
WITH_MCP100 = [code for code in ALL_CODES if code in DEFAULT_CODES or code == "MCP100"]


def default_codes_but(*left_out: str) -> list[str]:
    return [code for code in DEFAULT_CODES if code not in left_out]


def beyond_mcp00(codes: list[str]) -> list[str]:
    """The codes a selector "MCP00" does not match (the rules numbered 10 and up, when there are such)."""
    return [code for code in codes if not code.startswith("MCP00")]


def write(root: Path, files: dict[str, str]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")


def config(tmp_path: Path, body: str) -> Settings:
    write(tmp_path, {"pyproject.toml": "[tool.mcp-lint]\n" + body + "\n"})
    return load_settings(tmp_path / "pyproject.toml")


def enabled(settings: Settings, path: Path | None = None) -> list[str]:
    return [code for code in ALL_CODES if settings.is_enabled(code, path)]


def config_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str) -> str:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {"pyproject.toml": body})
    with pytest.raises(ConfigError) as caught:
        load_settings(Path("pyproject.toml"))
    return str(caught.value)


# --- rule selection ---------------------------------------------------------------------------


def test_defaults_enable_mcp0_rules_but_not_mcp100() -> None:
    assert enabled(Settings()) == DEFAULT_CODES
    assert {"MCP000", "MCP001", "MCP002", "MCP003", "MCP004", "MCP005"} <= set(DEFAULT_CODES)
    assert "MCP100" in ALL_CODES and "MCP100" not in DEFAULT_CODES


@pytest.mark.parametrize("select", ['["MCP"]', '["MCP0"]', '["MCP00"]', '["MCP007"]'])
def test_mcp007_is_a_default_rule_that_prefixes_select_and_ignore_removes(tmp_path: Path, select: str) -> None:
    # A server-level rule, on by default like MCP001-MCP009 (only MCP100 needs its exact code).
    assert Settings().is_enabled("MCP007")
    assert config(tmp_path, f"select = {select}").is_enabled("MCP007")
    assert not config(tmp_path, f'select = {select}\nignore = ["MCP007"]').is_enabled("MCP007")
    settings = config(tmp_path, f'select = {select}\n[tool.mcp-lint.per-file-ignores]\n"app/server.py" = ["MCP007"]')
    assert not settings.is_enabled("MCP007", tmp_path / "app" / "server.py")
    assert settings.is_enabled("MCP007", tmp_path / "app" / "tools.py")


def test_ignore_of_one_code_beats_a_broader_select(tmp_path: Path) -> None:
    settings = config(tmp_path, 'select = ["MCP0"]\nignore = ["mcp003"]')
    assert settings.ignore == ("MCP003",)
    assert enabled(settings) == default_codes_but("MCP003")


def test_select_of_one_code_beats_a_broader_ignore(tmp_path: Path) -> None:
    settings = config(tmp_path, 'select = ["MCP003"]\nignore = ["MCP00"]')
    assert enabled(settings) == ["MCP000", "MCP003"]


def test_equally_specific_select_and_ignore_ignore_wins(tmp_path: Path) -> None:
    settings = config(tmp_path, 'select = ["MCP002", "MCP003"]\nignore = ["MCP003"]')
    assert enabled(settings) == ["MCP000", "MCP002"]


@pytest.mark.parametrize(
    ("select", "mcp100"),
    [('["MCP"]', False), ('["MCP1"]', False), ('["MCP10"]', False), ('["MCP100"]', True), ('["mcp100"]', True)],
)
def test_mcp100_only_when_selected_by_exact_code(tmp_path: Path, select: str, mcp100: bool) -> None:
    settings = config(tmp_path, f"select = {select}")
    assert settings.is_enabled("MCP100") is mcp100


def test_broad_select_enables_default_rules_and_exact_mcp100_survives_prefix_ignore(tmp_path: Path) -> None:
    assert enabled(config(tmp_path, 'select = ["MCP"]')) == DEFAULT_CODES
    settings = config(tmp_path, 'select = ["MCP", "MCP100"]\nignore = ["MCP1"]')
    assert enabled(settings) == WITH_MCP100


def test_all_selects_every_rule_and_is_the_least_specific_selector(tmp_path: Path) -> None:
    # As in ruff: ALL turns on the rules that are off by default too (MCP100, like RUF100;
    # the rules in preview)...
    assert enabled(config(tmp_path, 'select = ["ALL"]')) == list(ALL_CODES)
    assert enabled(config(tmp_path, 'select = ["all"]')) == list(ALL_CODES)
    # ...and loses to any code or prefix, in the other list or its own layer.
    assert enabled(config(tmp_path, 'select = ["ALL"]\nignore = ["MCP1", "MCP003"]')) == [
        code for code in ALL_CODES if code not in {"MCP003", "MCP100"}
    ]
    assert enabled(config(tmp_path, 'select = ["MCP002"]\nignore = ["ALL"]')) == ["MCP000", "MCP002"]
    # Equally specific, ignore wins; MCP000 stays, as only its exact code turns it off.
    assert enabled(config(tmp_path, 'select = ["ALL"]\nignore = ["ALL"]')) == ["MCP000"]
    assert enabled(Settings().with_overrides(extend_select=["ALL"])) == list(ALL_CODES)
    assert enabled(Settings().with_overrides(select=["ALL"], ignore=["MCP00"])) == ["MCP000", *beyond_mcp00(ALL_CODES)]
    pyproject = '[tool.mcp-lint]\n[tool.mcp-lint.per-file-ignores]\n"tests/*" = ["ALL"]\n'
    write(tmp_path, {"pyproject.toml": pyproject})
    settings = load_settings(tmp_path / "pyproject.toml")
    assert enabled(settings, tmp_path / "tests" / "t.py") == ["MCP000"]
    assert enabled(settings, tmp_path / "server.py") == DEFAULT_CODES


def test_mcp000_is_always_selected_and_only_ignored_by_its_exact_code(tmp_path: Path) -> None:
    assert enabled(config(tmp_path, 'select = ["MCP001"]')) == ["MCP000", "MCP001"]
    assert enabled(config(tmp_path, "select = []")) == ["MCP000"]
    assert enabled(config(tmp_path, 'ignore = ["MCP0"]')) == ["MCP000"]
    assert enabled(config(tmp_path, 'ignore = ["MCP000"]')) == default_codes_but("MCP000")


def test_per_file_ignores_match_relative_to_the_config_directory(tmp_path: Path) -> None:
    settings = config(
        tmp_path,
        '[tool.mcp-lint.per-file-ignores]\n"tests/*" = ["MCP003"]\n"__init__.py" = ["MCP0"]\n"legacy/" = ["MCP00"]',
    )
    without_mcp003 = default_codes_but("MCP003")
    assert enabled(settings, tmp_path / "tests" / "test_tools.py") == without_mcp003
    assert enabled(settings, tmp_path / "tests" / "deep" / "test_x.py") == without_mcp003
    # Anchored: "tests/*" is the top-level tests directory only.
    assert enabled(settings, tmp_path / "src" / "tests" / "x.py") == DEFAULT_CODES
    # A pattern without a slash matches the file name at any depth; MCP000 needs its exact code.
    assert enabled(settings, tmp_path / "src" / "pkg" / "__init__.py") == ["MCP000"]
    assert enabled(settings, tmp_path / "legacy" / "old" / "server.py") == ["MCP000", *beyond_mcp00(DEFAULT_CODES)]
    assert enabled(settings, tmp_path / "src" / "server.py") == DEFAULT_CODES
    assert enabled(settings, None) == DEFAULT_CODES


def test_per_file_ignores_accept_relative_paths_from_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = config(tmp_path, '[tool.mcp-lint.per-file-ignores]\n"tests/*" = ["MCP000", "MCP001"]')
    monkeypatch.chdir(tmp_path / "..")
    assert not settings.is_enabled("MCP000", Path(tmp_path.name) / "tests" / "t.py")
    assert not settings.is_enabled("mcp001", Path(tmp_path.name) / "tests" / "t.py")
    assert settings.is_enabled("MCP001", Path(tmp_path.name) / "src" / "t.py")


def test_exclude_matches_gitignore_style_relative_to_the_config_directory(tmp_path: Path) -> None:
    write(tmp_path, {"generated/api.py": "", "src/generated.py": "", "src/ok.py": "", "docs/conf.py": ""})
    settings = config(tmp_path, 'exclude = ["generated/", "/docs", "*_pb2.py"]')
    assert settings.is_excluded(tmp_path / "generated")
    assert settings.is_excluded(tmp_path / "generated" / "api.py")
    assert not settings.is_excluded(tmp_path / "src" / "generated.py")  # "generated/" is directories only
    assert settings.is_excluded(tmp_path / "docs" / "conf.py")
    assert settings.is_excluded(tmp_path / "src" / "deep" / "x_pb2.py")
    assert not settings.is_excluded(tmp_path / "src" / "ok.py")


# --- validation ---------------------------------------------------------------------------------


def test_unknown_key_is_one_line_naming_file_and_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    message = config_error(tmp_path, monkeypatch, '[tool.mcp-lint]\nselekt = ["MCP001"]\n')
    assert message == (
        "pyproject.toml: [tool.mcp-lint] unknown key 'selekt' "
        "(expected one of: cache-dir, exclude, extend, extend-select, fix, fixable, ignore, per-file-ignores, require-tools, select, target, unfixable)"
    )


def test_extend_select_in_config_adds_to_the_selection(tmp_path: Path) -> None:
    settings = config(tmp_path, 'extend-select = ["MCP100"]')
    assert settings.is_enabled("MCP100") and settings.is_enabled("MCP001")


def test_extend_select_with_an_unknown_code_names_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    message = config_error(tmp_path, monkeypatch, '[tool.mcp-lint]\nextend-select = ["XYZ9"]\n')
    assert message.startswith("pyproject.toml: [tool.mcp-lint] extend-select: unknown rule code or prefix 'XYZ9'")


def test_invalid_toml_names_the_file_and_the_position(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    message = config_error(tmp_path, monkeypatch, "[tool.mcp-lint]\nselect = MCP001\n")
    assert message == "pyproject.toml: invalid TOML: Invalid value (at line 2, column 10)"


def test_nested_config_error_names_the_file_relative_to_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, {"pkg/pyproject.toml": "[tool.mcp-lint]\nignore = 3\n"})
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as caught:
        SettingsResolver().for_path(Path("pkg/server.py"))
    assert str(caught.value) == "pkg/pyproject.toml: [tool.mcp-lint] ignore must be an array of strings, got an integer"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('select = "MCP001"', "select must be an array of strings, got a string"),
        ('select = ["MCP001", 3]', "select[1] must be a string, got an integer"),
        ('select = ["MCP9"]', f"select: unknown rule code or prefix 'MCP9' ({KNOWN})"),
        ('ignore = [""]', f"ignore: unknown rule code or prefix '' ({KNOWN})"),
        ('exclude = "build"', "exclude must be an array of strings, got a string"),
        ("per-file-ignores = []", "per-file-ignores must be a table of glob = [codes], got an array"),
        (
            'per-file-ignores = {"tests/*" = "MCP003"}',
            'per-file-ignores."tests/*" must be an array of strings, got a string',
        ),
        (
            'per-file-ignores = {"tests/*" = ["E501"]}',
            f"per-file-ignores.\"tests/*\": unknown rule code or prefix 'E501' ({KNOWN})",
        ),
        ("target = 4", "target must be a string, got an integer"),
        (
            'target = "fastmcp>>3"',
            "target: invalid requirement 'fastmcp>>3' (Expected semicolon (after name with no version "
            'specifier) or end); write one such as "fastmcp>=3.4,<4"',
        ),
        ('target = "django>=4"', "target: 'django>=4' names django; expected one of mcp, fastmcp, fastmcp-slim"),
        (
            'target = "mcp @ https://example.com/mcp.whl"',
            "target: 'mcp @ https://example.com/mcp.whl' has a URL; give a version range such as \"fastmcp>=3.4,<4\"",
        ),
        ("cache-dir = true", "cache-dir must be a string, got a boolean"),
        ("require-tools = 1", "require-tools must be true or false, got an integer"),
        ('cache-dir = ""', "cache-dir must not be empty"),
    ],
)
def test_bad_values_raise_one_line_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, expected: str
) -> None:
    message = config_error(tmp_path, monkeypatch, f"[tool.mcp-lint]\n{body}\n")
    assert message == f"pyproject.toml: [tool.mcp-lint] {expected}"


def test_table_of_wrong_type(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    message = config_error(tmp_path, monkeypatch, '[tool]\nmcp-lint = "strict"\n')
    assert message == "pyproject.toml: [tool.mcp-lint] must be a table, got a string"


@pytest.mark.parametrize("target", ["fastmcp>=3.4,<4", "mcp==1.9.4", "FastMCP-Slim~=2.0", "mcp"])
def test_valid_targets_are_kept_as_written(tmp_path: Path, target: str) -> None:
    assert config(tmp_path, f'target = "{target}"').target == target


def test_load_settings_records_its_file_and_values(tmp_path: Path) -> None:
    settings = config(
        tmp_path,
        'select = ["MCP0", "MCP100"]\nexclude = ["gen/"]\ncache-dir = ".cache/mcp"\n'
        '[tool.mcp-lint.per-file-ignores]\n"tests/*" = ["MCP003"]',
    )
    assert settings == Settings(
        select=("MCP0", "MCP100"),
        exclude=("gen/",),
        per_file_ignores=(("tests/*", ("MCP003",)),),
        cache_dir=".cache/mcp",
        config_path=tmp_path / "pyproject.toml",
        root=tmp_path,
    )
    assert pickle.loads(pickle.dumps(settings)) == settings


# --- resolver -----------------------------------------------------------------------------------


def test_each_file_uses_the_nearest_pyproject_with_a_table(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pyproject.toml": '[tool.mcp-lint]\nselect = ["MCP001"]\n',
            "svc/pyproject.toml": '[tool.mcp-lint]\nselect = ["MCP002"]\n',
            # No table here: this project inherits the repository's settings.
            "lib/pyproject.toml": '[project]\nname = "lib"\n',
        },
    )
    resolver = SettingsResolver()
    top = resolver.for_path(tmp_path / "server.py")
    assert top.config_path == tmp_path / "pyproject.toml" and top.select == ("MCP001",)
    svc = resolver.for_path(tmp_path / "svc" / "deep" / "server.py")
    assert svc.config_path == tmp_path / "svc" / "pyproject.toml" and svc.root == tmp_path / "svc"
    assert resolver.for_path(tmp_path / "lib" / "a" / "b.py") is top
    assert resolver.project_root(tmp_path / "lib" / "a" / "b.py") == tmp_path
    assert resolver.for_path(tmp_path / "svc") is svc  # a directory uses its own config


def test_without_a_table_defaults_apply_and_the_nearest_pyproject_is_the_root(tmp_path: Path) -> None:
    write(tmp_path, {"pyproject.toml": '[project]\nname = "outer"\n', "inner/pyproject.toml": "", "inner/x.py": ""})
    resolver = SettingsResolver()
    assert resolver.for_path(tmp_path / "inner" / "x.py") == Settings()
    assert resolver.project_root(tmp_path / "inner" / "x.py") == tmp_path / "inner"
    assert resolver.project_root(tmp_path / "other.py") == tmp_path


def test_no_pyproject_anywhere_gives_no_project_root(tmp_path: Path) -> None:
    resolver = SettingsResolver()
    assert resolver.for_path(tmp_path / "a.py") == Settings()
    assert resolver.project_root(tmp_path / "a.py") is None


def test_configs_above_the_nearest_one_are_never_read(tmp_path: Path) -> None:
    write(tmp_path, {"pyproject.toml": "not [valid toml", "pkg/pyproject.toml": "[tool.mcp-lint]\n"})
    assert SettingsResolver().for_path(tmp_path / "pkg" / "a.py").root == tmp_path / "pkg"
    with pytest.raises(ConfigError, match="invalid TOML"):
        SettingsResolver().for_path(tmp_path / "a.py")


def test_isolated_ignores_configs_but_still_finds_the_project(tmp_path: Path) -> None:
    write(tmp_path, {"pyproject.toml": '[tool.mcp-lint]\nselect = ["MCP001"]\n'})
    resolver = SettingsResolver(isolated=True, overrides={"extend_select": ["MCP100"]})
    assert enabled(resolver.for_path(tmp_path / "a.py")) == WITH_MCP100
    assert resolver.project_root(tmp_path / "a.py") == tmp_path


def test_config_file_applies_to_every_path(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "ci.toml": '[tool.mcp-lint]\nselect = ["MCP004"]\n',
            "pkg/pyproject.toml": '[tool.mcp-lint]\nselect = ["MCP001"]\n',
        },
    )
    resolver = SettingsResolver(config_file=tmp_path / "ci.toml")
    assert enabled(resolver.for_path(tmp_path / "pkg" / "a.py")) == ["MCP000", "MCP004"]
    assert resolver.project_root(tmp_path / "pkg" / "a.py") == tmp_path
    with pytest.raises(ConfigError, match="cannot be used together"):
        SettingsResolver(isolated=True, config_file=tmp_path / "ci.toml")


# --- command-line overrides -----------------------------------------------------------------------


def test_select_override_starts_afresh_but_keeps_per_file_ignores(tmp_path: Path) -> None:
    settings = config(tmp_path, 'ignore = ["MCP003"]\nper-file-ignores = {"tests/*" = ["MCP004"]}')
    overridden = settings.with_overrides(select=["MCP003", "MCP004"])
    assert enabled(overridden) == ["MCP000", "MCP003", "MCP004"]
    assert enabled(overridden, tmp_path / "tests" / "t.py") == ["MCP000", "MCP003"]


def test_ignore_override_removes_codes_the_config_selected_exactly(tmp_path: Path) -> None:
    settings = config(tmp_path, 'select = ["MCP001", "MCP002", "MCP100"]')
    assert enabled(settings.with_overrides(ignore=["MCP0"])) == ["MCP000", "MCP100"]
    assert enabled(settings.with_overrides(extend_ignore=["MCP1"])) == ["MCP000", "MCP001", "MCP002"]


def test_extend_select_override_reenables_a_code_the_config_ignored(tmp_path: Path) -> None:
    settings = config(tmp_path, 'ignore = ["MCP003", "MCP000"]')
    overridden = settings.with_overrides(extend_select=["MCP003", "MCP100"])
    assert enabled(overridden) == [code for code in WITH_MCP100 if code != "MCP000"]
    # Within one layer the usual specificity rules apply.
    assert enabled(Settings().with_overrides(extend_select=["MCP"], ignore=["MCP00"])) == ["MCP000", *beyond_mcp00(DEFAULT_CODES)]


def test_overrides_are_validated_and_target_replaced() -> None:
    with pytest.raises(ConfigError) as caught:
        Settings().with_overrides(select=["MCP9"])
    assert str(caught.value) == f"--select: unknown rule code or prefix 'MCP9' ({KNOWN})"
    with pytest.raises(ConfigError, match="^--target: 'flask' names flask;"):
        Settings().with_overrides(target="flask")
    assert Settings(target="mcp==1.9.4").with_overrides(target="fastmcp>=3").target == "fastmcp>=3"


def test_resolver_applies_overrides_once_per_config(tmp_path: Path) -> None:
    write(tmp_path, {"pyproject.toml": '[tool.mcp-lint]\nselect = ["MCP001"]\n'})
    resolver = SettingsResolver(overrides={"extend_select": ["MCP002"], "target": "mcp>=1.9"})
    first = resolver.for_path(tmp_path / "a.py")
    assert enabled(first) == ["MCP000", "MCP001", "MCP002"] and first.target == "mcp>=1.9"
    assert resolver.for_path(tmp_path / "sub" / "b.py") is first


# --- fingerprint --------------------------------------------------------------------------------


def test_fingerprint_follows_the_effective_settings(tmp_path: Path) -> None:
    base = Settings()
    assert base.fingerprint() == Settings().fingerprint()
    # Two spellings of the same rule set are the same for the cache.
    assert Settings(select=tuple(DEFAULT_CODES)).fingerprint() == base.fingerprint()
    assert Settings(exclude=("gen/",), cache_dir="c").fingerprint() == base.fingerprint()
    changed = [
        Settings(ignore=("MCP003",)),
        Settings(select=("MCP0", "MCP100")),
        Settings(target="mcp==1.9.4"),
        Settings(per_file_ignores=(("tests/*", ("MCP003",)),)),
    ]
    prints = {settings.fingerprint() for settings in changed}
    assert len(prints) == len(changed) and base.fingerprint() not in prints
    assert len(base.fingerprint()) == 64
