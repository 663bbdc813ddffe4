"""hypothesmith's strategies, built when a test first draws from them, not at import.

Building a grammar strategy (and importing hypothesmith) takes about a second each: at collection
every run would pay it, including runs that select none of these tests.
"""

from __future__ import annotations

from hypothesis import strategies as st


def python_source(start: str | None = None) -> st.SearchStrategy[str]:
    """hypothesmith.from_grammar(), deferred until first drawn."""

    def build() -> st.SearchStrategy[str]:
        import hypothesmith

        return hypothesmith.from_grammar() if start is None else hypothesmith.from_grammar(start=start)

    return st.deferred(build)
