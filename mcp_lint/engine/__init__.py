"""The analysis engine under the rules: control-flow graphs and dataflow over them.

`graph` holds the language-neutral graph types; `libcst_cfg` builds them from Python (libcst)
functions; `reaching` computes reaching definitions on any graph. Nothing here knows a rule.
"""
