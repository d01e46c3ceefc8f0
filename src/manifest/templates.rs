//! The template parts of the manifest: template roots (`[templates] root`, a module's `root`),
//! module text taken from a key of a YAML, TOML or JSON file, the scenarios' sample values of
//! runtime variables, and the static pass that lists every variable a template reads and no
//! scenario provides, before anything renders.

use indexmap::IndexMap;

use super::files::Files;
use super::model::{Mode, ModuleFiles, Scenario, TextFile};
use super::raw::{RawModule, RawTemplates};
use super::span::Spanned;
use super::Validator;
use crate::codes::Code;
use crate::diagnostic::Diagnostic;
use crate::memo::SharedText;
use crate::provenance::Provenance;
use crate::templates::{TemplateRoot, CONTEXT};

impl Validator {
    /// Checks each scenario's `vars` do not hide a ctxc template variable.
    pub(super) fn scenario_vars(&mut self, vars: &IndexMap<String, serde_json::Value>) {
        for name in vars.keys().filter(|n| CONTEXT.contains(&n.as_str())) {
            let span = self.prov.locate(name);
            self.prov.coded(Code::TPL002, format!("scenario variable `{name}` has the name of a ctxc template variable"), span).help =
                Some(format!("ctxc sets {}; give the runtime variable another name", CONTEXT.join(", ")));
        }
    }

    /// The static pass over every template (and what it includes): each variable read that the
    /// context does not provide, in some scenario, at its first use — all of them at once,
    /// before anything renders.
    pub(super) fn template_variables(
        &mut self,
        modules: &IndexMap<String, ModuleFiles>,
        modes: &IndexMap<String, Mode>,
        scenarios: &IndexMap<String, Scenario>,
    ) {
        let mut templates: Vec<&TextFile> = modules
            .values()
            .flat_map(|m| match m {
                ModuleFiles::Single(f) => vec![f],
                ModuleFiles::Variants(files) => files.values().collect(),
            })
            .chain(modes.values().filter_map(|m| m.prompt.as_ref()))
            .filter(|f| f.template)
            .collect();
        templates.dedup_by(|a, b| a.path == b.path);
        let lacking =
            |name: &str| -> Vec<&str> { scenarios.values().filter(|s| !s.vars.contains_key(name)).map(|s| s.name.as_str()).collect() };
        for file in templates {
            let scan = crate::templates::scan(&self.files.root, &file.template_root, &file.path, &file.text, &|name| {
                CONTEXT.contains(&name) || lacking(name).is_empty()
            });
            for included in scan.files {
                self.files.sources.insert_shared(included.display, included.text);
            }
            // A file several templates include is reported once, with each way it was reached.
            for u in scan.unprovided {
                let missing = lacking(&u.name);
                let which = match missing.len() == scenarios.len() {
                    true => "no scenario gives it a value".to_string(),
                    false => format!(
                        "scenario{} {} give{} it no value",
                        plural(missing.len()),
                        quoted(&missing),
                        if missing.len() == 1 { "s" } else { "" }
                    ),
                };
                crate::diagnostic::push_once(
                    &mut self.prov.diagnostics,
                    Diagnostic::error(format!("template variable `{}` is undefined: {which}", u.name))
                        .code(Code::TPL002)
                        .in_file(u.file)
                        .at(Some(u.span))
                        .label("undefined")
                        .help(format!(
                            "ctxc provides {}; a variable your runtime passes needs a sample value in each scenario: \
                             `[scenarios.NAME] vars = {{ {} = … }}`",
                            CONTEXT.join(", "),
                            u.name
                        ))
                        .related(u.chain),
                );
            }
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn quoted(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

impl Files {
    /// `[templates] root`, normalised (the manifest's directory when unset).
    pub(super) fn template_root(&mut self, prov: &mut Provenance, raw: Option<&RawTemplates>) -> TemplateRoot {
        self.root_setting(prov, raw.and_then(|t| t.root.as_ref())).unwrap_or_default()
    }

    /// A template root as written: inside the project and a folder.
    pub(super) fn root_setting(&mut self, prov: &mut Provenance, root: Option<&Spanned<String>>) -> Option<TemplateRoot> {
        let root = root?;
        let span = prov.span(root, &root.value);
        match self.root.normalize(&root.value).and_then(|rel| self.root.resolve(&rel).map(|path| (rel, path))) {
            Ok((rel, path)) if path.is_dir() => Some(TemplateRoot(rel)),
            Ok(_) => {
                let mut d = prov.coded(Code::MAN002, format!("template root `{}` is not a folder", root.value), span);
                d.label = Some("not a folder".into());
                d.help = Some("name the folder your templates' include and import names start from, like Jinja2's FileSystemLoader".into());
                None
            }
            Err(e) => {
                prov.read_error(e, span);
                None
            }
        }
    }

    /// A module's files, each knowing its template root; with `key`, the text is that key's
    /// string in the (YAML, TOML or JSON) file.
    pub(super) fn module_files(
        &mut self,
        prov: &mut Provenance,
        module: &RawModule,
        files: ModuleFiles,
        default_root: &TemplateRoot,
    ) -> Option<ModuleFiles> {
        let root = self.root_setting(prov, module.root.as_ref()).unwrap_or_else(|| default_root.clone());
        let mut each = |file: TextFile| -> Option<TextFile> {
            let mut file = match &module.key {
                Some(key) => self.keyed_text(prov, file, key)?,
                None => file,
            };
            file.template_root = root.clone();
            Some(file)
        };
        match files {
            ModuleFiles::Single(file) => each(file).map(ModuleFiles::Single),
            ModuleFiles::Variants(files) => {
                let count = files.len();
                let files: IndexMap<String, TextFile> = files.into_iter().filter_map(|(name, f)| Some((name, each(f)?))).collect();
                (files.len() == count).then_some(ModuleFiles::Variants(files))
            }
        }
    }

    /// The string at the dotted `key` of a structured file, as a file of its own named
    /// `path#key` (so diagnostics point into that text).
    pub(super) fn keyed_text(&mut self, prov: &mut Provenance, file: TextFile, key: &Spanned<String>) -> Option<TextFile> {
        let span = prov.span(key, &key.value);
        let parsed: Result<serde_json::Value, String> = match file.path.rsplit_once('.').map(|(_, ext)| ext) {
            Some("yaml" | "yml") => crate::yaml::from_str(&file.text).map_err(|e| e.message),
            Some("toml") => toml::from_str(&file.text).map_err(|e| e.message().to_string()),
            Some("json") => serde_json::from_str(&file.text).map_err(|e| e.to_string()),
            _ => Err("`key` needs a `.yaml`, `.yml`, `.toml` or `.json` file".to_string()),
        };
        let value = match parsed {
            Ok(value) => value,
            Err(message) => {
                prov.error(format!("cannot read key `{}` of {}: {message}", key.value, file.path), span).label =
                    Some("key of this file".into());
                return None;
            }
        };
        let found = key.value.split('.').try_fold(&value, |v, part| v.get(part));
        let Some(text) = found.and_then(|v| v.as_str()) else {
            let what = if found.is_some() { "is not a string" } else { "does not exist" };
            let mut d = prov.error(format!("key `{}` of {} {what}", key.value, file.path), span);
            d.label = Some(format!("{what} in {}", file.path));
            d.help = Some("name a string value, with dots between nested keys (`agent.templates.system_template`)".into());
            return None;
        };
        let path = format!("{}#{}", file.path, key.value);
        let text = SharedText::new(text);
        self.sources.insert_shared(self.root.display_path(&path), text.clone());
        Some(TextFile { template: file.template, path, text, template_root: file.template_root })
    }
}
