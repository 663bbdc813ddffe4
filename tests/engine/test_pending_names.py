"""The engine's link-time decision of a traced value's pending names (linking/pending.py): over
the records a rule files (TaintExport, TaintArgument), a name of another module is followed to
where the value is read. The records and project here are made up; nothing names a rule."""

from __future__ import annotations

from dataclasses import dataclass, field

from mcp_lint.linking.pending import MAX_HOPS, PendingNames
from mcp_lint.model.taint import ARGUMENT, PASSES, VALUE, Pending, TaintArgument, TaintExport

CODE = "X999"


@dataclass
class _Summary:
    path: str


@dataclass
class _Function:
    qualname: str
    name: str
    params: tuple[str, ...]


@dataclass
class _Project:
    records_by_path: dict[str, list[object]]
    functions: dict[str, _Function] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)

    def records(self, code: str) -> list[tuple[_Summary, object]]:
        assert code == CODE
        return [(_Summary(path), record) for path, records in self.records_by_path.items() for record in records]

    def function(self, qualname: str, depth: int = 0) -> tuple[_Summary, _Function] | None:
        found = self.functions.get(self.resolve(qualname))
        return (_Summary("?"), found) if found is not None else None

    def resolve(self, qualname: str) -> str:
        return self.aliases.get(qualname, qualname)


def names(project: _Project) -> PendingNames:
    return PendingNames(project, CODE)  # type: ignore[arg-type]


def test_a_constant_of_another_module_read_through_a_re_export_and_a_second_module() -> None:
    project = _Project(
        {
            "pkg/config.py": [TaintExport(Pending("pkg.config.SHADE", VALUE), "", "BASE", "3:0:3:4", ("SHADE",), pending=Pending("pkg.base.BASE", VALUE))],
            "pkg/base.py": [TaintExport(Pending("pkg.base.BASE", VALUE), "a colour", "palette()", "1:7:1:16", ("BASE",), tags=frozenset({"t"}))],
        },
        aliases={"pkg.SHADE": "pkg.config.SHADE"},
    )
    read = names(project).decide(Pending("pkg.SHADE", VALUE), "", ("message",), frozenset())
    assert read is not None
    assert (read.what, read.origin, read.origin_file, read.tags) == ("a colour", "palette()", "pkg/base.py", frozenset({"t"}))
    assert read.via == ("BASE", "SHADE", "message")  # in the order the value went
    # Silent: the name is not exported (it carries nothing), or the chain goes nowhere.
    assert names(project).decide(Pending("pkg.config.OTHER", VALUE), "", (), frozenset()) is None
    broken = _Project({"pkg/config.py": project.records_by_path["pkg/config.py"]})
    assert names(broken).decide(Pending("pkg.config.SHADE", VALUE), "", (), frozenset()) is None


def test_an_argument_a_caller_of_another_module_passes() -> None:
    fail = _Function("pkg.errors.fail", "fail", ("target",))
    passed = TaintArgument("pkg.errors.fail", 0, "", False, "a colour", "palette()", "5:9:5:18", ("shade",), "send")
    project = _Project({"pkg/tools.py": [passed]}, {"pkg.errors.fail": fail})
    read = names(project).decide(Pending("pkg.errors.fail", ARGUMENT, parameter="target"), "", ("target",), frozenset())
    assert read is not None and (read.what, read.function, read.origin_file, read.via) == ("a colour", "send", "pkg/tools.py", ("shade", "target"))
    # Silent: the call passes the value at another place.
    other = _Function("pkg.errors.fail", "fail", ("code", "target"))
    project = _Project({"pkg/tools.py": [passed]}, {"pkg.errors.fail": other})
    assert names(project).decide(Pending("pkg.errors.fail", ARGUMENT, parameter="target"), "", (), frozenset()) is None


def test_a_name_of_a_confirming_kind_keeps_the_read_where_the_taint_was_found() -> None:
    project = _Project({"pkg/text.py": [TaintExport(Pending("pkg.text.quote", PASSES, parameter="0"))]})
    read = names(project).decide(Pending("pkg.text.quote", PASSES, parameter="0"), "a colour", ("shade",), frozenset({"t"}))
    assert read is not None and (read.what, read.origin_file, read.via, read.tags) == ("a colour", "", ("shade",), frozenset({"t"}))
    # A function that returns another of its parameters confirms nothing.
    assert names(project).decide(Pending("pkg.text.quote", PASSES, parameter="1"), "a colour", (), frozenset()) is None


def test_a_chain_longer_than_the_hop_limit_is_not_followed() -> None:
    chain = {
        f"pkg/m{i}.py": [TaintExport(Pending(f"pkg.m{i}.V", VALUE), "", f"V{i}", "1:0:1:2", (), pending=Pending(f"pkg.m{i + 1}.V", VALUE))]
        for i in range(MAX_HOPS + 1)
    }
    chain[f"pkg/m{MAX_HOPS + 1}.py"] = [TaintExport(Pending(f"pkg.m{MAX_HOPS + 1}.V", VALUE), "a colour", "palette()", "1:0:1:9")]
    assert names(_Project(chain)).decide(Pending("pkg.m0.V", VALUE), "", (), frozenset()) is None
    short = {path: records for path, records in chain.items() if int(path[5:-3]) >= 2}
    assert names(_Project(short)).decide(Pending("pkg.m2.V", VALUE), "", (), frozenset()) is not None


def test_a_parameter_of_a_function_the_tools_reach_holds_what_callers_on_their_way_pass() -> None:
    fail = _Function("pkg.errors.fail", "fail", ("target",))
    script = TaintArgument("pkg.errors.fail", 0, "", False, "a colour", "palette()", "5:9:5:18", (), "main", caller="pkg.cli.main")
    project = _Project({"pkg/cli.py": [script]}, {"pkg.errors.fail": fail})
    wait = Pending("pkg.errors.fail", ARGUMENT, parameter="target")
    # The tools reach `fail`, not the script that passes the colour: silent on their way.
    assert names(project).decide(wait, "", (), frozenset(), reached={"pkg.errors.fail", "pkg.tools.send"}) is None
    # A caller the tools reach passes it: decided.
    reached = {"pkg.errors.fail", "pkg.cli.main"}
    assert names(project).decide(wait, "", (), frozenset(), reached=reached) is not None
    # A function the tools do not reach (it sets the server up) takes any caller's value.
    assert names(project).decide(wait, "", (), frozenset(), reached={"pkg.tools.send"}) is not None
