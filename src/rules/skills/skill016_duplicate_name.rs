//! SKILL016: two skills with one name.

use crate::memo::KeyMap;
use crate::rules::prelude::*;
use crate::rules::skills::installed_with;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "Two SKILL.md files declare the same skill `name`.",
    why: "Skills are activated by name, so only one of the two can be reached. In a manifest the skill from the later \
          `[skills] dirs` entry replaces the earlier one (an intended override is fine, but it is easy to shadow a \
          skill by accident); other agents may load both and pick either.",
    fails: Example {
        file: "skills/notes/SKILL.md",
        text: "---\nname: notes\ndescription: Take meeting notes.\n---\n\n# and .agents/skills/notes/SKILL.md also says `name: notes`\n",
    },
    passes: Example {
        file: "skills/notes/SKILL.md",
        text: "---\nname: notes\ndescription: Take meeting notes.\n---\n\n# and .agents/skills/notes-v2/SKILL.md says `name: notes-v2`\n",
    },
    notes: "Without a manifest, two skills collide only when one agent installs both: skills whose skills folders \
            sit in the same project folder (`.claude/skills/`, `.agents/skills/`, `.github/skills/` and `skills/` of \
            one folder); skills in a folder of another name (`.agents/skills-orchestrator/`) collide only with each \
            other. A byte-equal copy (the same SKILL.md mirrored into two hosts' folders) is not reported: \
            whichever is activated, it is the same skill. Same-named skills of two example agents (`examples/a/skills/x`, `examples/b/skills/x`) or of \
            two Claude Code plugins (whose skills are namespaced `plugin:skill`, \
            https://code.claude.com/docs/en/plugins) are never listed together, nor a plugin's `skills/x` with the \
            `.agents/skills/x` or `.claude/skills/x` of the folder holding the plugin (a plugin is a folder holding \
            `.claude-plugin/plugin.json` or named by a marketplace entry). With a manifest, every \
            skill of its `[skills] dirs` is one set.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    let mut first_of: KeyMap<(bool, &str, &str), &crate::agent_files::SkillDoc> = KeyMap::default();
    for skill in cx.skills {
        let Some(name) = skill.string("name").filter(|n| !n.trim().is_empty()) else { continue };
        // A plugin's skills are named `plugin:skill`, apart from every other skill; an agent's
        // manifest installs all its skills together.
        let scope = match (&skill.plugin, cx.agent.is_some()) {
            (Some(plugin), _) => (true, plugin.rel.as_str()),
            (None, true) => (false, ""),
            (None, false) => (false, installed_with(&skill.rel)),
        };
        let Some(first) = first_of.get(&(scope.0, scope.1, name)) else {
            first_of.insert((scope.0, scope.1, name), skill);
            continue;
        };
        // A byte-equal copy (the same skill mirrored into `.claude/skills/` and `.agents/skills/`
        // for two hosts) is the same skill whichever is activated.
        if first.text == skill.text {
            continue;
        }
        let first = &first.file;
        findings.push(
            Diagnostic::finding(format!("skill `{name}` is also defined in {first}; only one of them can be activated by name"))
                .in_file(&skill.file)
                .at(skill.value_span("name"))
                .label("second definition")
                .help("rename one of them; in a manifest, the skill from the later `[skills] dirs` entry wins"),
        );
    }
    findings
}
