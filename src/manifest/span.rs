//! A value with the byte range it came from in the manifest (`provenance::Spanned`, shared
//! with the runtimes' manifest sections), and built-in texts read without spans.

pub use crate::provenance::Spanned;

/// TOML text read into `T` with no spans, through a table (whose values hold no position, and
/// whose keys keep the text's order: toml's `preserve_order`): for
/// built-in texts (presets, layouts), whose spans would point into a text that is not the
/// manifest's, so that diagnostics about their values fall back to locating text in the manifest.
pub(crate) fn from_toml_without_spans<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, toml::de::Error> {
    toml::from_str::<toml::Table>(text)?.try_into()
}

#[cfg(test)]
mod tests {
    #[test]
    fn built_in_texts_carry_no_spans() {
        let values: std::collections::BTreeMap<String, super::Spanned<u32>> =
            super::from_toml_without_spans("a = 1\nb = 22\n").expect("toml");
        assert_eq!(values["b"], super::Spanned { value: 22, span: None });
    }
}
