//! The manifest's JSON Schema, generated from the raw types.

use crate::manifest::raw::RawManifest;

/// The JSON Schema of `ctxc.toml` / `ctxc.yaml`, pretty-printed with a trailing newline.
pub fn manifest_schema() -> String {
    let schema = schemars::schema_for!(RawManifest);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}
