//! Claude Code's host model (data/hosts/claude-code.toml) against the types Claude Code's build
//! writes into its Agent SDK (npm `@anthropic-ai/claude-agent-sdk`, installed by scripts/runtimes
//! at the version the host file names): the settings keys are the top-level keys of `interface
//! Settings` (generated from Claude Code's settings schema), the hook events are `HOOK_EVENTS`.

use crate::common;
use crate::typescript;

use std::collections::BTreeSet;

/// The installed `sdk.d.ts` of the version the host file's `agent-sdk` source names.
fn sdk_types() -> String {
    let source = ctxc::hosts::claude_code().sources.get("agent-sdk").expect("the agent-sdk source");
    let version = source.version.as_deref().expect("a version");
    let dir = common::runtime_path(&format!("claude-agent-sdk-{version}/package"));
    let package: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).expect("package.json")).expect("JSON");
    assert_eq!(package["version"].as_str(), Some(version), "the installed package is the version the host file names");
    std::fs::read_to_string(dir.join("sdk.d.ts")).expect("sdk.d.ts")
}

/// The top-level keys of `interface Settings`.
fn settings_keys(types: &str) -> Vec<String> {
    typescript::members(types, "export declare interface Settings {")
}

/// The names in `HOOK_EVENTS: readonly [...]`.
fn hook_events(types: &str) -> Vec<String> {
    let start = types.find("HOOK_EVENTS: readonly [").expect("HOOK_EVENTS") + "HOOK_EVENTS: readonly [".len();
    let list = &types[start..start + types[start..].find(']').expect("the list's end")];
    list.split(',').map(|s| s.trim().trim_matches(['\'', '"']).to_string()).filter(|s| !s.is_empty()).collect()
}

#[test]
#[ignore = "needs the Agent SDK's types: scripts/runtimes installs them"]
fn the_settings_keys_and_hook_events_are_claude_codes() {
    let types = sdk_types();
    let claude = ctxc::hosts::claude_code();
    let settings = claude.file("claude-settings").expect("settings");
    let ours: Vec<String> = settings.read_fields().map(str::to_string).collect();
    let theirs = settings_keys(&types);
    assert!(theirs.len() > 100, "the interface was read: {theirs:?}");
    let (a, b): (BTreeSet<&String>, BTreeSet<&String>) = (ours.iter().collect(), theirs.iter().collect());
    assert_eq!(a.difference(&b).collect::<Vec<_>>(), Vec::<&&String>::new(), "keys in data/hosts/claude-code.toml the SDK does not have");
    assert_eq!(b.difference(&a).collect::<Vec<_>>(), Vec::<&&String>::new(), "keys of the SDK missing from data/hosts/claude-code.toml");
    let events: Vec<String> = claude.values("hook-events").into_iter().map(str::to_string).collect();
    assert_eq!(events, hook_events(&types), "hook events");
}
