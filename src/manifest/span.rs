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
    use super::Spanned;

    #[derive(serde::Deserialize)]
    struct Doc {
        name: Spanned<String>,
        list: Vec<Spanned<u32>>,
    }

    #[test]
    fn built_in_texts_carry_no_spans() {
        let doc: Doc = super::from_toml_without_spans("name = \"abc\"\nlist = [1, 22]\n").expect("toml");
        assert_eq!((doc.name.value.as_str(), doc.name.span, doc.list[1].span.clone()), ("abc", None, None));
    }
}
