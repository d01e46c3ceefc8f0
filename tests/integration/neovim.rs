//! `ctxc lsp` as Neovim's own LSP client drives it (Debian's `neovim`, headless): the client
//! opens a prompt file with a finding, shows the diagnostic and answers a hover. The client side
//! is `neovim.lua` beside this file; this test writes the project and checks what it printed.

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
