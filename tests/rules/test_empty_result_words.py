"""The failure vocabulary: an empty search or listing is an answer in every language whose failure
words it knows; a named record that is missing is a failure in each of them."""

from __future__ import annotations

import pytest

from mcp_lint.rules.text import is_failure_text

EMPTY_ANSWERS = [
    "No recipes found for 'basil'",
    "未找到包含关键词 'basil' 的菜谱",
    "没有找到任何菜谱",
    "暂无数据",
    "該当するレシピは見つかりませんでした",
    "検索結果はありません",
    "No se encontraron recetas para 'albahaca'",
    "No hay resultados para esa búsqueda",
    "Keine Rezepte gefunden",
    "Keine Treffer für 'Basilikum'",
    "Aucune recette trouvée",
    "Aucun résultat pour cette recherche",
    "Nenhuma receita encontrada",
    "Sem resultados",
]

MISSING_RECORDS = [
    "Recipe 'basil-soup' not found",
    "未找到菜谱 basil-soup",
    "菜谱不存在",
    "レシピが見つかりません",
    "Receta no encontrada",
    "Rezept nicht gefunden",
    "Recette introuvable",
    "Receita não encontrada",
]


@pytest.mark.parametrize("text", EMPTY_ANSWERS)
def test_an_empty_listing_is_an_answer(text: str) -> None:
    assert not is_failure_text(text)


# A lookup's miss worded as an empty answer over the one record it looked for.
LOOKUP_MISSES = ["No recipe found for 'basil'", *EMPTY_ANSWERS[1:]]


@pytest.mark.parametrize("text", LOOKUP_MISSES)
def test_an_empty_answer_of_a_lookup_is_a_failure(text: str) -> None:
    assert is_failure_text(text, lookup=True)


@pytest.mark.parametrize("text", ["No recipes found for 'basil'", "No saved meals found for guest 7"])
def test_an_english_empty_answer_over_a_plural_is_a_listing_even_under_a_key(text: str) -> None:
    # "No <things> found" under a record's key: the call listed many things and none came.
    assert not is_failure_text(text, lookup=True)


@pytest.mark.parametrize("text", MISSING_RECORDS)
def test_a_missing_named_record_is_a_failure(text: str) -> None:
    assert is_failure_text(text)


def test_a_search_tool_answering_none_found_in_german_is_not_reported_a_lookup_is() -> None:
    from ._support import check

    check(
        """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("kitchen")


@mcp.tool()
def search_recipes(query: str) -> str:
    hits = [r for r in RECIPES if query in r]
    if not hits:
        return f"Keine Rezepte für '{query}' gefunden"
    return "\\n".join(hits)


@mcp.tool()
def get_recipe(recipe_id: str) -> str:
    if recipe_id not in RECIPES:
        return f"Keine Rezepte für '{recipe_id}' gefunden"  # expect: MCP005
    return RECIPES[recipe_id]
"""
    )
