//! The Claude Code family: subagents, slash commands, settings (hooks and permissions), plugin
//! manifests. Its helpers: frontmatter read leniently (subagents with multi-line unquoted
//! descriptions break strict YAML yet load in Claude Code), tool lists, model names, hooks and
//! permission rules.
//! Format facts: `anthropics/claude-code:plugins/plugin-dev/skills/agent-development/SKILL.md`
//! and <https://code.claude.com/docs/en/sub-agents>, /settings, /hooks, /mcp.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use serde_json::Value;

use crate::agent_files::{self, Doc, FileKind, ParsedJson};
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::hosts;
use crate::rules::frontmatter::{raw_front, unquote};
use crate::rules::json_span::{json_docs, place, Step};
use crate::yaml::FrontmatterError;

use super::context::Context;

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod claude001_agent_frontmatter_missing;
pub mod claude002_frontmatter_yaml_invalid;
pub mod claude003_agent_name_missing;
pub mod claude004_agent_name_invalid;
pub mod claude005_agent_description_missing;
pub mod claude007_agent_model_unknown;
pub mod claude008_agent_permission_mode_invalid;
pub mod claude009_agent_bypass_permissions;
pub mod claude010_agent_tool_case;
pub mod claude011_agent_tools_format;
pub mod claude012_agent_tool_allowed_and_disallowed;
pub mod claude013_agent_color_invalid;
pub mod claude014_agent_memory_invalid;
pub mod claude015_agent_max_turns_invalid;
pub mod claude016_agent_unknown_field;
pub mod claude017_agent_prompt_empty;
pub mod claude018_agent_prompt_too_long;
pub mod claude019_agent_name_duplicate;
pub mod claude020_command_arguments_in_bash;
pub mod claude021_command_bash_not_allowed;
pub mod claude022_command_argument_hint_missing;
pub mod claude023_command_allowed_tools_format;
pub mod claude024_command_tool_case;
pub mod claude025_command_model_unknown;
pub mod claude026_command_unknown_field;
pub mod claude027_command_body_empty;
pub mod claude028_json_invalid;
pub mod claude029_settings_unknown_key;
pub mod claude030_hook_event_unknown;
pub mod claude031_hook_matcher_ignored;
pub mod claude032_hook_structure_invalid;
pub mod claude033_hook_type_invalid;
pub mod claude034_hook_command_missing;
pub mod claude035_hook_timeout_invalid;
pub mod claude036_hook_timeout_milliseconds;
pub mod claude037_hook_unquoted_expansion;
pub mod claude038_permission_rule_invalid;
pub mod claude039_permission_rule_conflict;
pub mod claude040_permission_rule_duplicate;
pub mod claude041_permission_allow_all;
pub mod claude042_permission_mode_invalid;
pub mod claude043_permission_bypass_committed;
pub mod claude044_permission_tool_case;
pub mod claude045_settings_model_unknown;
pub mod claude046_settings_env_secret;
pub mod claude047_plugin_name_missing;
pub mod claude048_plugin_name_invalid;
pub mod claude049_plugin_version_invalid;
pub mod claude050_plugin_path_invalid;
pub mod claude051_plugin_unknown_field;
pub mod claude052_marketplace_field_missing;
pub mod claude053_marketplace_source_missing;
pub mod claude054_marketplace_plugin_duplicate;
pub mod claude055_memory_import_too_deep;
pub mod claude056_memory_import_in_code;
pub mod claude057_tool_removed;
pub mod claude058_hook_variable_never_set;
pub mod claude059_plugin_path_missing;

/// The fields Claude Code reads in files of `kind` (data/hosts/claude-code.toml).
pub fn read_fields(kind: FileKind) -> Vec<&'static str> {
    kind.spec_of("claude-code").read_fields().collect()
}

/// The component paths of a plugin manifest ([`agent_files::component_paths`]) with where each
/// is written: (field, path, steps to its value).
pub fn component_paths(manifest: &Value) -> Vec<(&'static str, &str, Vec<Step<'static>>)> {
    let place = |key, index: Option<usize>| std::iter::once(Step::Key(key)).chain(index.map(Step::Index)).collect();
    agent_files::component_paths(manifest).into_iter().map(|(key, index, path)| (key, path, place(key, index))).collect()
}

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Claude Code files: subagents, slash commands, settings (hooks and permissions), plugin manifests, CLAUDE.md.";

/// One top-level frontmatter field: its value and where its key and value are written.
#[derive(Debug, Clone)]
pub struct Field {
    pub key: String,
    pub value: Value,
    pub key_span: Option<Range<usize>>,
    pub value_span: Option<Range<usize>>,
    /// Where each item of a sequence value is written (see `FieldSpan::items`).
    pub items: Vec<Range<usize>>,
    /// The whole entry, from its key to the end of its value's last line.
    pub entry: Option<Range<usize>>,
}

impl Field {
    /// The value span, else the key span.
    pub fn span(&self) -> Option<Range<usize>> {
        self.value_span.clone().or_else(|| self.key_span.clone())
    }
}

/// A file's frontmatter fields: the YAML parse when it succeeds, else `key: value` lines (the
/// value a raw string, read by the one lenient reader), as Claude Code reads them. `None` without a frontmatter block.
pub fn fields(doc: &Doc) -> Option<Vec<Field>> {
    match &*doc.front {
        Ok(_) => Some(
            doc.fields()
                .iter()
                .map(|(key, value)| Field {
                    key: key.clone(),
                    value: value.clone(),
                    key_span: doc.key_span(key),
                    value_span: doc.value_span(key),
                    items: doc.item_spans(key),
                    entry: doc.entry_lines(key),
                })
                .collect(),
        ),
        Err(FrontmatterError::Invalid(_)) => Some(line_fields(&doc.text)),
        Err(_) => None,
    }
}

/// The field named `key`.
pub fn field<'a>(fields: &'a [Field], key: &str) -> Option<&'a Field> {
    fields.iter().find(|f| f.key == key)
}

/// Top-level `key: value` lines of a frontmatter block that is not valid YAML, each value a raw
/// string without its quotes (the span of an empty value is none).
fn line_fields(text: &str) -> Vec<Field> {
    let Ok(front) = raw_front(text) else { return Vec::new() };
    front
        .fields
        .into_iter()
        .map(|f| Field {
            value: Value::String(unquote(&f.value).to_string()),
            value_span: (!f.value.is_empty()).then_some(f.value_span),
            entry: Some(f.line_span),
            key_span: Some(f.key_span),
            key: f.key,
            items: Vec::new(),
        })
        .collect()
}

/// The files of one kind with their frontmatter fields (files without frontmatter skipped).
pub fn with_fields<'a>(cx: &Context<'a>, kind: FileKind) -> Vec<(&'a Doc, Vec<Field>)> {
    cx.files_of(kind).filter_map(|doc| fields(doc).map(|f| (doc, f))).collect()
}

/// The built-in tools of Claude Code, as `tools`, `allowed-tools` and permission rules name them.
pub const TOOLS: &[&str] = &[
    "Agent",
    "AskUserQuestion",
    "Bash",
    "BashOutput",
    "Edit",
    "EnterPlanMode",
    "EnterWorktree",
    "ExitPlanMode",
    "ExitWorktree",
    "Glob",
    "Grep",
    "KillBash",
    "KillShell",
    "ListMcpResourcesTool",
    "LSP",
    "NotebookEdit",
    "NotebookRead",
    "Read",
    "ReadMcpResourceTool",
    "SendMessage",
    "Skill",
    "SlashCommand",
    "Task",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskOutput",
    "TaskStop",
    "TaskUpdate",
    "TeamCreate",
    "TeamDelete",
    "TodoRead",
    "TodoWrite",
    "ToolSearch",
    "WebFetch",
    "WebSearch",
    "Write",
];

/// Tools Claude Code had and no longer has, with what does their work now. A list naming one
/// grants or denies nothing (<https://code.claude.com/docs/en/settings>, tools available to
/// Claude, lists neither; `MultiEdit` was folded into `Edit` in 2.0, anthropics/claude-code#11125).
pub const REMOVED_TOOLS: [(&str, &str); 2] = [("LS", "`Glob` (or `Bash(ls:*)`)"), ("MultiEdit", "`Edit`")];

/// A removed tool this name spells, in any case: its name and what replaces it.
pub fn removed_tool(name: &str) -> Option<(&'static str, &'static str)> {
    REMOVED_TOOLS.iter().copied().find(|(tool, _)| tool.eq_ignore_ascii_case(name))
}

/// Permission modes (`permissionMode` of a subagent, `permissions.defaultMode` of settings).
pub const PERMISSION_MODES: [&str; 6] = ["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions", "auto"];

/// A built-in tool written in the wrong case (`bash` for `Bash`): the right spelling.
pub fn tool_case_typo(name: &str) -> Option<&'static str> {
    TOOLS.iter().copied().find(|t| *t != name && t.eq_ignore_ascii_case(name))
}

/// Errors for the built-in tools a frontmatter tool list (`tools`, `allowed-tools`…) writes in
/// the wrong case, each with a safe fix.
pub fn miscased_tools(doc: &Doc, list: &Field) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (entry, span) in tool_list(&doc.text, list) {
        let tool = tool_of(&entry);
        let Some(right) = tool_case_typo(tool) else { continue };
        let mut d = Diagnostic::finding(format!("`{tool}` in `{}` is not a tool; tool names are case-sensitive", list.key))
            .in_file(&doc.file)
            .at(span.clone().or_else(|| list.span()))
            .help(format!("write `{right}`"));
        if let Some(span) = span {
            d = d.fix(Fix::safe(format!("write `{right}`"), vec![Edit::replace(&doc.file, span.start..span.start + tool.len(), right)]));
        }
        findings.push(d);
    }
    findings
}

/// Warnings for the removed tools ([`REMOVED_TOOLS`]) a frontmatter tool list names, in any case.
pub fn removed_tools_in(doc: &Doc, list: &Field) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (entry, span) in tool_list(&doc.text, list) {
        let written = tool_of(&entry);
        let Some((tool, instead)) = removed_tool(written) else { continue };
        let what = if written == tool { format!("`{tool}`") } else { format!("`{written}` (`{tool}`)") };
        findings.push(
            Diagnostic::finding(format!("{what} in `{}` is a tool Claude Code no longer has; the entry does nothing", list.key))
                .in_file(&doc.file)
                .at(span.or_else(|| list.span()))
                .help(format!("remove it; {instead} does its work now")),
        );
    }
    findings
}

/// The entries of a tool list: a comma-separated string (commas inside parentheses kept) or a
/// list of strings; each with its byte range in `text`: within the item written for it, or within
/// the string, each entry after the previous one (none when the text is written otherwise, as
/// with escapes).
pub fn tool_list(text: &str, field: &Field) -> Vec<(String, Option<Range<usize>>)> {
    let within = |written: Option<&Range<usize>>, from: usize, name: &str| {
        let written = written?;
        let at = text.get(written.start.max(from)..written.end)?.find(name)? + written.start.max(from);
        Some(at..at + name.len())
    };
    match &field.value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| {
                let name = item.as_str()?.trim();
                Some((name.to_string(), within(field.items.get(i), 0, name)))
            })
            .collect(),
        Value::String(s) => {
            let mut from = 0;
            split_tools(s)
                .into_iter()
                .map(|name| {
                    let found = within(field.entry.as_ref(), from.max(field.key_span.as_ref().map_or(0, |k| k.end)), &name);
                    from = found.as_ref().map_or(from, |r| r.end);
                    (name, found)
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Why a tool list value is not one (a comma-separated string or a list of strings), if it is not.
pub fn tool_list_problem(value: &Value) -> Option<String> {
    match value {
        Value::String(_) | Value::Null => None,
        Value::Array(items) => items.iter().find(|i| !i.is_string()).map(|i| format!("a list holding {}", crate::tools::json_kind(i))),
        other => Some(crate::tools::json_kind(other).to_string()),
    }
}

fn split_tools(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut current) = (0i32, String::new());
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth <= 0 => {
                out.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    out.push(current);
    out.into_iter().map(|t| t.trim().trim_matches(['"', '\'']).to_string()).filter(|t| !t.is_empty()).collect()
}

/// The tool a permission rule or tool entry names: the part before `(`.
pub fn tool_of(entry: &str) -> &str {
    entry.split('(').next().unwrap_or(entry).trim()
}

/// The `!`command`` lines of a slash command body that Claude Code runs before sending the prompt
/// (outside fenced code blocks): the command's range in the file (after `offset`) and its text.
pub fn bash_injections(body: &str, offset: usize) -> Vec<(Range<usize>, &str)> {
    static BANG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?:^|[\s(])!`([^`\n]+)`").expect("constant pattern")); // ok: literal
    let mut out = Vec::new();
    let mut fence: Option<&str> = None;
    let mut at = offset;
    for line in body.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (Some(open), Some(m)) if m == open => fence = None,
            (Some(_), _) => {}
            (None, Some(m)) => fence = Some(m),
            (None, None) => {
                for caps in BANG.captures_iter(line) {
                    if let Some(m) = caps.get(1) {
                        out.push((at + m.start()..at + m.end(), m.as_str()));
                    }
                }
            }
        }
        at += line.len();
    }
    out
}

/// `$ARGUMENTS` and positional `$1`…`$9` references in a text: (range, reference).
pub fn argument_refs(text: &str) -> Vec<(Range<usize>, &str)> {
    static ARGS: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\$(?:ARGUMENTS(?-u:\b)|\{ARGUMENTS\}|[1-9](?-u:\b))").expect("constant pattern")); // ok: literal
                                                                                                                         // `$2-5M`, `$1.50`, `$3,000` are amounts of money, not arguments.
    let amount = |end: usize| {
        let mut rest = text[end..].chars();
        matches!(rest.next(), Some('-' | '.' | ',' | '–')) && rest.next().is_some_and(|c| c.is_ascii_digit())
    };
    ARGS.find_iter(text).filter(|m| m.as_str().len() != 2 || !amount(m.end())).map(|m| (m.range(), m.as_str())).collect()
}

/// Whether a model value is one Claude Code accepts: an alias or a full `claude-…` model id.
pub fn known_model(model: &str) -> bool {
    // `fable` selects the newest Fable model (code.claude.com/docs/en/model-config, "Model aliases").
    const ALIASES: [&str; 8] = ["sonnet", "opus", "haiku", "fable", "inherit", "default", "opusplan", "sonnet[1m]"];
    ALIASES.contains(&model)
        || (model.starts_with("claude-") && model.len() > 7 && model.chars().all(|c| c.is_ascii_alphanumeric() || "-.[]@:".contains(c)))
        // Bedrock and Vertex model ids name Claude with a provider prefix.
        || model.contains("anthropic.claude-")
        || model.starts_with("us.anthropic.")
}

/// An error for a `model` value Claude Code does not know (at `span`, a YAML scalar or a JSON
/// string), with a safe fix when only the case is wrong (`Sonnet`); `None` when the value is fine
/// or not a string.
pub fn unknown_model(doc: &Doc, value: &Value, span: Option<Range<usize>>, what: &str) -> Option<Diagnostic> {
    let value = value.as_str()?.trim();
    if value.is_empty() || known_model(value) {
        return None;
    }
    let d = Diagnostic::finding(format!("{what} model `{value}` is not a Claude Code model"))
        .in_file(&doc.file)
        .at(span.clone())
        .help("use `sonnet`, `opus`, `haiku`, `fable`, `inherit` or a full id such as `claude-sonnet-4-5`");
    let lower = value.to_ascii_lowercase();
    Some(match (known_model(&lower), span) {
        (true, Some(span)) => {
            let quoted = if doc.text[span.clone()].starts_with('"') { format!("\"{lower}\"") } else { lower.clone() };
            d.fix(Fix::safe(format!("write `{lower}`"), vec![Edit::replace(&doc.file, span, quoted)]))
        }
        _ => d,
    })
}

/// Claude Code's hook events (case-sensitive), from its host model.
pub fn hook_events() -> Vec<&'static str> {
    hosts::claude_code().values("hook-events")
}

/// The files that parse whose top-level `hooks` holds Claude Code hooks: settings, a plugin's
/// hooks file, and a plugin manifest that writes its hooks inline (not as a path).
pub fn hook_docs<'a>(cx: &Context<'a>) -> Vec<(&'a Doc, ParsedJson)> {
    json_docs(cx, &[FileKind::ClaudeSettings, FileKind::ClaudeHooks, FileKind::ClaudePlugin])
        .into_iter()
        .filter(|(doc, json)| {
            doc.kind != FileKind::ClaudePlugin || matches!(&**json, Ok(v) if v.get("hooks").is_some_and(Value::is_object))
        })
        .collect()
}

/// Calls `f` with every well-formed hook of every file of [`hook_docs`]: (file, event, matcher
/// group index, hook index, hook).
pub fn each_hook<'a>(cx: &Context<'a>, mut f: impl FnMut(&'a Doc, &str, usize, usize, &Value)) {
    for (doc, json) in hook_docs(cx) {
        if let Ok(value) = &*json {
            for (event, g, _, h, hook) in hooks(value) {
                f(doc, event, g, h, hook);
            }
        }
    }
}

/// Calls `f` with every permission rule of every settings file that parses: (file, list, index, rule).
pub fn each_permission<'a>(cx: &Context<'a>, mut f: impl FnMut(&'a Doc, &'static str, usize, &str)) {
    for (doc, json) in json_docs(cx, &[FileKind::ClaudeSettings]) {
        if let Ok(value) = &*json {
            for (list, i, rule) in permission_rules(value) {
                f(doc, list, i, rule);
            }
        }
    }
}

/// The hooks of a settings value: (event, matcher group index, group, hook index, hook), for
/// the well-formed parts (`hooks` an object of arrays of objects with a `hooks` array).
pub fn hooks(settings: &Value) -> Vec<(&str, usize, &Value, usize, &Value)> {
    settings.get("hooks").map_or_else(Vec::new, event_hooks)
}

/// The hooks of a `hooks` value (an object of events), as [`hooks`] gives them.
fn event_hooks(events: &Value) -> Vec<(&str, usize, &Value, usize, &Value)> {
    let mut out = Vec::new();
    let Some(events) = events.as_object() else { return out };
    for (event, groups) in events {
        for (g, group) in groups.as_array().into_iter().flatten().enumerate() {
            for (h, hook) in group.get("hooks").and_then(Value::as_array).into_iter().flatten().enumerate() {
                if hook.is_object() {
                    out.push((event.as_str(), g, group, h, hook));
                }
            }
        }
    }
    out
}

/// One hook's shell command, wherever it is written: a settings file, or the `hooks` field of a
/// skill's, subagent's or command's frontmatter (YAML, same shape).
#[derive(Debug, Clone)]
pub struct HookCommand<'a> {
    pub doc: &'a Doc,
    pub command: String,
    /// Where the command is written (the JSON string, the YAML scalar), else the `hooks` key.
    pub span: Option<Range<usize>>,
    /// Where the command's first character is written, when the file spells the command byte for
    /// byte (no escapes), so offsets into the command are offsets into the file.
    pub exact_start: Option<usize>,
    /// Whether the command is a JSON string (a settings file), where an edit must escape quotes.
    pub in_json: bool,
}

/// Every hook command of the files of [`hook_docs`] and of the skill, subagent and command
/// frontmatter that has `hooks`.
pub fn hook_commands<'a>(cx: &Context<'a>) -> Vec<HookCommand<'a>> {
    let mut out = Vec::new();
    each_hook(cx, |doc, event, g, h, hook| {
        let Some(command) = hook.get("command").and_then(Value::as_str) else { return };
        let at = place(doc, &hook_path(event, g, h, "command"));
        let exact_start = at
            .as_ref()
            .filter(|p| doc.text.get(p.value.start + 1..p.value.end.saturating_sub(1)) == Some(command))
            .map(|p| p.value.start + 1);
        out.push(HookCommand { doc, command: command.to_string(), span: at.map(|p| p.value), exact_start, in_json: true });
    });
    let frontmatter =
        cx.skills.iter().map(|s| &s.doc).chain(cx.files_of(FileKind::ClaudeAgent)).chain(cx.files_of(FileKind::ClaudeCommand));
    for doc in frontmatter {
        let Some(events) = doc.field("hooks") else { continue };
        let hooks_key = doc.key_span("hooks");
        // Commands are looked for in order, each after the previous one, inside the frontmatter.
        let mut from = hooks_key.as_ref().map_or(0, |k| k.end);
        let end = doc.body_start();
        for (_, _, _, _, hook) in event_hooks(events) {
            let Some(command) = hook.get("command").and_then(Value::as_str).filter(|c| !c.is_empty()) else { continue };
            let found = doc.text.get(from..end).and_then(|t| t.find(command)).map(|i| from + i);
            if let Some(start) = found {
                from = start + command.len();
            }
            let span = found.map(|s| s..s + command.len()).or_else(|| hooks_key.clone());
            out.push(HookCommand { doc, command: command.to_string(), span, exact_start: found, in_json: false });
        }
    }
    out
}

/// The path of one hook's field, for [`at_key`](crate::rules::json_span::at_key).
pub fn hook_path<'a>(event: &'a str, group: usize, hook: usize, key: &'a str) -> [Step<'a>; 6] {
    [Step::Key("hooks"), Step::Key(event), Step::Index(group), Step::Key("hooks"), Step::Index(hook), Step::Key(key)]
}

/// The permission rules of a settings value: (list name, index, rule).
pub fn permission_rules(settings: &Value) -> Vec<(&'static str, usize, &str)> {
    let mut out = Vec::new();
    for list in ["allow", "ask", "deny"] {
        let rules = settings.pointer(&format!("/permissions/{list}")).and_then(Value::as_array);
        for (i, rule) in rules.into_iter().flatten().enumerate() {
            if let Some(rule) = rule.as_str() {
                out.push((list, i, rule));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_tool_lists_keeping_specifiers() {
        assert_eq!(split_tools("Read, Bash(git add:*, git commit:*), \"Grep\""), ["Read", "Bash(git add:*, git commit:*)", "Grep"]);
        assert_eq!(tool_case_typo("bash"), Some("Bash"));
        assert_eq!(tool_case_typo("Bash"), None);
        // A removed tool is not a spelling to fix towards.
        assert_eq!(tool_case_typo("ls"), None);
        assert_eq!(tool_case_typo("multiedit"), None);
        assert_eq!(removed_tool("ls").map(|(t, _)| t), Some("LS"));
    }

    /// Each entry is placed within what is written for it: an item of a list, a part of a
    /// comma-separated string; never in the body below, where the name is written too.
    #[test]
    fn tool_list_entries_are_placed_within_their_field() {
        fn place(text: &str) -> Vec<(String, Option<(usize, &str)>)> {
            let doc =
                Doc::new(FileKind::ClaudeAgent, "a.md".into(), "a.md".into(), crate::memo::SharedText::new(text), &Default::default());
            let fields = fields(&doc).expect("a frontmatter");
            let tools = field(&fields, "tools").expect("tools");
            tool_list(text, tools).into_iter().map(|(name, span)| (name, span.map(|r| (r.start, &text[r])))).collect()
        }
        let text = "---\ntools:\n  - 'Read'\n  - Bash\n  - \"We\\x62\"\nname: x\n---\nRead Bash Web\n";
        assert_eq!(
            place(text),
            [("Read".into(), Some((16, "Read"))), ("Bash".into(), Some((26, "Bash"))), ("Web".into(), None)],
            "an escaped name is not searched for in the body"
        );
        let text = "---\ntools: Read, Grep\n---\nGrep Glob\n";
        assert_eq!(place(text), [("Read".into(), Some((11, "Read"))), ("Grep".into(), Some((17, "Grep")))]);
        let text = "---\ntools: Read, Glob\n---\nGlob\n";
        assert_eq!(place(text)[1], ("Glob".into(), Some((17, "Glob"))));
    }

    #[test]
    fn reads_broken_yaml_line_by_line() {
        let text = "---\nname: reviewer\ndescription: Use when: asked\n  user: \"x\"\nmodel: 'opus'\n---\nBody\n";
        let fields = line_fields(text);
        let keys: Vec<&str> = fields.iter().map(|f| f.key.as_str()).collect();
        assert_eq!(keys, ["name", "description", "model"]);
        assert_eq!(fields[2].value, Value::String("opus".into()));
        assert_eq!(fields[1].value_span.clone().map(|r| &text[r]), Some("Use when: asked"));
    }

    #[test]
    fn models() {
        for ok in ["sonnet", "fable", "inherit", "claude-opus-4-6", "claude-3-5-haiku-20241022", "us.anthropic.claude-sonnet-4-5-v1:0"] {
            assert!(known_model(ok), "{ok}");
        }
        for bad in ["fabel", "gpt-4o", "Sonnet", "claude-"] {
            assert!(!known_model(bad), "{bad}");
        }
    }
}
