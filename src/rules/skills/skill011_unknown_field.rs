//! SKILL011: a frontmatter field the specification does not define.

use crate::agent_files::FileKind;
use crate::hosts;
use crate::manifest::lint::SkillLevel;
use crate::rules::prelude::*;
use crate::rules::skills::{SPEC_FIELDS, ZEUS_FIELDS};

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "SKILL.md frontmatter has a field the Agent Skills specification does not define (an error at the strict level).",
    why: "Skills are meant to be portable between agents. Fields that one framework adds (Zeus: `version`, `author`, \
          `tags`, `triggers`, `priority`, `enabled`) mean nothing to the others; strict validation keeps a skill to the \
          specification's `name`, `description`, `license`, `compatibility`, `metadata` and `allowed-tools` (put \
          anything else under `metadata`).",
    fails: Example {
        file: "skills/meeting-notes/SKILL.md",
        text: "---\nname: meeting-notes\ndescription: Turn a transcript into notes.\nversion: \"1.2\"\n---\n",
    },
    passes: Example {
        file: "skills/meeting-notes/SKILL.md",
        text: "---\nname: meeting-notes\ndescription: Turn a transcript into notes.\nmetadata:\n  version: \"1.2\"\n---\n",
    },
    notes: "Levels: at the default (**lenient**) level this is a warning, and the fields an agent host reads in a skill \
            (its host model in `data/hosts/`, see docs/hosts.md: for Claude Code `when_to_use`, `argument-hint`, \
            `disable-model-invocation`, `user-invocable`, `model`, `effort`, `context`, `agent`, `hooks`, `paths`, `shell`: \
            https://code.claude.com/docs/en/skills) are allowed, and in an agent on the `zeus` preset the fields Zeus reads \
            (`version`, `author`, `tags`, `triggers`, `priority`, `enabled`: docs.zeus.agentspro.cn, Skills → \"Metadata \
            Fields\"); at the **strict** level (`--strict`, or `[lint] skills = \
            \"strict\"`) every field outside the specification is an error, as in the reference validator `skills-ref`. \
            `[lint] severity` overrides both. A field that differs from a specification field only by case (`Name`) is \
            SKILL012's. Fix (unsafe, drops data): the field and its value lines are removed, unless a host reads the field.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let strict = cx.settings.skills == SkillLevel::Strict;
    let zeus = cx.agent().and_then(|a| a.preset.as_deref()) == Some("zeus");
    let mut findings = Vec::new();
    for skill in cx.skills {
        for (key, _) in skill.fields() {
            let known = |fields: &[&str]| fields.iter().any(|f| f.eq_ignore_ascii_case(key));
            // A field a host reads (data/hosts) is no typo: allowed at the default level, and
            // never deleted by a fix at the strict one.
            let host_reads = hosts::any_reads(FileKind::Skill.id(), key);
            if known(&SPEC_FIELDS) || (!strict && (host_reads || (zeus && known(&ZEUS_FIELDS)))) {
                continue;
            }
            let level = if strict { " (strict level)" } else { "" };
            let mut d = Diagnostic::finding(format!("frontmatter field `{key}` is not in the Agent Skills specification{level}"))
                .in_file(&skill.file)
                .at(skill.key_span(key))
                .label("not a specification field")
                .groupable()
                .help(format!("move it under `metadata` (as a string), or drop it; fields: {}", SPEC_FIELDS.join(", ")));
            if let Some(lines) = skill.entry_lines(key).filter(|_| !host_reads) {
                d = d.fix(Fix::unsafe_(format!("remove the field `{key}`"), vec![Edit::replace(&skill.file, lines, "")]));
            }
            findings.push(d);
        }
    }
    findings
}
