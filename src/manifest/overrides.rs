//! Overrides (`--set KEY=VALUE`, `CTXC_` and runtime variables) written into the manifest's
//! document before it is read into raw types, so that each sets the one key it names and every
//! other key of its table stays as written (as if that line of the manifest were edited): no
//! table, a runtime's section or any other, is replaced by an override of one of its keys. A TOML document keeps the place of every value it was parsed with; an overridden
//! value has none (`Spanned::span` is `None`), and `Provenance` says where it came from.

use super::raw::RawManifest;
use super::Format;

/// The manifest text with each `KEY=VALUE` (already checked by `super::parse_override`) written
/// into its document in order, read into raw types. The error names the override that made the
/// document unreadable.
pub fn written_into(text: &str, format: Format, overrides: &[&str]) -> Result<RawManifest, (String, String)> {
    match read(text, format, overrides) {
        Ok(raw) => Ok(raw),
        Err(message) => {
            // The first override after which the document no longer reads.
            let culprit = (1..=overrides.len()).find(|&n| read(text, format, &overrides[..n]).is_err()).map_or(overrides.len(), |n| n);
            Err((overrides.get(culprit.saturating_sub(1)).copied().unwrap_or_default().to_string(), message))
        }
    }
}

fn read(text: &str, format: Format, overrides: &[&str]) -> Result<RawManifest, String> {
    let pairs =
        || overrides.iter().filter_map(|arg| arg.split_once('=')).map(|(key, value)| (key.trim().split('.').collect::<Vec<_>>(), value));
    match format {
        Format::Toml => {
            let document = toml_edit::ImDocument::parse(text).map_err(|e| e.message().to_string())?;
            let mut root = document.as_table().clone();
            for (path, value) in pairs() {
                set_toml(&mut root, &path, toml_value(value));
            }
            toml_edit::de::from_document(toml_edit::DocumentMut::from(root)).map_err(|e| e.message().to_string())
        }
        Format::Yaml => {
            let mut document: serde_yaml::Value = crate::yaml::from_str(text).map_err(|e| e.message)?;
            for (path, value) in pairs() {
                let value = serde_yaml::to_value(plain_value(value)).map_err(|e| e.to_string())?;
                set_yaml(&mut document, &path, value);
            }
            // Read back from text as a manifest is: the raw types are compiled for one YAML reader
            // (serde_yaml's document reader), not also for its `Value` reader.
            let text = serde_yaml::to_string(&document).map_err(|e| e.to_string())?;
            crate::yaml::from_str(&text).map_err(|e| e.message)
        }
    }
}

/// An override's value as `super::parse_override` reads it: a TOML value, else a plain string.
fn plain_value(value: &str) -> toml::Value {
    toml::from_str::<toml::Table>(&format!("v = {value}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(value.to_string()))
}

/// The same value as a TOML document item, with no place in the manifest.
pub(super) fn toml_value(value: &str) -> toml_edit::Item {
    format!("v = {value}").parse::<toml_edit::DocumentMut>().ok().and_then(|mut d| d.remove("v")).unwrap_or_else(|| toml_edit::value(value))
}

/// Sets the value at a dotted path, adding the tables on the way (replacing a value that is not
/// a table, as the override's key says it is one).
fn set_toml(table: &mut dyn toml_edit::TableLike, path: &[&str], value: toml_edit::Item) {
    let Some((first, rest)) = path.split_first() else { return };
    if rest.is_empty() {
        table.insert(first, value);
        return;
    }
    let entry = table.entry(first).or_insert(toml_edit::value(toml_edit::InlineTable::new()));
    if !entry.is_table_like() {
        *entry = toml_edit::value(toml_edit::InlineTable::new());
    }
    if let Some(inner) = entry.as_table_like_mut() {
        set_toml(inner, rest, value);
    }
}

fn set_yaml(node: &mut serde_yaml::Value, path: &[&str], value: serde_yaml::Value) {
    let Some((first, rest)) = path.split_first() else { return };
    if !node.is_mapping() {
        *node = serde_yaml::Value::Mapping(Default::default());
    }
    let serde_yaml::Value::Mapping(mapping) = node else { return };
    let key = serde_yaml::Value::String(first.to_string());
    if rest.is_empty() {
        mapping.insert(key, value);
        return;
    }
    let inner = mapping.entry(key).or_insert(serde_yaml::Value::Mapping(Default::default()));
    set_yaml(inner, rest, value);
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::project::RunState;

    fn load(manifest: &Path, overrides: &[&str]) -> super::super::Loaded {
        let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
        super::super::load_with(manifest, &overrides, &RunState::default()).unwrap_or_else(|f| panic!("{:?}", f.diagnostics))
    }

    fn example(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/agents").join(name).join("ctxc.toml")
    }

    fn sub_agents(loaded: &super::super::Loaded) -> Vec<String> {
        let adk = loaded.agent.systems.adk.as_ref().expect("[adk]");
        adk.sub_agents.iter().map(|a| a.name.clone()).collect()
    }

    #[test]
    fn a_nested_key_changes_only_itself_and_the_rest_of_the_table_stays() {
        let loaded = load(&example("adk"), &["adk.compaction.compaction_interval=2", "adk.compaction.overlap_size=1"]);
        assert_eq!(sub_agents(&loaded), ["flights", "hotels"], "`sub_agents` from the manifest stay");
        let compaction = loaded.agent.systems.adk.as_ref().and_then(|a| a.compaction).expect("[adk.compaction] set");
        assert_eq!(compaction.sliding_window, Some((2, 1)));
        // A table the manifest has: one key added, the other kept.
        let dir = tempfile::tempdir().expect("tempdir");
        for file in [
            "prompts/global.md",
            "prompts/instruction.md",
            "prompts/agent-transfer.md",
            "prompts/transfer-to-parent.md",
            "tools/functions.json",
            "upstream/transfer-tool.json",
        ] {
            let to = dir.path().join(file);
            std::fs::create_dir_all(to.parent().expect("folder")).expect("mkdir");
            std::fs::copy(example("adk").with_file_name(file), to).expect("copy");
        }
        let text = std::fs::read_to_string(example("adk")).expect("manifest");
        let manifest = dir.path().join("ctxc.toml");
        std::fs::write(&manifest, format!("{text}\n[adk.compaction]\ntoken_threshold = 5000\nevent_retention_size = 2\n")).expect("write");
        let loaded = load(&manifest, &["adk.compaction.compaction_interval=3", "adk.compaction.overlap_size=0"]);
        let compaction = loaded.agent.systems.adk.as_ref().and_then(|a| a.compaction).expect("[adk.compaction]");
        assert_eq!((compaction.sliding_window, compaction.token_threshold), (Some((3, 0)), Some((5000, 2))));
        assert_eq!(sub_agents(&loaded), ["flights", "hotels"]);
    }

    #[test]
    fn a_top_level_key_of_a_runtime_table_keeps_the_others() {
        let loaded = load(&example("adk"), &["adk.disallow_transfer_to_peers=true"]);
        assert_eq!(sub_agents(&loaded), ["flights", "hotels"]);
        assert!(loaded.agent.systems.adk.as_ref().is_some_and(|a| a.disallow_transfer_to_peers));
        // Deep Agents: one key of an `interrupt_on` entry keeps the entry's decisions.
        let loaded = load(&example("deepagents"), &["deepagents.interrupt_on.execute.description=\"Runs code\""]);
        let deepagents = loaded.agent.systems.deepagents.as_ref().expect("[deepagents]");
        assert_eq!(deepagents.interrupt_on, ["write_file", "edit_file", "execute"]);
    }

    #[test]
    fn a_yaml_manifest_keeps_the_rest_of_the_table_too() {
        let dir = tempfile::tempdir().expect("tempdir");
        let manifest = dir.path().join("ctxc.yaml");
        let text = "agent:\n  name: z\n  model: gpt-4o\npipeline:\n  preset: zeph\nzeph:\n  compaction_threshold: 0.6\n  compaction_preserve_tail: 3\n";
        std::fs::write(&manifest, text).expect("write");
        let loaded = load(&manifest, &["zeph.compaction_threshold=0.7"]);
        let zeph = loaded.agent.systems.zeph.as_ref().expect("[zeph]");
        assert_eq!((zeph.compaction_threshold.value, zeph.compaction_threshold.source.as_str()), (0.7, "override"));
        assert_eq!((zeph.compaction_preserve_tail.value, zeph.compaction_preserve_tail.source.as_str()), (3, "manifest"));
    }

    #[test]
    fn an_overridden_key_says_so_and_the_keys_beside_it_keep_their_place() {
        let dir = tempfile::tempdir().expect("tempdir");
        let manifest = dir.path().join("ctxc.toml");
        let text = "[agent]\nname = \"z\"\nmodel = \"gpt-4o\"\n[pipeline]\npreset = \"zeph\"\n[zeph]\ncompaction_threshold = 0.6\ncompaction_preserve_tail = 3\n";
        std::fs::write(&manifest, text).expect("write");
        let loaded = load(&manifest, &["zeph.compaction_threshold=0.7"]);
        let zeph = loaded.agent.systems.zeph.as_ref().expect("[zeph]");
        assert_eq!((zeph.compaction_threshold.value, zeph.compaction_threshold.source.as_str()), (0.7, "override"));
        assert!(zeph
            .compaction_threshold
            .note
            .as_deref()
            .is_some_and(|n| n.starts_with("set by an override of `zeph.compaction_threshold`")));
        assert_eq!(zeph.compaction_threshold.origin.span, None, "an override has no place in the manifest");
        let tail = &zeph.compaction_preserve_tail;
        assert_eq!((tail.value, tail.source.as_str()), (3, "manifest"));
        assert_eq!(tail.origin.span.clone().map(|s| &text[s]), Some("3"), "at its value, as the parser read it");
    }
}
