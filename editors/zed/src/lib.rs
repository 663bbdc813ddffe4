//! Starts `mcp-lint server` for Python files. The command is the `lsp.mcp-lint.binary` of Zed's
//! settings when one is given, else `mcp-lint` found on the worktree's PATH (the project's
//! virtualenv, when Zed's environment has it); `lsp.mcp-lint.initialization_options` are passed on
//! as the server's settings (`select`, `ignore`, `target`).

use zed_extension_api::{self as zed, settings::LspSettings, LanguageServerId, Result, Worktree};

const SERVER: &str = "mcp-lint";

struct McpLint;

impl zed::Extension for McpLint {
    fn new() -> Self {
        McpLint
    }

    fn language_server_command(&mut self, _id: &LanguageServerId, worktree: &Worktree) -> Result<zed::Command> {
        let binary = LspSettings::for_worktree(SERVER, worktree).ok().and_then(|settings| settings.binary);
        let configured = binary.as_ref().and_then(|binary| binary.path.clone());
        let command = match configured.or_else(|| worktree.which(SERVER)) {
            Some(command) => command,
            None => {
                return Err(format!(
                    "{SERVER} not found: install it with `pip install \"mcp-lint[server]\"` or set lsp.{SERVER}.binary.path"
                ))
            }
        };
        let args = binary
            .and_then(|binary| binary.arguments)
            .unwrap_or_else(|| vec!["server".to_string()]);
        Ok(zed::Command { command, args, env: Default::default() })
    }

    fn language_server_initialization_options(
        &mut self,
        _id: &LanguageServerId,
        worktree: &Worktree,
    ) -> Result<Option<zed::serde_json::Value>> {
        Ok(LspSettings::for_worktree(SERVER, worktree).ok().and_then(|settings| settings.initialization_options))
    }
}

zed::register_extension!(McpLint);
