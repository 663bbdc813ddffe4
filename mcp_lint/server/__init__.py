"""`mcp-lint server`: the language server (LSP over stdio, on pygls) that shows findings and offers
their fixes in an editor.

- `lsp`: the server: documents, debounced lints, publishing, requests;
- `documents`: positions between mcp-lint's (1-based rows, code-point columns) and the client's;
- `diagnostics`: a finding as an LSP diagnostic;
- `actions`: the code actions (a rule's fix, `# noqa`, fix all safe fixes in the file);
- `settings`: the client's settings (`select`, `ignore`, `target`) over `[tool.mcp-lint]`.

pygls and lsprotocol come with the `server` extra; nothing here is imported by `mcp-lint check`.
"""
