//! The JSON Schema `ctxc schema` prints (schemas/ctxc.schema.json, built in) against the manifests it
//! describes. That the file matches the raw types is the library's test (`src/schema.rs`); regenerate it
//! with `UPDATE_SCHEMA=1 cargo test --lib schema::`.

use std::path::Path;

fn validator() -> jsonschema::Validator {
    let schema: serde_json::Value = serde_json::from_str(&ctxc::schema::manifest_schema()).expect("schema is JSON");
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

/// A manifest file as the JSON value the schema describes.
fn manifest_value(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match path.extension().and_then(|e| e.to_str()) {
        Some("toml") => toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        _ => serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    }
}

#[test]
fn every_example_manifest_validates_against_the_schema() {
    let validator = validator();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let manifests: Vec<_> = walkdir::WalkDir::new(&examples)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.expect("walk").into_path())
        .filter(|p| p.file_name().is_some_and(|n| n == "ctxc.toml" || n == "ctxc.yaml"))
        .collect();
    assert!(manifests.len() >= 5, "examples hold the four reference systems and more: {manifests:?}");
    for path in manifests {
        let errors: Vec<String> = validator.iter_errors(&manifest_value(&path)).map(|e| format!("{e} at {}", e.instance_path)).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
    }
}

#[test]
fn the_schema_rejects_unknown_keys_and_wrong_types() {
    let validator = validator();
    let valid: serde_json::Value = toml::from_str("[agent]\nname = \"a\"\n").expect("toml");
    assert!(validator.is_valid(&valid));
    for bad in ["[agent]\nname = \"a\"\nnmae = \"b\"\n", "[agent]\nname = 3\n", "[agnet]\nname = \"a\"\n"] {
        let value: serde_json::Value = toml::from_str(bad).expect("toml");
        assert!(!validator.is_valid(&value), "{bad}");
    }
}
