//! The editor clients: `ctxc lsp` as Neovim's own LSP client drives it (Debian's `neovim`,
//! headless; the client side is `neovim.lua` beside this file), and the server the VS Code
//! extension (editors/vscode) starts from its settings.

use crate::common;

use std::process::{Command, Stdio};
use std::time::Duration;

/// A manifest whose module leaves a placeholder unfilled (TPL003), as in lsp.rs.
const MANIFEST: &str = r#"[agent]
name = "demo"
model = "gpt-4o"

[pipeline]
steps = [{ id = "core", kind = "module", budget = 1000 }]

[modules]
core = { source = "prompts/core.md" }

[modes.agent]
[modes.plan]
"#;

#[test]
#[ignore = "needs Debian's neovim: run by scripts/test, which installs it"]
fn neovim_shows_a_diagnostic_and_a_hover() {
    let nvim = common::require_tool("nvim");
    let dir = common::project(&[("ctxc.toml", MANIFEST), ("prompts/core.md", "You are careful.\nUse {tools_description} well.\n")]);
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/neovim.lua");
    let mut child = Command::new(nvim)
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .current_dir(dir.path())
        .env("CTXC", env!("CARGO_BIN_EXE_ctxc"))
        .env("CTXC_OPEN", "prompts/core.md")
        .env("CTXC_CODE", "TPL003")
        .env("CTXC_HOVER", "0:3")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nvim starts");
    // The script waits at most 60 s for each answer; this bounds the whole session.
    let status = common::exit_within(&mut child, Duration::from_secs(180), "nvim driving ctxc lsp");
    let out = child.wait_with_output().expect("nvim's output");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(status.success(), "nvim failed ({status:?}):\n{stderr}\n{stdout}");

    // The placeholder's place (line 1, column 4), as lsp.rs and `ctxc check` have it.
    let diagnostic = stdout.lines().find(|l| l.starts_with("diagnostic ")).unwrap_or_else(|| panic!("no diagnostic in:\n{stdout}"));
    assert!(diagnostic.starts_with("diagnostic TPL003 1:4 "), "{diagnostic}");
    // The hover on the module file: its tokens in each mode of the agent.
    assert!(stdout.contains("\nhover markdown\n"), "{stdout}");
    for mode in ["agent", "plan"] {
        let row = format!("| `demo` | `{mode}` | `default` | ");
        assert!(stdout.contains(&row), "no `{row}` in:\n{stdout}");
    }
}

/// The extension loaded by Node with stand-ins for VS Code's API and the language client: it
/// activates with the settings in `SETTINGS`, then `ctxc.path` changes to `/opt/ctxc/bin/ctxc`;
/// prints the server options of each client started.
const EXTENSION_HOST: &str = r#"
const Module = require("module");
const settings = JSON.parse(process.env.SETTINGS);
const listeners = [], started = [];
const vscode = {
  workspace: {
    getConfiguration: (section) => ({ get: (key, fallback) => (key in settings ? settings[key] : fallback) }),
    workspaceFolders: [{ uri: { fsPath: "/work/space" } }],
    createFileSystemWatcher: () => ({}),
    onDidChangeConfiguration: (listener) => listeners.push(listener),
  },
  commands: { registerCommand: () => ({}) },
};
class LanguageClient {
  constructor(id, name, server) { this.server = server; }
  start() { started.push(this.server); return Promise.resolve(); }
  stop() { return Promise.resolve(); }
}
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === "vscode") return vscode;
  if (request === "vscode-languageclient/node") return { LanguageClient };
  return load.call(this, request, ...rest);
};
const extension = require(process.env.EXTENSION);
(async () => {
  await extension.activate({ subscriptions: { push: () => {} } });
  settings.path = "/opt/ctxc/bin/ctxc";
  for (const listener of listeners) await listener({ affectsConfiguration: (s) => s === "ctxc" });
  console.log(JSON.stringify(started));
})();
"#;

/// The server options each client the extension started had, for these settings.
fn extension_servers(settings: serde_json::Value) -> Vec<serde_json::Value> {
    let extension = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/vscode/extension.js");
    let out = Command::new(common::require_tool("node"))
        .args(["-e", EXTENSION_HOST])
        .env("EXTENSION", extension)
        .env("SETTINGS", settings.to_string())
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}\n{stdout}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

/// The `ctxc` on PATH by default (an empty setting too), the configured one otherwise, in the
/// workspace folder (where a relative `ctxc.path` points), and again after the setting changes.
#[test]
fn the_vscode_extension_starts_the_configured_ctxc() {
    use serde_json::json;
    let workspace = json!({"cwd": "/work/space"});
    let changed = json!({"command": "/opt/ctxc/bin/ctxc", "args": ["lsp"], "options": workspace});
    for unset in [json!({}), json!({"path": ""})] {
        assert_eq!(extension_servers(unset), [json!({"command": "ctxc", "args": ["lsp"], "options": workspace}), changed.clone()]);
    }
    let servers = extension_servers(json!({"path": "./target/release/ctxc", "set": ["agent.model=gpt-4"]}));
    let args = json!(["lsp", "--set", "agent.model=gpt-4"]);
    assert_eq!(servers[0], json!({"command": "./target/release/ctxc", "args": args, "options": workspace}));
    assert_eq!(servers[1], json!({"command": "/opt/ctxc/bin/ctxc", "args": args, "options": workspace}));
}

/// The LSP4IJ template (editors/jetbrains) starts `ctxc lsp` and maps every kind of file ctxc
/// reads (docs/editors.md, "The files ctxc serves") by its name patterns.
#[test]
fn the_jetbrains_template_maps_every_kind_of_file() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/jetbrains/template.json");
    let template: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("JSON");
    assert_eq!(template["programArgs"]["default"], "ctxc lsp");
    let patterns: Vec<&str> = template["fileTypeMappings"]
        .as_array()
        .expect("mappings")
        .iter()
        .flat_map(|m| m["fileType"]["patterns"].as_array().expect("patterns"))
        .map(|p| p.as_str().expect("a pattern"))
        .collect();
    let matches = |name: &str| patterns.iter().any(|p| p.strip_prefix('*').map_or(*p == name, |suffix| name.ends_with(suffix)));
    let files = "ctxc.toml ctxc.yaml ctxc.yml core.md core.txt SKILL.md AGENTS.md general.mdc .cursorrules system.j2 \
                 chat_template.jinja fs.json calls.jsonl .mcp.json settings.json";
    let unmapped: Vec<&str> = files.split_whitespace().filter(|f| !matches(f)).collect();
    assert!(unmapped.is_empty(), "not mapped: {unmapped:?}");
}
