//! A value with the byte range it came from in the manifest (`provenance::Spanned`, shared
//! with the runtimes' manifest sections), and built-in texts read without spans.

pub use crate::provenance::Spanned;

/// TOML text read into `T` with no spans: for built-in texts (presets, layouts), whose spans would
/// point into a text that is not the manifest's, so that diagnostics about their values fall back
/// to locating text in the manifest. An editable document forgets the places it was parsed with
/// (keys keep the text's order), and it is read by the same deserializer as a manifest's text, so
/// the raw types are compiled for one TOML reader, not two (a `toml::Value` reader doubled them).
pub(crate) fn from_toml_without_spans<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, toml_edit::de::Error> {
    let document: toml_edit::DocumentMut = text.parse()?;
    toml_edit::de::from_document(document)
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
