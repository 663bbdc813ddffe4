"""The link step's parts: name resolution across modules (names), the walk from the tools into
the functions they reach (tracing). project_links.Project puts them together and renders findings."""
