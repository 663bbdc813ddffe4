"""bench/blind.py: lints each package of a labeled set from its folder and scores the findings against the set's labels."""

from __future__ import annotations

import csv
import json
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest
from script_support import REPO, load_script

HEADER_PACKAGES = "package\tframework\tversion_evidence\ttool_count\tfiles_read\tremarks\n"
HEADER_LABELS = "package\tfile\tstart_line\tend_line\trule\tindirect\tnote\n"


@pytest.fixture(scope="module")
def blind() -> ModuleType:
    return load_script("bench/blind.py", "bench_blind")


def _made_up_set(tmp_path: Path) -> tuple[Path, Path]:
    """A set of one package whose labels the fake linter below half meets, and its unpacked corpus."""
    set_dir = tmp_path / "set"
    set_dir.mkdir()
    (set_dir / "packages.txt").write_text("# two made-up servers\nnotes-mcp==0.1.0\nquiet-mcp==2.0\n", encoding="utf-8")
    (set_dir / "labeled-packages.tsv").write_text(
        HEADER_PACKAGES
        + "notes-mcp==0.1.0\tmcp 1.x FastMCP\timport\t2\tnotes/server.py\t\n"
        + "quiet-mcp==2.0\tfastmcp 2.x\timport\t1\tquiet.py\tno defects\n",
        encoding="utf-8",
    )
    (set_dir / "labels.tsv").write_text(
        HEADER_LABELS
        + "notes-mcp==0.1.0\tnotes/server.py\t12\t12\tMCP002\t0\tread_note: OSError text returned\n"
        + "notes-mcp==0.1.0\tnotes/server.py\t12\t12\tMCP005\t0\tread_note: error string as success\n"
        + "notes-mcp==0.1.0\tnotes/store.py\t30\t33\tMCP002\t1\tload: upstream body in raised text\n",
        encoding="utf-8",
    )
    corpus = tmp_path / "corpus"
    (corpus / "src" / "notes-mcp-0.1.0" / "notes").mkdir(parents=True)
    (corpus / "src" / "quiet-mcp-2.0").mkdir(parents=True)
    return set_dir, corpus


def _fake_linter(tmp_path: Path) -> str:
    """An `mcp-lint` stand-in: prints fixed JSON findings with absolute file names under the folder it runs in."""
    script = tmp_path / "fake_mcp_lint.py"
    script.write_text(
        textwrap.dedent(
            """
            import json, os, sys
            assert sys.argv[1:7] == ["check", ".", "--output-format", "json", "--no-cache", "--exit-zero"], sys.argv
            # The scored rules are selected too (a preview rule is off by default).
            assert sys.argv[7:8] == ["--extend-select"] and "MCP002" in sys.argv[8].split(","), sys.argv
            here = os.getcwd()
            findings = []
            if here.endswith("notes-mcp-0.1.0"):
                server = os.path.join(here, "notes", "server.py")
                findings = [
                    {"code": "MCP005", "filename": server, "location": {"row": 13, "column": 9}},
                    {"code": "MCP002", "filename": server, "location": {"row": 40, "column": 5}},
                ]
            print(json.dumps(findings))
            """
        ),
        encoding="utf-8",
    )
    launcher = tmp_path / "mcp-lint"
    launcher.write_text(f"#!/bin/sh\nexec {sys.executable} {script} \"$@\"\n", encoding="utf-8")
    launcher.chmod(0o755)
    return str(launcher)


def test_finding_rows_name_files_relative_to_the_package_folder(blind, tmp_path: Path) -> None:
    folder = tmp_path / "pkg-1.0"
    rows = blind.finding_rows(
        "pkg==1.0",
        folder,
        [
            {"code": "MCP002", "filename": str(folder / "pkg" / "tools.py"), "location": {"row": 7, "column": 1}},
            {"code": "MCP005", "filename": "elsewhere.py", "location": {"row": 3, "column": 1}},
        ],
    )
    assert rows == [("pkg==1.0", "pkg/tools.py", 7, "MCP002"), ("pkg==1.0", "elsewhere.py", 3, "MCP005")]


def test_a_made_up_set_is_scored_and_every_miss_and_false_alarm_listed(blind, tmp_path: Path, capsys) -> None:
    if not (blind.CORPUS_TOOLS / "score.py").is_file():
        pytest.skip("no ../shared/corpus/score.py beside this checkout (nor $MCP_LINT_CORPUS_TOOLS)")
    set_dir, corpus = _made_up_set(tmp_path)
    out_json = tmp_path / "score.json"
    status = blind.main(
        ["--set", str(set_dir), "--corpus", str(corpus), "--no-fetch", "--mcp-lint", _fake_linter(tmp_path), "--json", str(out_json)]
    )
    printed = capsys.readouterr().out
    assert status == 0

    with (corpus / "findings.tsv").open(encoding="utf-8") as handle:
        findings = list(csv.DictReader(handle, delimiter="\t"))
    assert [(f["package"], f["file"], f["line"], f["rule"]) for f in findings] == [
        ("notes-mcp==0.1.0", "notes/server.py", "13", "MCP005"),
        ("notes-mcp==0.1.0", "notes/server.py", "40", "MCP002"),
    ]

    # The MCP005 finding is one line off its label (within the +-1 the scorer allows); the MCP002
    # finding at 40 matches nothing, so both MCP002 labels are missed.
    report = json.loads(out_json.read_text(encoding="utf-8"))["report"]
    assert (report["MCP005"]["labels"], report["MCP005"]["tp"], report["MCP005"]["fp"], report["MCP005"]["fn"]) == (1, 1, 0, 0)
    assert (report["MCP002"]["labels"], report["MCP002"]["tp"], report["MCP002"]["fp"], report["MCP002"]["fn"]) == (2, 0, 1, 2)
    table = {line.split()[0]: line.split() for line in printed.splitlines() if line.startswith("MCP00")}
    assert table["MCP005"][:5] == ["MCP005", "1", "1", "0", "0"]
    assert table["MCP002"][:5] == ["MCP002", "2", "0", "1", "2"]
    assert "FN MCP002 notes-mcp==0.1.0 notes/server.py:12 read_note: OSError text returned" in printed
    assert "FN MCP002 notes-mcp==0.1.0 notes/store.py:30-33 load: upstream body in raised text" in printed
    assert "FP MCP002 notes-mcp==0.1.0 notes/server.py:40" in printed


def test_table_only_hides_the_misses_and_json_may_name_the_score_in_place(blind, tmp_path: Path, capsys) -> None:
    if not (blind.CORPUS_TOOLS / "score.py").is_file():
        pytest.skip("no ../shared/corpus/score.py beside this checkout (nor $MCP_LINT_CORPUS_TOOLS)")
    set_dir, corpus = _made_up_set(tmp_path)
    in_place = corpus / "score.json"
    status = blind.main(
        ["--set", str(set_dir), "--corpus", str(corpus), "--no-fetch", "--mcp-lint", _fake_linter(tmp_path),
         "--json", str(in_place), "--table-only"]
    )
    printed = capsys.readouterr().out
    assert status == 0
    assert any(line.startswith("MCP002") for line in printed.splitlines())
    assert "FN " not in printed and "FP " not in printed
    assert json.loads(in_place.read_text(encoding="utf-8"))["false_negatives"]


def test_a_set_without_its_label_file_fails_in_one_line(blind, tmp_path: Path, capsys) -> None:
    set_dir, corpus = _made_up_set(tmp_path)
    (set_dir / "labels.tsv").unlink()
    assert blind.main(["--set", str(set_dir), "--corpus", str(corpus), "--no-fetch"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "missing labels.tsv" in error


def test_a_missing_scorer_fails_in_one_line(blind, tmp_path: Path, capsys) -> None:
    set_dir, corpus = _made_up_set(tmp_path)
    tools = ["--tools", str(tmp_path / "nowhere")]
    status = blind.main(["--set", str(set_dir), "--corpus", str(corpus), "--no-fetch", *tools, "--mcp-lint", _fake_linter(tmp_path)])
    error = capsys.readouterr().err
    assert status == 1
    assert error.count("\n") == 1 and error.startswith("blind: no scorer at ")


def test_a_package_that_was_not_unpacked_is_named(blind, tmp_path: Path, capsys) -> None:
    set_dir, corpus = _made_up_set(tmp_path)
    (corpus / "src" / "quiet-mcp-2.0").rmdir()
    assert blind.main(["--set", str(set_dir), "--corpus", str(corpus), "--no-fetch", "--mcp-lint", _fake_linter(tmp_path)]) == 1
    assert "quiet-mcp==2.0: not unpacked at" in capsys.readouterr().err


def test_the_committed_blind_set_is_consistent_and_held_out(blind) -> None:
    set_dir = REPO / "bench" / "blind"
    blind.check_set(set_dir)
    specs = blind.pinned(set_dir / "packages.txt")
    with (set_dir / "labeled-packages.tsv").open(encoding="utf-8") as handle:
        described = [row["package"] for row in csv.DictReader(handle, delimiter="\t")]
    with (set_dir / "labels.tsv").open(encoding="utf-8") as handle:
        labels = list(csv.DictReader(handle, delimiter="\t"))
    assert specs == described and len(set(specs)) == len(specs) >= 12
    assert len(labels) >= 150
    for label in labels:
        assert label["package"] in specs
        assert label["rule"] in {"MCP001", "MCP002", "MCP003", "MCP004", "MCP005"}
        assert label["indirect"] in {"0", "1"}
        assert 1 <= int(label["start_line"]) <= int(label["end_line"])
        assert label["note"].strip()
    names = {spec.split("==")[0].lower() for spec in specs}
    for other in (REPO.parent / "shared" / "corpus" / "public.txt", REPO / "bench" / "heldout.txt"):
        if other.is_file():
            assert not names & {spec.split("==")[0].lower() for spec in blind.pinned(other)}
