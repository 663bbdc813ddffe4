"""The control-flow graph of one function: which statement may run after which, for every
statement form, as a user of `build_cfg` reads it (successors, reachability, shadowed clauses)."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from mcp_lint.engine.graph import ControlFlowGraph, EdgeKind, Node, NodeKind
from mcp_lint.engine.libcst_cfg import build_cfg, shadowed_clauses

_EMPTY = cst.Module(body=[])


def _graph(source: str, class_bases=None) -> ControlFlowGraph:
    module = cst.parse_module(textwrap.dedent(source))
    function = next(s for s in module.body if isinstance(s, cst.FunctionDef))
    return build_cfg(function, class_bases)


def _label(node: Node) -> str:
    if node.syntax is None:
        return node.kind.value
    if node.kind is NodeKind.WITH_EXIT:
        return "with-exit"
    if node.kind is NodeKind.FINALLY:
        return "finally"
    code = _EMPTY.code_for_node(node.syntax).strip()
    return code.splitlines()[0].rstrip(":;").strip()


def _find(graph: ControlFlowGraph, text: str) -> Node:
    found = [n for n in graph.nodes if _label(n) == text]
    assert len(found) == 1, (text, [_label(n) for n in graph.nodes])
    return found[0]


def _next(graph: ControlFlowGraph, text: str, *kinds: EdgeKind) -> set[str]:
    return {_label(n) for n in graph.successors(_find(graph, text), kinds or None)}


def _unreachable(graph: ControlFlowGraph) -> list[str]:
    return [_label(n) for n in graph.unreachable()]


def test_straight_line_and_implicit_return() -> None:
    g = _graph(
        """
        def f(a):
            x = a
            y = x; z = y
        """
    )
    assert _next(g, "entry") == {"x = a"}
    assert _next(g, "x = a") == {"y = x"}
    assert _next(g, "y = x") == {"z = y"}
    assert _next(g, "z = y") == {"exit"}
    assert _unreachable(g) == []


def test_if_elif_else_branches() -> None:
    g = _graph(
        """
        def f(a):
            if a == 1:
                r = "one"
            elif a == 2:
                r = "two"
            else:
                r = "many"
            return r
        """
    )
    assert _next(g, "if a == 1") == {'r = "one"', "if a == 2"}  # the `elif`
    assert _next(g, "if a == 2") == {'r = "two"', 'r = "many"'}
    assert _next(g, 'r = "one"') == _next(g, 'r = "two"') == _next(g, 'r = "many"') == {"return r"}
    assert _next(g, "return r") == {"exit"}


def test_if_without_else_falls_through() -> None:
    g = _graph(
        """
        def f(a):
            if a:
                log(a)
            return a
        """
    )
    assert _next(g, "if a") == {"log(a)", "return a"}


def test_return_makes_the_rest_unreachable() -> None:
    g = _graph(
        """
        def f(a):
            return a
            cleanup()
            if a:
                more()
        """
    )
    assert _unreachable(g) == ["cleanup()", "if a", "more()"]
    assert not g.is_reachable(_find(g, "cleanup()").syntax)
    assert g.is_reachable(_find(g, "return a").syntax)


def test_raise_only_has_exception_edges() -> None:
    g = _graph(
        """
        def f(a):
            raise ValueError(a)
            after()
        """
    )
    raise_node = _find(g, "raise ValueError(a)")
    assert [e.kind for e in raise_node.successors] == [EdgeKind.EXCEPTION]
    assert _next(g, "raise ValueError(a)") == {"escape"}
    assert _unreachable(g) == ["after()"]


def test_statements_that_cannot_raise_have_no_exception_edge() -> None:
    g = _graph(
        """
        def f(a):
            try:
                x = "text"
                y = fetch(a)
            except OSError:
                pass
        """
    )
    assert _next(g, 'x = "text"', EdgeKind.EXCEPTION) == set()
    assert _next(g, "y = fetch(a)", EdgeKind.EXCEPTION) == {"except OSError", "escape"}


def test_for_loop_back_edge_else_and_break() -> None:
    g = _graph(
        """
        def f(items):
            for item in items:
                if item:
                    break
                use(item)
            else:
                none_found()
            return 1
        """
    )
    assert _next(g, "for item in items", EdgeKind.NORMAL) == {"if item", "none_found()"}
    assert _next(g, "for item in items", EdgeKind.EXCEPTION) == {"escape"}  # iterating may raise
    assert _next(g, "use(item)", EdgeKind.LOOP_BACK) == {"for item in items"}
    assert _next(g, "break") == {"return 1"}  # past the else
    assert _next(g, "none_found()", EdgeKind.NORMAL) == {"return 1"}


def test_continue_goes_back_to_the_header() -> None:
    g = _graph(
        """
        def f(items):
            for item in items:
                if not item:
                    continue
                use(item)
        """
    )
    assert _next(g, "continue", EdgeKind.LOOP_BACK) == {"for item in items"}
    assert _next(g, "for item in items", EdgeKind.NORMAL) == {"if not item", "exit"}


def test_while_loop_and_while_true() -> None:
    g = _graph(
        """
        def f(n):
            while n > 0:
                n = step(n)
            while True:
                if done():
                    break
            return n
        """
    )
    assert _next(g, "while n > 0", EdgeKind.NORMAL) == {"n = step(n)", "while True"}
    assert _next(g, "n = step(n)", EdgeKind.LOOP_BACK) == {"while n > 0"}
    # `while True` leaves only by its break
    assert _next(g, "while True") == {"if done()"}
    assert _next(g, "break") == {"return n"}


def test_while_true_without_break_makes_the_rest_unreachable() -> None:
    g = _graph(
        """
        def f():
            while True:
                poll()
            never()
        """
    )
    assert _unreachable(g) == ["never()"]


def test_async_for_and_async_with() -> None:
    g = _graph(
        """
        async def f(stream):
            async with open_session() as session:
                async for chunk in stream:
                    await session.send(chunk)
            return "done"
        """
    )
    assert _next(g, "async with open_session() as session") == {"async for chunk in stream", "escape"}
    assert _next(g, "await session.send(chunk)", EdgeKind.LOOP_BACK) == {"async for chunk in stream"}
    assert _next(g, "async for chunk in stream", EdgeKind.NORMAL) == {"await session.send(chunk)", 'return "done"'}
    assert _next(g, "await session.send(chunk)", EdgeKind.EXCEPTION) == {"with-exit"}
    assert _next(g, "with-exit") == {"escape"}


def test_with_suppress_continues_after_the_statement() -> None:
    g = _graph(
        """
        def f(path):
            with suppress(OSError):
                remove(path)
            return "ok"
        """
    )
    assert _next(g, "with-exit") == {"escape", 'return "ok"'}


def test_try_except_else() -> None:
    g = _graph(
        """
        def f(a):
            try:
                data = load(a)
            except KeyError:
                return "missing"
            except (OSError, ValueError) as e:
                return str(e)
            else:
                data = clean(data)
            return data
        """
    )
    assert _next(g, "data = load(a)", EdgeKind.EXCEPTION) == {"except KeyError", "except (OSError, ValueError) as e", "escape"}
    assert _next(g, "data = load(a)", EdgeKind.NORMAL) == {"data = clean(data)"}
    assert _next(g, "except KeyError") == {'return "missing"'}
    # the else is not guarded by the clauses
    assert _next(g, "data = clean(data)", EdgeKind.EXCEPTION) == {"escape"}
    assert _next(g, "data = clean(data)", EdgeKind.NORMAL) == {"return data"}


def test_catch_all_clause_stops_the_exception() -> None:
    g = _graph(
        """
        def f(a):
            try:
                load(a)
            except Exception as e:
                return str(e)
        """
    )
    assert _next(g, "load(a)", EdgeKind.EXCEPTION) == {"except Exception as e"}


def test_bare_except_catches_everything() -> None:
    g = _graph(
        """
        def f(a):
            try:
                load(a)
            except:
                pass
        """
    )
    assert _next(g, "load(a)", EdgeKind.EXCEPTION) == {"except"}


def test_finally_is_entered_from_every_way_out() -> None:
    g = _graph(
        """
        def f(a):
            try:
                if a:
                    return fetch(a)
                value = other(a)
            except OSError:
                raise
            finally:
                close()
            return value
        """
    )
    assert _next(g, "return fetch(a)", EdgeKind.NORMAL) == {"finally"}
    assert _next(g, "value = other(a)", EdgeKind.NORMAL) == {"finally"}
    assert _next(g, "raise", EdgeKind.EXCEPTION) == {"finally"}
    assert _next(g, "value = other(a)", EdgeKind.EXCEPTION) == {"except OSError", "finally"}
    # the end of the finally block goes on to each continuation that entered it
    assert _next(g, "close()", EdgeKind.NORMAL) == {"return value", "exit"}
    assert _next(g, "close()", EdgeKind.EXCEPTION) == {"escape"}


def test_break_through_finally_reaches_the_loop_exit() -> None:
    g = _graph(
        """
        def f(items):
            for item in items:
                try:
                    if item:
                        break
                    continue
                finally:
                    release()
            return 1
        """
    )
    assert _next(g, "break") == {"finally"}
    assert _next(g, "continue") == {"finally"}
    assert _next(g, "release()", EdgeKind.NORMAL) == {"return 1"}
    assert _next(g, "release()", EdgeKind.LOOP_BACK) == {"for item in items"}


def test_finally_that_returns_ends_every_path() -> None:
    g = _graph(
        """
        def f():
            try:
                work()
            finally:
                return "always"
            after()
        """
    )
    assert _unreachable(g) == ["after()"]
    assert _next(g, 'return "always"') == {"exit"}


def test_nested_try_reraises_to_outer_clause() -> None:
    g = _graph(
        """
        def f(a):
            try:
                try:
                    load(a)
                except KeyError:
                    raise LookupError(a)
            except LookupError as e:
                return str(e)
        """
    )
    assert _next(g, "load(a)", EdgeKind.EXCEPTION) == {"except KeyError", "except LookupError as e", "escape"}
    assert _next(g, "raise LookupError(a)") == {"except LookupError as e", "escape"}


def test_shadowed_clause_by_builtin_hierarchy_is_unreachable() -> None:
    g = _graph(
        """
        def f(a):
            try:
                load(a)
            except Exception as e:
                return "failed"
            except ValueError as e:
                return str(e)
        """
    )
    assert [_EMPTY.code_for_node(h).splitlines()[0] for h in g.shadowed_handlers] == ["except ValueError as e:"]
    assert _unreachable(g) == ["except ValueError as e", "return str(e)"]
    assert _next(g, "load(a)", EdgeKind.EXCEPTION) == {"except Exception as e"}


def test_subclass_clause_after_its_base_and_alias_are_shadowed() -> None:
    g = _graph(
        """
        def f(a):
            try:
                load(a)
            except OSError:
                return "os"
            except (FileNotFoundError, IOError):
                return "never"
            except KeyError:
                return "key"
        """
    )
    assert _unreachable(g) == ["except (FileNotFoundError, IOError)", 'return "never"']
    assert g.is_reachable(_find(g, 'return "key"').syntax)


def test_base_after_subclass_is_not_shadowed() -> None:
    g = _graph(
        """
        def f(a):
            try:
                load(a)
            except ValueError as e:
                return "value"
            except Exception as e:
                return str(e)
        """
    )
    assert g.shadowed_handlers == ()
    assert _unreachable(g) == []


def test_partly_shadowed_tuple_is_reachable() -> None:
    g = _graph(
        """
        def f(a):
            try:
                load(a)
            except ValueError:
                return "value"
            except (ValueError, OSError):
                return "os"
        """
    )
    assert g.shadowed_handlers == ()


def test_project_class_hierarchy_decides_shadowing() -> None:
    source = """
        def f(a):
            try:
                load(a)
            except AppError:
                return "app"
            except NotFound:
                return "missing"
        """
    assert _unreachable(_graph(source, {"NotFound": ("AppError",), "AppError": ("Exception",)})) == ["except NotFound", 'return "missing"']
    assert _unreachable(_graph(source, {})) == []  # unknown classes: no verdict
    # a project class derived from a builtin one, after that builtin's clause
    derived = _graph(source.replace("AppError:", "LookupError:"), {"NotFound": ("KeyError",)})
    assert _unreachable(derived) == ["except NotFound", 'return "missing"']


def test_unknown_class_expression_shadows_nothing() -> None:
    module = cst.parse_module("try:\n    x()\nexcept errors():\n    pass\nexcept ValueError:\n    pass\n")
    assert shadowed_clauses(module.body[0]) == frozenset()


def test_try_star() -> None:
    g = _graph(
        """
        def f(a):
            try:
                run(a)
            except* ValueError:
                report()
            return 1
        """
    )
    assert _next(g, "run(a)", EdgeKind.EXCEPTION) == {"except* ValueError", "escape"}
    assert _next(g, "report()", EdgeKind.NORMAL) == {"return 1"}


def test_match_cases() -> None:
    g = _graph(
        """
        def f(command):
            match command:
                case {"action": "get", "id": ident}:
                    result = fetch(ident)
                case str() if command:
                    result = command
                case _:
                    return "unknown"
            return result
        """
    )
    assert _next(g, "match command") == {'case {"action": "get", "id": ident}'}
    assert _next(g, 'case {"action": "get", "id": ident}') == {"result = fetch(ident)", "case str() if command"}
    assert _next(g, "case str() if command") == {"result = command", "case _"}
    assert _next(g, "case _") == {'return "unknown"'}  # irrefutable: no fall-through past the match


def test_match_without_irrefutable_case_falls_through() -> None:
    g = _graph(
        """
        def f(command):
            match command:
                case "a":
                    go()
            return 1
        """
    )
    assert _next(g, 'case "a"') == {"go()", "return 1"}


def test_nested_definitions_are_single_nodes() -> None:
    g = _graph(
        """
        def f(a):
            def inner():
                return never_here()
            class Local:
                x = 1
            return inner
        """
    )
    assert _find(g, "def inner()").kind is NodeKind.DEFINITION
    assert _next(g, "def inner()") == {"class Local"}
    assert not any(_label(n).startswith("return never_here") for n in g.nodes)


def test_assert_may_raise_and_continues() -> None:
    g = _graph(
        """
        def f(a):
            assert a, "needed"
            return a
        """
    )
    assert _next(g, 'assert a, "needed"') == {"return a", "escape"}


@pytest.mark.parametrize(
    "statement", ["del a[0]", "global G", "import os", "a += 1", "x: int = compute()", "yield a", "print(a)", "fn = lambda: 1"]
)
def test_other_simple_statements_fall_through(statement: str) -> None:
    g = _graph(f"def f(a):\n    {statement}\n    return a\n")
    assert _next(g, statement, EdgeKind.NORMAL) == {"return a"}
    assert _unreachable(g) == []


def test_library_class_after_exception_is_shadowed_but_cancellation_is_not() -> None:
    g = _graph(
        """
        def f(a):
            try:
                load(a)
            except Exception:
                return "failed"
            except httpx.HTTPError:
                return "http"
            except asyncio.CancelledError:
                raise
        """
    )
    assert _unreachable(g) == ["except httpx.HTTPError", 'return "http"']


def test_exception_reaches_the_clause_that_may_take_it() -> None:
    g = _graph(
        """
        def f():
            try:
                read()
                try:
                    write()
                except Exception:
                    log()
                with lock():
                    send()
                try:
                    audit()
                finally:
                    close()
            except TimeoutError:
                retry()
        """
    )
    outer = next(n for n in g.nodes if n.kind is NodeKind.HANDLER and "TimeoutError" in _label(n))
    inner = next(n for n in g.nodes if n.kind is NodeKind.HANDLER and "Exception" in _label(n))
    assert g.exception_reaches(_find(g, "read()"), outer)
    # Taken by the inner catch-all clause: it never arrives at the outer one.
    assert g.exception_reaches(_find(g, "write()"), inner)
    assert not g.exception_reaches(_find(g, "write()"), outer)
    # Out of a `with` body (through the managers' exit) and through a `finally` block.
    assert g.exception_reaches(_find(g, "send()"), outer)
    assert g.exception_reaches(_find(g, "audit()"), outer)
    # Raised in the clause itself: past the `try`, to the caller.
    assert not g.exception_reaches(_find(g, "retry()"), outer)
    assert g.exception_reaches(_find(g, "retry()"), g.escape)
