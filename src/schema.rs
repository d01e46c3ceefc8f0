//! The manifest's JSON Schema: `schemas/ctxc.schema.json`, generated from the raw types by this
//! module's test and built into the binary as text. Deriving the schema in every build compiled
//! schemars' generator for each raw type (about 4 % of the library's code before optimisation);
//! the derives now exist only in the library's test build, which checks that the file is current.

/// The JSON Schema of `ctxc.toml` / `ctxc.yaml`, pretty-printed with a trailing newline.
pub fn manifest_schema() -> String {
    include_str!("../schemas/ctxc.schema.json").to_string()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::manifest::raw::RawManifest;

    /// The schema the raw types describe, as the file holds it.
    fn generated() -> String {
        let schema = schemars::schema_for!(RawManifest);
        let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Regenerate with `UPDATE_SCHEMA=1 cargo test --lib schema::`.
    #[test]
    fn checked_in_schema_is_current() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/ctxc.schema.json");
        let generated = generated();
        if std::env::var_os("UPDATE_SCHEMA").is_some() {
            std::fs::write(&path, &generated).expect("write schema");
        }
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            checked_in == generated,
            "schemas/ctxc.schema.json is stale: run `UPDATE_SCHEMA=1 cargo test --lib schema::` and commit the result"
        );
        assert_eq!(super::manifest_schema(), generated, "the built-in schema is the file's text");
    }
}
