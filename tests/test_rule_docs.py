"""The rule pages under rules/ are executed, so the documentation cannot drift from behaviour.

Conventions of a page (rules/<CODE>.md), enforced here:

* The first line is ``# <CODE> <name>`` exactly as in ``mcp_lint.registry``; the ``## `` sections are
  ``SECTIONS`` in that order (ruff's), and the first example starts within ``LEAD_LINES`` lines.
* The catalogue of shapes a rule flags and leaves alone, beyond its page's examples, is
  ``tests/shapes/<CODE>.md``: the same format (its blocks under "Example" marked, under "Use instead"
  not), executed by the same tests.
* Every ```` ```python ```` block is linted as one file with
  ``lint_source(block, filename="server.py", target=<target>, select=("MCP0", <CODE>))``
  (the default selection plus the page's own rule, so MCP100 runs on its page), beside the project
  files its ``<!-- file: NAME LINE -->`` options give (``<!-- file: .env FASTMCP_MASK_ERROR_DETAILS=true -->``;
  repeatable, the lines of one name make up its text; ``env_files=`` of lint_source).
* A line whose code ends with the comment ``# flagged: MCP00N`` (several codes: ``# flagged: MCP001,
  MCP005``) is where a finding of that code must start. For the page's own code, and for every code
  a marker names, the rows of the findings must equal the marked rows. A block without markers thus
  asserts that the page's rule is silent on it. The marker is an ordinary comment, not a ``noqa``:
  it suppresses nothing, and it stays in the linted text so that rows are the rows the reader sees.
* Blocks under "Example" must carry a marker for the page's code; blocks under "Use instead" none.
* HTML comments on the lines right before a block (blank lines allowed) set options for it:
  ``<!-- target: mcp>=2.1,<3 -->`` is passed as ``target=``; ``<!-- xfail: reason -->`` marks an
  example the rule gets wrong today (a known bug, reported to the rule's owner) as a strict xfail,
  so the test starts failing the day the rule is fixed and the marker must go.
* ``<!-- fixes: N -->`` before a block says it is exactly what ``mcp-lint check --fix --unsafe-fixes``
  (with the page's rule selected) writes for the page's N-th python block under "Example", whose
  ``# flagged:`` markers are taken out first (its own markers say what is still flagged after the
  fix). A page whose rule has an unsafe fix shows at least one.
* ``<!-- run: ... -->``, ``<!-- given: ... -->``, ``<!-- env: ... -->`` and ``<!-- call: ... -->`` (``given`` and ``call`` repeatable)
  say how the semantics suite runs the block under the real frameworks: tests/semantics/README.md.
* ```` ```toml ```` blocks must be valid ``[tool.mcp-lint]`` configuration.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from mcp_lint.config import Settings, load_settings
from mcp_lint.fixing.apply import fix_source
from mcp_lint.pipeline import lint_source
from mcp_lint.registry import RULES, docs_dir, rule_doc

# The options the semantics suite reads (tests/semantics/README.md); kept here so a page is parsed one way.
SEMANTICS_DIRECTIVES = ("run", "given", "env", "call")

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
SHAPES_DIR = Path(__file__).resolve().parent / "shapes"
SECTIONS = (
    "What it does",
    "Why is this bad?",
    "Example",
    "Use instead",
    "What is not flagged",
    "Options",
    "Fix safety",
    "References",
)
# A page reads like ruff's: what, why and the example within a screen or so.
LEAD_LINES = 80
DIRECTIVES = ("target", "xfail", "fixes", "file", *SEMANTICS_DIRECTIVES)
REPEATABLE = frozenset({"call", "given", "file"})  # several lines of it before one block add up (joined by newlines)

_MARKER = re.compile(r"#\s*flagged:\s*(?P<codes>MCP\d{3}(?:\s*,\s*MCP\d{3})*)\s*$")
_DIRECTIVE = re.compile(r"^<!--\s*(?P<key>[\w-]+)\s*:\s*(?P<value>.*?)\s*-->$")
_MARKER_COMMENT = re.compile(r"\s*#\s*flagged:\s*MCP\d{3}(?:\s*,\s*MCP\d{3})*\s*$")
_FENCE = re.compile(r"^```(?P<lang>\w*)\s*$")


@dataclass
class Block:
    code: str  # the page's rule code
    section: str
    index: int  # 1-based among the blocks of its section and language, for test ids
    lang: str
    text: str
    line: int  # where the block's first line sits in the page (for failure messages)
    options: dict[str, str] = field(default_factory=dict)
    origin: str = ""  # the file it comes from, relative to the repository ("" : rules/<code>.md)

    @property
    def where(self) -> str:
        return self.origin or f"rules/{self.code}.md"

    @property
    def id(self) -> str:
        slug = re.sub(r"[^a-z]+", "-", self.section.lower()).strip("-")
        kind = "shapes-" if self.origin else ""
        return f"{kind}{self.code}-{slug}-{self.lang}-{self.index}"

    def env_files(self) -> dict[str, str]:
        """The project files beside the block (`<!-- file: .env FASTMCP_MASK_ERROR_DETAILS=true -->`)."""
        files: dict[str, str] = {}
        for line in self.options.get("file", "").splitlines():
            name, _, text = line.partition(" ")
            files[name] = files.get(name, "") + text + "\n"
        return files

    def marked_rows(self) -> dict[str, set[int]]:
        rows: dict[str, set[int]] = {}
        for row, line in enumerate(self.text.splitlines(), start=1):
            match = _MARKER.search(line)
            if match:
                for code in re.split(r"\s*,\s*", match.group("codes")):
                    rows.setdefault(code, set()).add(row)
        return rows


def parse_page(code: str, text: str) -> tuple[list[str], list[Block]]:
    """The page's `## ` headings and its fenced blocks with the options written before them."""
    headings: list[str] = []
    blocks: list[Block] = []
    section = ""
    pending: dict[str, str] = {}
    counters: dict[tuple[str, str], int] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            section = line[3:].strip()
            headings.append(section)
            pending = {}
        elif (directive := _DIRECTIVE.match(line.strip())) is not None:
            key = directive.group("key")
            if key not in DIRECTIVES:
                raise ValueError(f"rules/{code}.md:{i + 1}: unknown block option {key!r} (known: {', '.join(DIRECTIVES)})")
            value = directive.group("value")
            pending[key] = f"{pending[key]}\n{value}" if key in REPEATABLE and key in pending else value
        elif (fence := _FENCE.match(line)) is not None:
            start = i + 1
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                i += 1
            if i == len(lines):
                raise ValueError(f"rules/{code}.md:{start}: unclosed code block")
            lang = fence.group("lang")
            counters[(section, lang)] = counters.get((section, lang), 0) + 1
            body = "\n".join(lines[start:i]) + "\n"
            blocks.append(Block(code, section, counters[(section, lang)], lang, body, start + 1, pending))
            pending = {}
        elif line.strip():
            pending = {}  # an option applies only to the block right after it
        i += 1
    return headings, blocks


def _page(code: str) -> str:
    return (RULES_DIR / f"{code}.md").read_text(encoding="utf-8")


def _all_blocks() -> list[Block]:
    """The blocks of every rule page, then those of every catalogue of shapes (tests/shapes/)."""
    blocks: list[Block] = []
    for info in RULES:
        path = RULES_DIR / f"{info.code}.md"
        if path.is_file():
            blocks.extend(parse_page(info.code, path.read_text(encoding="utf-8"))[1])
    for info in RULES:
        path = SHAPES_DIR / f"{info.code}.md"
        if path.is_file():
            for block in parse_page(info.code, path.read_text(encoding="utf-8"))[1]:
                block.origin = f"tests/shapes/{info.code}.md"
                blocks.append(block)
    return blocks


def _text_of(block: Block) -> str:
    """The text of the file a block comes from."""
    return (RULES_DIR.parent / block.where).read_text(encoding="utf-8")


def _params(lang: str) -> list:
    params = []
    for block in _all_blocks():
        if block.lang != lang:
            continue
        marks = []
        if "xfail" in block.options:
            marks.append(pytest.mark.xfail(strict=True, reason=block.options["xfail"]))
        params.append(pytest.param(block, id=block.id, marks=marks))
    return params


# -- the pages' shape -------------------------------------------------------------------------


@pytest.mark.parametrize("info", RULES, ids=[r.code for r in RULES])
def test_page_has_title_and_sections_in_order(info) -> None:
    text = _page(info.code)
    assert text.splitlines()[0] == f"# {info.code} {info.name}"
    headings, _ = parse_page(info.code, text)
    assert tuple(headings) == SECTIONS


@pytest.mark.parametrize("info", RULES, ids=[r.code for r in RULES])
def test_page_starts_its_examples_within_a_screen(info) -> None:
    lines = _page(info.code).splitlines()
    first = next(number for number, line in enumerate(lines, 1) if line.startswith("```python"))
    assert first <= LEAD_LINES, f"rules/{info.code}.md: the first example starts at line {first}"


@pytest.mark.parametrize("info", [r for r in RULES if (SHAPES_DIR / f"{r.code}.md").is_file()], ids=lambda r: r.code)
def test_catalogue_of_shapes_marks_examples_and_not_the_clean_code(info) -> None:
    text = (SHAPES_DIR / f"{info.code}.md").read_text(encoding="utf-8")
    headings, blocks = parse_page(info.code, text)
    assert set(headings) <= {"What it does", "Frameworks and versions", "Example", "Use instead"}
    for block in blocks:
        if block.lang == "python" and block.section == "Example":
            assert block.marked_rows().get(info.code), f"tests/shapes/{info.code}.md line {block.line} marks no row"
        if block.lang == "python" and block.section == "Use instead":
            assert not block.marked_rows(), f"tests/shapes/{info.code}.md line {block.line}: a clean shape with a marker"


@pytest.mark.parametrize("info", RULES, ids=[r.code for r in RULES])
def test_page_shows_both_a_flagged_and_a_clean_example(info) -> None:
    _, blocks = parse_page(info.code, _page(info.code))
    python = [b for b in blocks if b.lang == "python"]
    examples = [b for b in python if b.section == "Example"]
    instead = [b for b in python if b.section == "Use instead"]
    assert examples and instead
    for block in examples:
        assert block.marked_rows().get(info.code), f"{block.id} (line {block.line}) marks no row as flagged: {info.code}"
    for block in instead:
        assert not block.marked_rows(), f"{block.id} (line {block.line}) is a 'Use instead' block with a flagged marker"
    assert all(b.lang in {"python", "toml", "text", "console"} for b in blocks), [b.id for b in blocks]


@pytest.mark.parametrize("info", [r for r in RULES if r.fix_applicability], ids=[r.code for r in RULES if r.fix_applicability])
def test_fix_safety_names_the_registry_tier(info) -> None:
    text = _page(info.code)
    section = text.split("## Fix safety", 1)[1].split("\n## ", 1)[0]
    assert f"**{info.fix_applicability}**" in section


@pytest.mark.parametrize("info", RULES, ids=[r.code for r in RULES])
def test_registry_serves_the_page(info) -> None:
    # `mcp-lint rule CODE` prints rule_doc(CODE); from a checkout that is this very file.
    assert docs_dir().resolve() == RULES_DIR
    assert rule_doc(info.code) == _page(info.code)


def test_options_before_a_block_apply_to_that_block_only() -> None:
    page = "\n".join(
        [
            "## Example",
            "<!-- target: mcp>=2.1,<3 -->",
            "",
            "```python",
            "x = 1  # flagged: MCP001",
            "```",
            "Some prose.",
            "```python",
            "y = 2",
            "```",
        ]
    )
    _, blocks = parse_page("MCP001", page)
    assert [(b.options, b.marked_rows()) for b in blocks] == [({"target": "mcp>=2.1,<3"}, {"MCP001": {1}}), ({}, {})]
    with pytest.raises(ValueError, match="unknown block option 'traget'"):
        parse_page("MCP001", "<!-- traget: mcp -->\n```python\nx = 1\n```\n")


# -- the pages' code --------------------------------------------------------------------------


@pytest.mark.parametrize("block", _params("python"))
def test_python_block_is_flagged_exactly_on_marked_rows(block: Block) -> None:
    findings = lint_source(
        block.text, filename="server.py", target=block.options.get("target"), select=("MCP0", block.code), env_files=block.env_files()
    )
    marked = block.marked_rows()
    for code in sorted({block.code, *marked}):
        got = sorted({f.location.row for f in findings if f.code == code})
        detail = "\n".join(f"  {f.code} {f.location.row}: {f.message}" for f in findings)
        assert got == sorted(marked.get(code, set())), f"{block.where} line {block.line} ({block.id}), {code}; findings:\n{detail}"


def _fixes_blocks() -> list:
    return [pytest.param(block, id=block.id) for block in _all_blocks() if "fixes" in block.options]


@pytest.mark.parametrize("block", _fixes_blocks())
def test_fixes_block_is_what_fix_writes_for_its_example(block: Block) -> None:
    _, blocks = parse_page(block.code, _text_of(block))
    examples = [b for b in blocks if b.section == "Example" and b.lang == "python"]
    number = int(block.options["fixes"])
    assert 1 <= number <= len(examples), f"{block.where} line {block.line}: no Example block {number}"
    example = examples[number - 1]
    source = "\n".join(_MARKER_COMMENT.sub("", line) for line in example.text.split("\n"))
    target = example.options.get("target")
    files = example.env_files()
    outcome = fix_source(source, lambda text: lint_source(text, filename="server.py", target=target, select=(block.code,), env_files=files), unsafe=True)
    assert outcome.error is None, outcome.error
    # The block may mark what is still flagged after the fix (a finding with no fix).
    shown = "\n".join(_MARKER_COMMENT.sub("", line) for line in block.text.split("\n"))
    assert outcome.fixed == shown, f"{block.where} line {block.line}: the page shows another fix than --fix writes"


@pytest.mark.parametrize("info", [r for r in RULES if r.fix_applicability == "unsafe"], ids=[r.code for r in RULES if r.fix_applicability == "unsafe"])
def test_page_of_a_rule_with_a_fix_shows_what_the_fix_writes(info) -> None:
    _, blocks = parse_page(info.code, _page(info.code))
    assert any("fixes" in b.options for b in blocks), f"rules/{info.code}.md shows no `<!-- fixes: N -->` block"


@pytest.mark.parametrize("block", _params("toml"))
def test_toml_block_is_valid_configuration(block: Block, tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(block.text, encoding="utf-8")
    settings = load_settings(pyproject)
    assert "[tool.mcp-lint]" in block.text
    # The block must set something the loader kept, not merely parse.
    assert _configured(settings) != _configured(Settings())


def _configured(settings: Settings) -> tuple:
    return (settings.select, settings.ignore, settings.exclude, settings.per_file_ignores, settings.target, settings.cache_dir)
