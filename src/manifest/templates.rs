//! The template checks of the manifest: the scenarios' sample values of runtime variables, and
//! the static pass that lists every variable a template reads and no scenario provides, before
//! anything renders. The template files themselves (template roots, module text taken from a
//! key of a YAML, TOML or JSON file) are read by `files.rs`.

use indexmap::IndexMap;

use super::model::{Mode, ModuleFiles, Scenario, TextFile};
use super::Validator;
use crate::codes::Code;
use crate::diagnostic::Diagnostic;
use crate::templates::CONTEXT;

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
