//! A value with the byte range it came from in the manifest.
//!
//! TOML gives exact spans (through `toml::Spanned`). serde_yaml has no span support, so YAML
//! values carry `None` and diagnostics fall back to finding the value's text in the file
//! (see `ManifestText::locate` in the lint stage's configuration).

use std::cell::Cell;
use std::ops::Range;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};

thread_local! {
    /// Set while the TOML deserializer runs: only it understands `toml::Spanned`.
    static TOML_SPANS: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with span capture on; used around TOML deserialization only.
pub(crate) fn with_toml_spans<T>(f: impl FnOnce() -> T) -> T {
    TOML_SPANS.with(|flag| flag.set(true));
    let result = f();
    TOML_SPANS.with(|flag| flag.set(false));
    result
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Option<Range<usize>>,
}

impl<T> Spanned<T> {
    pub fn new(value: T) -> Self {
        Spanned { value, span: None }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Spanned<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if TOML_SPANS.with(Cell::get) {
            let spanned = toml::Spanned::<T>::deserialize(deserializer)?;
            let span = spanned.span();
            Ok(Spanned { value: spanned.into_inner(), span: Some(span) })
        } else {
            T::deserialize(deserializer).map(Spanned::new)
        }
    }
}

impl<T: JsonSchema> JsonSchema for Spanned<T> {
    fn schema_name() -> String {
        T::schema_name()
    }

    fn json_schema(gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        T::json_schema(gen)
    }

    fn is_referenceable() -> bool {
        T::is_referenceable()
    }
}
