//! The runtime's manifest section validated (each runtime's `settings.rs`, reached through the
//! runtime table), the Deep Agents release layout, and the walk up to the project root for
//! project-context files. Each setting keeps where its value came from: the manifest line, an
//! override, or the preset's default (then diagnostics point at the `preset` line and say so).

use super::model::{Origin, TextFile};
use super::raw::*;
use super::span::Spanned;
use super::{preset, Validator};
use crate::project::ReadError;
use crate::provenance::{PresetRef, Section};
use crate::runtimes::deepagents::window as deepagents;
use crate::runtimes::{runtime_table, AgentFacts};
use crate::systems::Systems;

impl Validator {
    /// For `deepagents`: picks the step layout of the configured release and, for a later
    /// release, replaces the preset's steps with that layout's.
    pub(super) fn apply_layout(&mut self, name: &str, preset_raw: &mut RawManifest, user: &RawManifest) {
        if name != "deepagents" {
            return;
        }
        let version = user
            .deepagents
            .as_ref()
            .and_then(|d| d.version.clone())
            .or_else(|| preset_raw.deepagents.as_ref().and_then(|d| d.version.clone()));
        let Some(version) = version else { return };
        let text = version.value.text();
        match deepagents::layout(&text) {
            Ok(layout) => {
                if let Some(fragment) = preset::layout_text(name, layout) {
                    match super::span::from_toml_without_spans::<RawManifest>(fragment) {
                        Ok(steps) => {
                            if let Some(pipeline) = preset_raw.pipeline.as_mut() {
                                pipeline.steps = steps.pipeline.map(|p| p.steps).unwrap_or_default();
                            }
                        }
                        Err(e) => {
                            self.prov.error(format!("built-in layout `{name}` {layout} is invalid: {}", e.message()), None);
                        }
                    }
                }
            }
            Err(message) => {
                let span = self.prov.span(&version, "version");
                self.prov.error(message, span).help = Some("set `[deepagents] version` to \"0.4\" or \"0.7\" (or a later release)".into());
            }
        }
    }

    /// Files named in `[memory] walk_up`, looked for in each directory from the project root down
    /// to the manifest's directory (root first). Missing files are skipped; files that escape the
    /// root (symlinks out) are refused.
    pub(super) fn walk_up(&mut self, names: &[Spanned<String>]) -> Vec<TextFile> {
        let mut found = Vec::new();
        let mut valid = Vec::new();
        for name in names {
            let bad = name.value.is_empty() || name.value.starts_with('/') || name.value.split(['/', '\\']).any(|part| part == "..");
            if bad {
                let span = self.prov.span(name, &name.value);
                self.prov.error(format!("walk_up name `{}` must be a relative path inside a directory, without `..`", name.value), span);
            } else {
                valid.push(name);
            }
        }
        // An invalid name is reported once, above, and never looked for.
        for dir in self.root.dirs_from_root() {
            for name in &valid {
                let reference = if dir == "." { name.value.clone() } else { format!("{dir}/{}", name.value) };
                match self.root.read(&reference) {
                    Ok(file) => {
                        self.sources.insert_shared(&file.display, file.text.clone());
                        found.push(TextFile { path: file.rel, text: file.text, template: false, template_root: Default::default() });
                    }
                    Err(ReadError::Missing(_) | ReadError::NotAFile(_)) => {}
                    Err(e) => {
                        let span = self.prov.span(name, &name.value);
                        self.prov.read_error(e, span);
                    }
                }
            }
        }
        found
    }

    /// The settings of the runtime the agent's preset models, from its manifest section (each
    /// runtime's `settings.rs`, through the table's `settings` row). `merged` is the manifest
    /// over the preset, `user` the manifest with its overrides, `preset` the preset alone.
    pub(super) fn systems(
        &mut self,
        merged: &RawManifest,
        user: &RawManifest,
        preset: &RawManifest,
        preset_name: Option<&Spanned<String>>,
        agent: &AgentFacts,
    ) -> Systems {
        let name = preset_name.map(|p| p.value.clone()).unwrap_or_default();
        let origin = match preset_name {
            Some(p) => self.prov.origin(p, &p.value),
            None => Origin { file: self.prov.file.clone(), span: None },
        };
        let from = PresetRef { name: name.clone(), origin };
        let mut systems = Systems::default();
        macro_rules! sections {
            ($($runtime:ident),*) => {
                $(
                    let table = stringify!($runtime);
                    if user.$runtime.is_some() && name != table {
                        let span = self.prov.locate(&format!("[{table}")).or_else(|| self.prov.locate(table));
                        self.prov.error(format!("`[{table}]` settings apply only to agents on the `{table}` preset"), span).help =
                            Some(format!("add `preset = \"{table}\"` under [pipeline], or remove `[{table}]`"));
                    }
                )*
                match name.as_str() {
                    $(
                        stringify!($runtime) => {
                            let section = Section { merged: merged.$runtime.as_ref(), user: user.$runtime.as_ref(), preset: preset.$runtime.as_ref(), from: &from };
                            systems.$runtime = Some(crate::runtimes::$runtime::settings::validate(&mut self.prov, section, agent));
                        }
                    )*
                    _ => {}
                }
            };
        }
        runtime_table!(settings sections);
        systems
    }
}
