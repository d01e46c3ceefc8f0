//! A [`Comparison`] for people and tools: text (terminal, `check --locked`), Markdown (a pull
//! request comment) and JSON. Shared by `ctxc diff` and `ctxc check --locked`. Names (agents,
//! modes, scenarios, sections, paths) and the diffs' text come from the project: they are
//! escaped for the terminal ([`Untrusted`]) or put in code spans and fences for Markdown.

use super::escape::{markdown_code, markdown_text, terminal_text, Untrusted};
use super::table::num;
use crate::checks::budgets::Band;
use crate::counts::FileChange;
use crate::lint::baseline::{Changes, Recorded};
use crate::measure::Count;
use crate::review::compare::{AgentChange, Comparison, Delta, PromptChange, Status};
use crate::review::host_changes::{HostChange, PartChange as HostPartChange};
use crate::rules::secrets;

/// GitHub refuses comments over 65,536 characters; text diffs are cut well before that.
const MARKDOWN_DIFF_LIMIT: usize = 40_000;
/// The baseline entries a comment lists (a baseline can hold thousands); added ones first.
const MARKDOWN_BASELINE_ROWS: usize = 100;

fn count(tokens: i64, exact: bool) -> String {
    num(Count { tokens, tokenizer: "", exact })
}

fn side(tokens: Option<i64>, exact: bool) -> String {
    tokens.map_or("-".to_string(), |t| count(t, exact))
}

fn signed(delta: i64, exact: bool) -> String {
    let n = count(delta, exact);
    if delta > 0 {
        format!("{}+{}", if exact { "" } else { "~" }, n.trim_start_matches('~'))
    } else {
        n
    }
}

fn percent(d: &Delta) -> String {
    match (d.before, d.after, d.percent()) {
        (None, Some(_), _) => "new".into(),
        (Some(_), None, _) => "removed".into(),
        (_, _, Some(p)) if d.delta != 0 => format!("{p:+.1} %"),
        _ => String::new(),
    }
}

fn status_word(status: Status) -> &'static str {
    match status {
        Status::Added => "added",
        Status::Removed => "removed",
        Status::Changed => "changed",
        Status::Unchanged => "unchanged",
    }
}

/// One row of a prompt's table: label, before, after, delta and percent; `sum` for the system
/// prompt's and the total's rows (shown in bold in Markdown, an estimate's with its band).
struct Row {
    sum: bool,
    cells: [String; 5],
}

/// The rows of one prompt's table: sections (all, or only those that changed), then system
/// prompt, tool schemas and total, an estimate's with the range it lies in.
fn rows(p: &PromptChange, exact: bool, all: bool) -> Vec<Row> {
    let row = |sum: bool, label: String, d: &Delta| Row {
        sum,
        cells: [label, side(d.before, exact), side(d.after, exact), signed(d.delta, exact), percent(d)],
    };
    let mut out: Vec<Row> =
        p.sections.iter().filter(|s| all || s.status != Status::Unchanged).map(|s| row(false, s.id.clone(), &s.tokens)).collect();
    let unchanged = p.sections.iter().filter(|s| s.status == Status::Unchanged).count();
    if !all && unchanged > 0 && p.status == Status::Changed {
        out.push(Row {
            sum: false,
            cells: [format!("({unchanged} unchanged)"), String::new(), String::new(), String::new(), String::new()],
        });
    }
    let band = |band: Option<Band>| band.map(|b| format!(" ({b})")).unwrap_or_default();
    out.push(row(true, format!("system prompt{}", band(p.bands.map(|b| b.system_prompt))), &p.system_prompt));
    if all || p.tools_changed {
        out.push(row(false, "tool schemas".into(), &p.tool_schemas));
        out.push(row(true, format!("total{}", band(p.bands.map(|b| b.total))), &p.total));
    }
    out
}

/// A prompt's name for the terminal.
fn prompt_name(p: &PromptChange) -> String {
    format!("{} · {}", Untrusted(&p.mode), Untrusted(&p.scenario))
}

/// A prompt's name for Markdown.
fn prompt_code(p: &PromptChange) -> String {
    format!("{} · {}", markdown_code(&p.mode), markdown_code(&p.scenario))
}

fn agent_heading(a: &AgentChange) -> String {
    format!("{} ({}): {}", Untrusted(&a.agent), Untrusted(&a.path), status_word(a.status))
}

/// Text diffs with identical bodies printed once, naming every prompt that shares them (each
/// named by `name`). The diffs' text is masked and made inert (see [`terminal_text`]): a
/// prompt's lines are the project's.
fn grouped_diffs(a: &AgentChange, name: impl Fn(&PromptChange) -> String) -> Vec<(String, Vec<String>)> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for p in a.prompts.iter().filter(|p| !p.diff.is_empty()) {
        let body: String = p.diff.split_inclusive('\n').skip(2).collect();
        match groups.iter_mut().find(|(b, _)| b.split_inclusive('\n').skip(2).collect::<String>() == body) {
            Some((_, names)) => names.push(name(p)),
            None => groups.push((p.diff.clone(), vec![name(p)])),
        }
    }
    // The headers name the agent, mode and scenario: a credential there is masked too.
    groups.into_iter().map(|(diff, names)| (terminal_text(&secrets::mask(&diff)).into_owned(), names)).collect()
}

/// The comparison as terminal text: changed agents and prompts with their token tables, a line
/// for what is unchanged, then the text diffs. `all` also lists unchanged sections and prompts.
pub fn text(c: &Comparison, all: bool) -> String {
    let mut out = String::new();
    for a in c.agents.iter().filter(|a| all || a.status != Status::Unchanged) {
        out.push_str(&agent_heading(a));
        out.push('\n');
        for note in &a.notes {
            out.push_str(&format!("  {}\n", Untrusted(note)));
        }
        let mut unchanged = Vec::new();
        for p in &a.prompts {
            if p.status == Status::Unchanged && !all {
                unchanged.push(prompt_name(p));
                continue;
            }
            out.push_str(&format!("\n  {} ({})\n", prompt_name(p), status_word(p.status)));
            let mut table: Vec<[String; 5]> = rows(p, a.exact, all).into_iter().map(|r| r.cells).collect();
            for row in &mut table {
                row[0] = Untrusted(&row[0]).to_string();
            }
            let w = table.iter().map(|r| r[0].chars().count()).max().unwrap_or(0).max(7);
            out.push_str(&format!("    {:<w$}  {:>9}  {:>9}  {:>8}\n", "section", "before", "after", "delta"));
            for [label, before, after, delta, pct] in table {
                out.push_str(format!("    {label:<w$}  {before:>9}  {after:>9}  {delta:>8}  {pct}").trim_end());
                out.push('\n');
            }
        }
        if !unchanged.is_empty() {
            out.push_str(&format!("\n  unchanged: {}\n", unchanged.join(", ")));
        }
        for (diff, names) in grouped_diffs(a, prompt_name) {
            out.push('\n');
            out.push_str(&diff);
            if names.len() > 1 {
                out.push_str(&format!("(the same change in: {})\n", names[1..].join(", ")));
            }
        }
        out.push('\n');
    }
    let same = c.agents.iter().filter(|a| a.status == Status::Unchanged).count();
    if same > 0 && !all {
        out.push_str(&format!("{same} agent{} unchanged\n", if same == 1 { "" } else { "s" }));
    }
    out
}

/// A fence longer than any run of backticks in `text`.
fn fence(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

/// The comparison as Markdown for a pull request comment: one table of every changed section
/// and total, then the text diffs folded in a `<details>` block.
pub fn markdown(c: &Comparison, before: &str, after: &str, all: bool) -> String {
    let mut out = format!("### ctxc: prompt changes ({} → {})\n\n", markdown_code(before), markdown_text(after));
    let shown: Vec<&AgentChange> = c.agents.iter().filter(|a| all || a.status != Status::Unchanged).collect();
    if shown.is_empty() {
        out.push_str("No prompt changed.\n");
        return out;
    }
    out.push_str("| agent | mode | scenario | section | before | after | Δ | Δ % |\n|---|---|---|---|---:|---:|---:|---:|\n");
    let mut unchanged = 0;
    for a in &shown {
        if a.status == Status::Added || a.status == Status::Removed || !a.notes.is_empty() {
            let what = [status_word(a.status).to_string()].into_iter().chain(a.notes.iter().cloned()).collect::<Vec<_>>().join("; ");
            out.push_str(&format!("| {} | | | *agent {}* | | | | |\n", markdown_code(&a.agent), markdown_text(&what)));
        }
        for p in &a.prompts {
            if p.status == Status::Unchanged && !all {
                unchanged += 1;
                continue;
            }
            for Row { sum, cells: [label, before, after, delta, pct] } in
                rows(p, a.exact, all).into_iter().filter(|r| !r.cells[0].starts_with('('))
            {
                // The sums in bold, their bands after; the other labels as code (a section's id is the project's text).
                let label = match sum {
                    true => label.split_once(" (").map_or(format!("**{label}**"), |(name, band)| format!("**{name}** ({band}")),
                    false => markdown_code(&label),
                };
                out.push_str(&format!(
                    "| {} | {} | {} | {label} | {before} | {after} | {delta} | {pct} |\n",
                    markdown_code(&a.agent),
                    markdown_code(&p.mode),
                    markdown_code(&p.scenario)
                ));
            }
        }
    }
    let same_agents = c.agents.len() - shown.len();
    if unchanged + same_agents > 0 {
        out.push_str(&format!("\n{unchanged} more prompt(s) and {same_agents} agent(s) unchanged.\n"));
    }
    let diffs: Vec<(String, Vec<String>)> = shown.iter().flat_map(|a| grouped_diffs(a, prompt_code)).collect();
    if !diffs.is_empty() {
        out.push_str("\n<details><summary>Prompt text diffs</summary>\n\n");
        let mut budget = MARKDOWN_DIFF_LIMIT;
        for (diff, names) in diffs {
            if diff.len() > budget {
                out.push_str("*(more diffs left out to fit a comment: run `ctxc diff` locally)*\n\n");
                break;
            }
            budget -= diff.len();
            let f = fence(&diff);
            out.push_str(&format!("{f}diff\n{diff}{f}\n"));
            if names.len() > 1 {
                out.push_str(&format!("The same change in: {}.\n", names[1..].join(", ")));
            }
            out.push('\n');
        }
        out.push_str("</details>\n");
    }
    out
}

/// The characters of a baseline entry's message a report shows: the message is the pull
/// request's own words (never checked against a finding), and a long one must not push a
/// comment past GitHub's size limit and so hide the rest of the report.
const BASELINE_MESSAGE_CHARS: usize = 200;

/// `message` cut to [`BASELINE_MESSAGE_CHARS`] characters.
fn clipped(message: &str) -> String {
    match message.char_indices().nth(BASELINE_MESSAGE_CHARS) {
        Some((at, _)) => format!("{}…", &message[..at]),
        None => message.to_string(),
    }
}

/// The entries a change adds to or removes from a baseline, each with the word for its side.
fn baseline_rows(c: &Changes) -> impl Iterator<Item = (&'static str, &Recorded)> {
    c.added.iter().map(|r| ("added", r)).chain(c.removed.iter().map(|r| ("removed", r)))
}

/// What a change does to the baseline `file`, for the terminal: empty when nothing. An added
/// entry hides its finding from `ctxc check --baseline`, so each is named by code and file.
pub fn baseline_text(file: &str, c: &Changes) -> String {
    if c.added.is_empty() && c.removed.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "baseline {}: {} added (no longer reported by `ctxc check --baseline`), {} removed\n",
        Untrusted(file),
        c.added.len(),
        c.removed.len()
    );
    for (word, r) in baseline_rows(c) {
        let place = r.file.as_deref().unwrap_or("no file");
        out.push_str(&format!("  {word}: {} in {}: {}\n", Untrusted(&r.code), Untrusted(place), Untrusted(&clipped(&r.message))));
    }
    out
}

/// What a change does to the recorded counts (`ctxc.counts`), for the terminal: a file changed
/// replaces estimates by figures labelled exact, so it is named, with what it holds that no
/// tokenizer gives.
pub fn counts_text(files: &[FileChange]) -> String {
    if files.is_empty() {
        return String::new();
    }
    let mut out = String::from("\nctxc.counts\n");
    for f in files {
        out.push_str(&format!("  {} ({}): {}\n", Untrusted(&f.file), Untrusted(&f.agent), counts_summary(f)));
        if let Some(finding) = &f.implausible {
            out.push_str(&format!("  not plausible: {}\n", Untrusted(finding)));
        }
    }
    out
}

/// What a change does to the baseline `file`, for a pull request comment: empty when nothing.
pub fn baseline_markdown(file: &str, c: &Changes) -> String {
    if c.added.is_empty() && c.removed.is_empty() {
        return String::new();
    }
    let mut out = format!("\n#### Baseline {}\n\n", markdown_code(file));
    if !c.added.is_empty() {
        out.push_str(&format!(
            "**This change adds {} to the baseline**: `ctxc check --baseline` no longer reports {}.\n\n",
            match c.added.len() {
                1 => "1 finding".to_string(),
                n => format!("{n} findings"),
            },
            if c.added.len() == 1 { "it" } else { "them" }
        ));
    }
    out.push_str("| | code | file | message |\n|---|---|---|---|\n");
    for (word, r) in baseline_rows(c).take(MARKDOWN_BASELINE_ROWS) {
        let place = r.file.as_deref().map_or("*no file*".to_string(), markdown_code);
        out.push_str(&format!("| {word} | {} | {place} | {} |\n", markdown_code(&r.code), markdown_text(&clipped(&r.message))));
    }
    let more = (c.added.len() + c.removed.len()).saturating_sub(MARKDOWN_BASELINE_ROWS);
    if more > 0 {
        out.push_str(&format!("\n*({more} more entries left out to fit a comment: run `ctxc diff --baseline` locally)*\n"));
    }
    out
}

/// [`counts_text`] for a pull request comment.
pub fn counts_markdown(files: &[FileChange]) -> String {
    if files.is_empty() {
        return String::new();
    }
    let mut out = String::from("\n#### `ctxc.counts`\n\n");
    for f in files {
        out.push_str(&format!("- {} ({}): {}\n", markdown_code(&f.file), markdown_code(&f.agent), counts_summary(f)));
        if let Some(finding) = &f.implausible {
            out.push_str(&format!("  - **Not plausible** (BUDGET007): {}\n", markdown_text(finding)));
        }
    }
    out
}

fn counts_summary(f: &FileChange) -> String {
    let c = &f.changes;
    let entries = |n: usize| if n == 1 { "1 entry".to_string() } else { format!("{n} entries") };
    match c.any() {
        true => format!(
            "{} added, {} changed, {} removed. Recorded counts replace ctxc's estimates and are labelled exact: review this file like code",
            entries(c.added),
            c.changed,
            c.removed
        ),
        false => "unchanged".to_string(),
    }
}

/// `ctxc diff` of a repository without a manifest: per host, its startup context's total at
/// `before` and in the work tree, and each part that changed (`all`: every part), as text or as
/// a Markdown table for a pull request comment.
pub fn hosts(changes: &[HostChange], before: &str, all: bool, md: bool) -> String {
    let mut out = match md {
        true => format!("### ctxc: what each host loads at session start ({} → work tree)\n\n", markdown_code(before)),
        false => String::new(),
    };
    if changes.is_empty() {
        out.push_str("No host loads anything from this folder on either side.\n");
        return out;
    }
    if md {
        out.push_str("| host | section | file | part | before | after | Δ | Δ % |\n|---|---|---|---|--:|--:|--:|--:|\n");
    }
    for host in changes {
        let numbers = |d: &Delta| [side(d.before, host.exact), side(d.after, host.exact), signed(d.delta, host.exact), percent(d)];
        let shown: Vec<&HostPartChange> = host.parts.iter().filter(|p| all || p.tokens.before != p.tokens.after).collect();
        let [b, a, d, pct] = numbers(&host.total);
        let band = host.band.map(|band| format!(" ({band})")).unwrap_or_default();
        if md {
            out.push_str(&format!("| {} | **total**{band} | | | {b} | {a} | {d} | {pct} |\n", markdown_text(&host.name)));
            for p in &shown {
                let [b, a, d, pct] = numbers(&p.tokens);
                let file = if p.file.is_empty() { String::new() } else { markdown_code(&p.file) };
                out.push_str(&format!(
                    "| {} | {} | {file} | {} | {b} | {a} | {d} | {pct} |\n",
                    markdown_text(&host.name),
                    markdown_text(&p.section),
                    markdown_text(&p.label)
                ));
            }
            continue;
        }
        let state = if host.changed() { "" } else { ", unchanged" };
        out.push_str(&format!(
            "{} ({}): {b} → {a} tokens{band} ({d}{}){state}\n",
            Untrusted(&host.name),
            Untrusted(&host.model),
            pct_suffix(&pct)
        ));
        let width =
            |cell: fn(&HostPartChange) -> &str| shown.iter().map(|p| Untrusted(cell(p)).to_string().chars().count()).max().unwrap_or(0);
        let (ws, wf, wl) = (width(|p| &p.section), width(|p| &p.file), width(|p| &p.label));
        for p in shown {
            let [b, a, d, pct] = numbers(&p.tokens);
            let (section, file, label) =
                (Untrusted(&p.section).to_string(), Untrusted(&p.file).to_string(), Untrusted(&p.label).to_string());
            let line = format!("  {section:<ws$}  {file:<wf$}  {label:<wl$}  {b:>9}  {a:>9}  {d:>8}  {pct}");
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

fn pct_suffix(pct: &str) -> String {
    match pct.is_empty() {
        true => String::new(),
        false => format!(", {pct}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_lists_a_bounded_number_of_baseline_entries_added_first() {
        let entry = |n: usize| Recorded { code: "SKILL004".into(), file: Some(format!("s{n}/SKILL.md")), message: "m".into() };
        let changes = Changes { added: (0..150).map(entry).collect(), removed: vec![entry(999)] };
        let markdown = baseline_markdown("b.json", &changes);
        assert!(markdown.contains("**This change adds 150 findings to the baseline**"), "{markdown}");
        assert_eq!(markdown.matches("| added |").count(), MARKDOWN_BASELINE_ROWS);
        assert!(markdown.contains("*(51 more entries left out"), "{markdown}");
        assert_eq!(baseline_markdown("b.json", &Changes::default()), "");
    }

    #[test]
    fn a_baseline_message_is_clipped_in_every_report() {
        let long = Recorded { code: "SKILL004".into(), file: Some("s/SKILL.md".into()), message: "é".repeat(70_000) };
        let changes = Changes { added: vec![long], removed: vec![] };
        for report in [baseline_markdown("b.json", &changes), baseline_text("b.json", &changes)] {
            assert!(report.len() < 1_000, "{} bytes", report.len());
            assert!(report.contains(&format!("{}…", "é".repeat(BASELINE_MESSAGE_CHARS))));
        }
    }

    #[test]
    fn signs_and_fences() {
        assert_eq!(signed(1234, true), "+1,234");
        assert_eq!(signed(-17, true), "-17");
        assert_eq!(signed(5, false), "~+5");
        assert_eq!(signed(0, true), "0");
        assert_eq!(fence("a ``` b"), "````");
        assert_eq!(fence("plain"), "```");
    }
}
