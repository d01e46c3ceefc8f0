//! The runtime's manifest section validated (each runtime's `settings.rs`, reached through the
//! runtime table), the Deep Agents release layout, and the walk up to the project root for
//! project-context files. Each setting keeps where its value came from: the manifest line, an
//! override, or the preset's default (then diagnostics point at the `preset` line and say so).

use super::model::Origin;
use super::raw::*;
use super::span::Spanned;
use super::{preset, Validator};
use crate::provenance::{PresetRef, Section};
use crate::runtimes::deepagents::settings as deepagents;
use crate::runtimes::{runtime_table, AgentFacts};
use crate::systems::Systems;

impl Validator {
    /// For `deepagents`: picks the step layout of the configured release and, for a later
    /// release, replaces the preset's steps with that layout's.
    pub(super) fn apply_layout(&mut self, name: &str, preset_raw: &mut RawManifest, user: &RawManifest) {
        if name != "deepagents" {
            return;
        }
        let Some(layout) = deepagents::layout(&mut self.prov, user.deepagents.as_ref(), preset_raw.deepagents.as_ref()) else { return };
        let Some(fragment) = preset::layout_text(name, layout) else { return };
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
