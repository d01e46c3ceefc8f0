//! How ctxc is built for CI, checked where a test can see it. `cargo package` (scripts/package-check)
//! verifies the package with a plain build, without the dev-dependencies, after the test build
//! compiled every dependency with the features the dev-dependencies add; a dependency whose
//! features differ between the two is compiled twice, with every crate above it.

use crate::common;
use std::collections::{BTreeMap, BTreeSet};

/// Each package's feature sets as `cargo tree` resolves them for these edges (a package built for
/// the host and for the target may have two), the packages' names with their versions.
fn features(edges: &str) -> BTreeMap<String, BTreeSet<String>> {
    let out = common::cargo_offline_for_host(
        &["tree", "--locked", "--package", "ctxc", "--prefix", "none", "--edges", edges, "--format", "{p}|{f}"],
        "--target",
    );
    let mut features: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in String::from_utf8_lossy(&out).lines() {
        let line = line.strip_suffix(" (*)").unwrap_or(line);
        let (package, enabled) = line.split_once('|').expect("cargo tree writes the format asked for");
        // `name vX.Y.Z`, then a path or `(proc-macro)` for some.
        let package = package.split(' ').take(2).collect::<Vec<_>>().join(" ");
        features.entry(package).or_default().insert(enabled.to_string());
    }
    features
}

/// Every dependency the package's own build compiles has the features it has in the test build:
/// the features the dev-dependencies add to the library's dependencies are named in Cargo.toml
/// ("Features the tests add"), so that `cargo package`'s verification reuses the test build's units.
#[test]
fn the_package_build_compiles_no_dependency_the_test_build_compiled() {
    let package = features("normal,build");
    let tested = features("normal,build,dev");
    let differing: Vec<String> = package
        .iter()
        .filter(|(name, sets)| tested.get(*name) != Some(*sets))
        .map(|(name, sets)| format!("{name}: {sets:?} in the package's build, {:?} in the test build", tested.get(name)))
        .collect();
    assert!(package.keys().any(|name| name.starts_with("serde_json ")), "cargo tree did not list the library's dependencies: {package:?}");
    assert!(
        differing.is_empty(),
        "the dev-dependencies add features to these dependencies of the library, so that `cargo package` compiles them again \
         (add the features to Cargo.toml's \"Features the tests add\"):\n{}",
        differing.join("\n")
    );
}
