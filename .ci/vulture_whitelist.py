"""Names vulture (at 60% confidence, .ci/run) reports as unused that are used, by name or from outside
mcp_lint/: `vulture mcp_lint/ .ci/vulture_whitelist.py --min-confidence 60`. Anything new it reports is
dead code to delete, or a dynamic use to list here under its reason."""

# ruff: noqa: B018, F821

# libcst calls visitor and CodegenState methods by name (visit_<Node>, leave_<Node>, the codegen hooks)
_.leave_Raise  # unused method (mcp_lint/model/exception_origin.py:173)
_.visit_Arg  # unused method (mcp_lint/model/flow.py:218)
_.visit_AssignTarget  # unused method (mcp_lint/model/flow.py:239)
_.visit_Comparison  # unused method (mcp_lint/model/flow.py:362)
_.visit_BinaryOperation  # unused variable (mcp_lint/model/flow.py:477: _RefCollector._composite)
_.visit_ConcatenatedString  # unused variable (mcp_lint/model/flow.py:477: _RefCollector._composite)
_.visit_FormattedString  # unused variable (mcp_lint/model/flow.py:477: _RefCollector._composite)
_.visit_BooleanOperation  # unused variable (mcp_lint/model/flow.py:478: _RefCollector._composite)
_.visit_UnaryOperation  # unused method (mcp_lint/model/flow.py:365)
_.visit_CompIf  # unused method (mcp_lint/model/flow.py:368)
_.visit_TryStar  # unused method (mcp_lint/model/function_body.py:127)
_.visit_SimpleStatementLine  # unused method (mcp_lint/model/function_body.py:327)
_.visit_SimpleStatementSuite  # unused method (mcp_lint/model/function_body.py:330)
_.leave_With  # unused method (mcp_lint/model/function_body.py:338)
_.visit_Match  # unused method (mcp_lint/model/function_body.py:344)
_.visit_WithItem  # unused method (mcp_lint/model/function_body.py:347)
_.visit_NamedExpr  # unused method (mcp_lint/model/function_body.py:434)
_.visit_AnnAssign  # unused method (mcp_lint/model/function_body.py:469)
_.leave_For  # unused method (mcp_lint/model/function_refs.py:47)
leave_DictComp  # unused variable (mcp_lint/model/function_refs.py:85)
leave_GeneratorExp  # unused variable (mcp_lint/model/function_refs.py:85)
leave_ListComp  # unused variable (mcp_lint/model/function_refs.py:85)
leave_SetComp  # unused variable (mcp_lint/model/function_refs.py:85)
_.visit_FormattedStringExpression  # unused method (mcp_lint/model/message_text.py:61)
_.leave_ClassDef  # unused method (mcp_lint/model/module_walk.py:60)
_.leave_FunctionDef  # unused method (mcp_lint/model/module_walk.py:138)
_.add_indent_tokens  # unused method (mcp_lint/model/positions.py:126)
_.add_token  # unused method (mcp_lint/model/positions.py:131)
_.before_codegen  # unused method (mcp_lint/model/positions.py:143)
_.after_codegen  # unused method (mcp_lint/model/positions.py:146)
_.record_syntactic_position  # unused method (mcp_lint/model/positions.py:152)

# Each rule's VALID examples are run by tests/test_rule_examples.py (the rule classes themselves, loaded
# by the name their registry line gives, are passed as --ignore-names: .ci/rule_classes.py)
VALID  # unused variable (mcp_lint/rules/base.py:253)

# pytest calls the plugin's hooks and fixtures by name (entry point pytest11)
pytest_addoption  # unused function (mcp_lint/probe/pytest_plugin.py:29)
mcp_session  # unused function (mcp_lint/probe/pytest_plugin.py:70)
mcp_raw_session  # unused function (mcp_lint/probe/pytest_plugin.py:89)

# Interfaces that take arguments they ignore (__exit__'s exc_info, rich.Text's style) and dataclass hooks
_.__post_init__  # unused attribute (mcp_lint/model/parsing.py:34)
exc_info  # unused variable (mcp_lint/model/positions.py:110)
style  # unused variable (mcp_lint/output/full.py:62)

# Dataclass fields set by keyword or position and read by getattr/asdict (reports) or by the tests
_.in_else_of  # RaiseFact field, set positionally (mcp_lint/model/facts.py)
help  # unused variable (mcp_lint/findings.py:74)
notes  # unused variable (mcp_lint/findings.py:76)
related  # unused variable (mcp_lint/findings.py:78)
elapsed  # unused variable (mcp_lint/probe/client.py:41)
_.elapsed  # unused attribute (mcp_lint/probe/client.py:201)

# Read by the tests only: the framework table's rows (tests/test_framework_rows.py) and library helpers the tests call
module_name_for  # unused function (mcp_lint/analysis.py:50)
_.notation  # unused method (mcp_lint/model/frameworks.py:341)
tool_error  # unused variable (mcp_lint/model/frameworks.py:407)
validation_failure  # unused variable (mcp_lint/model/frameworks.py:408)
protocol_error_constructor  # unused variable (mcp_lint/model/frameworks.py:426)
server_class  # unused variable (mcp_lint/model/frameworks.py:427)
_.error_result_shapes  # unused property (mcp_lint/model/frameworks.py:443)
_.masks_unexpected_exceptions  # unused method (mcp_lint/model/frameworks.py:461)
_.middleware_transforms_tool_errors  # unused property (mcp_lint/model/frameworks.py:495)
_.middleware_hides_tool_errors  # unused property (mcp_lint/model/frameworks.py:500)
error_middleware_since  # unused function (mcp_lint/model/frameworks.py:791)
_.describe_where  # unused method (mcp_lint/model/frameworks.py:859)
internal_errors  # unused variable (mcp_lint/pipeline.py:310)
clear_cache  # unused function (mcp_lint/project.py:97)
# The control-flow graph's questions a rule may ask, asked today by the engine's own tests
_.shadowed_handlers  # unused attribute (mcp_lint/engine/graph.py)
_.is_reachable  # unused method (mcp_lint/engine/graph.py)
_.unreachable  # unused method (mcp_lint/engine/graph.py)
# The language server's handlers, registered with pygls by decorator and called by the client
_.disabled  # unused attribute (mcp_lint/server/lsp.py: lsprotocol's CodeAction field)
initialized  # unused function (mcp_lint/server/lsp.py)
did_change_configuration  # unused function (mcp_lint/server/lsp.py)
did_open  # unused function (mcp_lint/server/lsp.py)
did_change  # unused function (mcp_lint/server/lsp.py)
did_save  # unused function (mcp_lint/server/lsp.py)
did_close  # unused function (mcp_lint/server/lsp.py)
resolve_code_action  # unused function (mcp_lint/server/lsp.py)
