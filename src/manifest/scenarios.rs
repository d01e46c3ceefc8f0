//! Validation of `[scenarios.*]`: each scenario's time, flags, connectors, MCP servers,
//! memories and the other data it provides (the values computed from them are
//! [`super::scenario`]'s).

use indexmap::IndexMap;

use super::model::*;
use super::raw::*;
use super::scenario::Timestamp;
use super::span::Spanned;
use super::{Validator, DEFAULT_NOW};
use crate::diagnostic::Diagnostic;
use crate::skills::Skill;

impl Validator {
    /// A scenario's `now`, or the default one (an error when it does not parse).
    pub(super) fn scenario_now(&mut self, now: Option<&Spanned<String>>) -> Timestamp {
        let now_text = now.cloned().unwrap_or_else(|| Spanned::new(DEFAULT_NOW.to_string()));
        Timestamp::parse(&now_text.value).unwrap_or_else(|message| {
            let span = self.prov.span(&now_text, &now_text.value);
            self.prov.error(message, span);
            // ok: DEFAULT_NOW is a constant the tests parse (presets_parse)
            Timestamp::parse(DEFAULT_NOW).expect("DEFAULT_NOW is valid")
        })
    }

    /// The agent's flags with a scenario's settings over them; a flag not declared is an error.
    pub(super) fn scenario_flags(
        &mut self,
        set: &IndexMap<String, Spanned<bool>>,
        flags: &IndexMap<String, bool>,
    ) -> IndexMap<String, bool> {
        let mut scenario_flags = flags.clone();
        for (flag, value) in set {
            if flags.contains_key(flag) {
                scenario_flags.insert(flag.clone(), value.value);
            } else {
                let known: Vec<&str> = flags.keys().map(String::as_str).collect();
                self.prov.unknown("flag", flag, self.prov.locate(flag), &known);
            }
        }
        scenario_flags
    }

    pub(super) fn check_connectors(&mut self, named: &[Spanned<String>], connectors: &IndexMap<String, TextFile>) {
        for connector in named {
            if !connectors.contains_key(&connector.value) {
                let known: Vec<&str> = connectors.keys().map(String::as_str).collect();
                self.prov.unknown("connector", &connector.value, self.prov.span(connector, &connector.value), &known);
            }
        }
    }

    /// A scenario's retrieved memories, written inline or in a JSON file, and where they are.
    pub(super) fn memories(&mut self, memories: Option<&RawMemories>) -> (Vec<MemoryItem>, Option<String>) {
        match memories {
            None => (Vec::new(), None),
            Some(RawMemories::Inline(items)) => (items.clone(), Some(self.rel.clone())),
            Some(RawMemories::File(path)) => {
                let Some(file) = self.files.read(&mut self.prov, &Spanned::new(path.clone()), Some(false)) else {
                    return (Vec::new(), None);
                };
                match serde_json::from_str::<Vec<MemoryItem>>(&file.text) {
                    Ok(items) => (items, Some(file.path)),
                    Err(e) => {
                        let offset = crate::diagnostic::offset_of(&file.text, e.line(), e.column());
                        let display = self.files.root.display_path(&file.path);
                        self.prov.diagnostics.push(
                            Diagnostic::error(format!("memories must be a JSON array of {{text, similarity, confidence, scope}}: {e}"))
                                .in_file(display)
                                .at(Some(offset..offset)),
                        );
                        (Vec::new(), None)
                    }
                }
            }
        }
    }

    pub(super) fn scenarios(
        &mut self,
        raw: &IndexMap<String, RawScenario>,
        flags: &IndexMap<String, bool>,
        connectors: &IndexMap<String, TextFile>,
        skills: &[Skill],
    ) -> IndexMap<String, Scenario> {
        let default_scenario = [("default".to_string(), RawScenario::default())];
        let raw_scenarios: Vec<(String, RawScenario)> =
            if raw.is_empty() { default_scenario.to_vec() } else { raw.iter().map(|(k, v)| (k.clone(), v.clone())).collect() };
        let mut scenarios = IndexMap::new();
        for (name, s) in raw_scenarios {
            let now = self.scenario_now(s.now.as_ref());
            let scenario_flags = self.scenario_flags(&s.flags, flags);
            self.check_connectors(&s.connectors, connectors);
            let mcp_servers = s
                .mcp_servers
                .iter()
                .map(|(server, cfg)| (server.clone(), cfg.prompt.as_ref().and_then(|p| self.files.read(&mut self.prov, p, Some(false)))))
                .collect();
            let profile = s.profile.as_ref().and_then(|p| self.files.read(&mut self.prov, p, Some(false)));
            let workload = s.workload.as_ref().and_then(|w| {
                let file = self.files.read(&mut self.prov, w, Some(false))?;
                Some(ScenarioWorkload {
                    file,
                    origin: self.prov.origin(w, &w.value),
                    summarize_not_before: s.summarize_not_before.as_ref().map(|n| n.value),
                    summarize_not_before_origin: s.summarize_not_before.as_ref().map(|n| self.prov.origin(n, &n.value.to_string())),
                })
            });
            let (memories, memories_source) = self.memories(s.memories.as_ref());
            let mut named = |items: &[RawNamedFile]| -> Vec<NamedText> {
                items
                    .iter()
                    .filter_map(|r| {
                        Some(NamedText { name: r.name.clone(), file: self.files.read(&mut self.prov, &r.source, Some(false))? })
                    })
                    .collect()
            };
            let resources = named(&s.resources);
            let attachments = named(&s.attachments);
            self.scenario_vars(&s.vars);
            let skill_names: Vec<&str> = skills.iter().map(|k| k.name.as_str()).collect();
            for active in &s.active_skills {
                if !skill_names.contains(&active.value.as_str()) {
                    self.prov.unknown("skill", &active.value, self.prov.span(active, &active.value), &skill_names);
                }
            }
            scenarios.insert(
                name.clone(),
                Scenario {
                    name,
                    workload,
                    description: s.description.clone(),
                    now,
                    timezone: s.timezone.clone().unwrap_or_else(|| "UTC".to_string()),
                    flags: scenario_flags,
                    connectors: s.connectors.iter().map(|c| c.value.clone()).collect(),
                    mcp_servers,
                    oauth: s.oauth.clone(),
                    profile,
                    memories,
                    memories_source,
                    resources,
                    sandbox_files: s.sandbox_files.clone(),
                    attachments,
                    active_skills: s.active_skills.iter().map(|a| a.value.clone()).collect(),
                    vars: s.vars.clone(),
                },
            );
        }
        scenarios
    }
}
