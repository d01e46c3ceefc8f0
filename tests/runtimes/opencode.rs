//! OpenCode's host model (data/hosts/opencode.toml) against the types OpenCode's SDK generates
//! from its server's API (npm `@opencode-ai/sdk`, installed by scripts/runtimes at the version the
//! host file names): the top-level keys of `opencode.json` are the members of `export type Config`
//! in the v2 client's types, plus those only the v1 client's type has.

use crate::common;
use crate::typescript;

use std::collections::BTreeSet;

/// The installed file a source of the host file names, after checking the package's version.
fn installed(source: &str) -> String {
    let source = ctxc::hosts::host("opencode").expect("opencode").sources.get(source).expect("the source");
    let version = source.version.as_deref().expect("a version");
    let dir = common::runtime_path(&format!("opencode-sdk-{version}/package"));
    let package: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).expect("package.json")).expect("JSON");
    assert_eq!(package["version"].as_str(), Some(version), "the installed package is the version the host file names");
    std::fs::read_to_string(dir.join(source.path.as_deref().expect("a path"))).expect("the types")
}

/// The members of `export type Config = {…};`.
fn config_keys(types: &str) -> BTreeSet<String> {
    typescript::members(types, "export type Config = {\n").into_iter().collect()
}

/// The names of the host file's field groups for `opencode-config` sourced from `source`.
fn ours(source: &str) -> BTreeSet<String> {
    let host = ctxc::hosts::host("opencode").expect("opencode");
    let spec = host.file("opencode-config").expect("opencode-config");
    spec.fields.iter().filter(|g| g.source == source).flat_map(|g| g.names.iter().cloned()).collect()
}

#[test]
#[ignore = "needs OpenCode's SDK types: scripts/runtimes installs them"]
fn the_configuration_keys_are_those_of_opencodes_sdk() {
    let v2 = config_keys(&installed("sdk-config"));
    let v1 = config_keys(&installed("sdk-config-v1"));
    assert_eq!((v1.len(), v2.len()), (29, 36), "the types were read whole: v1 {v1:?}, v2 {v2:?}");
    assert_eq!(ours("sdk-config"), v2, "data/hosts/opencode.toml's v2 keys and the SDK's v2 `Config`");
    let v1_only: BTreeSet<String> = v1.difference(&v2).cloned().collect();
    assert_eq!(ours("sdk-config-v1"), v1_only, "data/hosts/opencode.toml's v1 keys and the v1 `Config` keys v2 lacks");
}
