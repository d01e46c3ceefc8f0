//! The checked-in JSON Schema must match the manifest types. Regenerate with
//! `UPDATE_SCHEMA=1 cargo test --test schema` (or `cargo run -- schema > schemas/ctxc.schema.json`).

use std::path::Path;

#[test]
fn checked_in_schema_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/ctxc.schema.json");
    let generated = ctxc::schema::manifest_schema();
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &generated).expect("write schema");
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "schemas/ctxc.schema.json is stale: run `UPDATE_SCHEMA=1 cargo test --test schema` and commit the result"
    );
}

#[test]
fn examples_validate_against_the_schema_shape() {
    // Every top-level key an example uses is a property of the schema (the schema rejects others).
    let schema: serde_json::Value = serde_json::from_str(&ctxc::schema::manifest_schema()).expect("schema is JSON");
    assert_eq!(schema["additionalProperties"], false);
    let properties = schema["properties"].as_object().expect("properties");
    for key in ["agent", "pipeline", "modules", "modes", "tools", "skills", "scenarios"] {
        assert!(properties.contains_key(key), "{key}");
    }
}
