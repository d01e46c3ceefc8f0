//! Token figures where the prompt is written: hovers on a manifest's steps, modules, modes, tool
//! categories and file references (or anywhere in a prompt file) with the tokens in every mode
//! and scenario that uses them, their share of the window and their budget; inlay hints with each
//! step's tokens and each mode's whole prompt; and the files a reference leads to. The figures
//! are `ctxc cost`'s: the measured sections and tools and `checks::budgets::evaluate`.

use std::path::{Path, PathBuf};

use super::position::{word_at, Lines, Position};
use super::{canonical, AgentCosts, Workspace};
use crate::checks::budgets::{Band, BudgetKind, Status};
use crate::diagnostic::grouped;
use crate::measure::Count;
use crate::report::cost::Costed;
use crate::report::escape::markdown_code;

/// Agents listed in one hover at most; the rest are summed up in a line.
const MOST_AGENTS_SHOWN: usize = 12;

/// A label shown at a place in a document.
#[derive(Debug, Clone, PartialEq)]
pub struct InlayHint {
    pub position: Position,
    pub label: String,
}

/// What a hover or a hint is about, in one agent.
#[derive(Debug, Clone, PartialEq)]
enum Target {
    Step(String),
    Module(String),
    Mode(String),
    Category(String),
    /// A file or folder, relative to the manifest's folder (`/` separators).
    File(String),
}

/// One mode × scenario's figure for a target.
struct Row<'a> {
    costed: &'a Costed,
    tokens: i64,
    /// Whether `tokens` is exact, as `ctxc cost` marks the same figure (`~` when not).
    exact: bool,
    /// Tools counted, for tool files and categories.
    tools: Option<usize>,
    budget: Option<(u64, Status)>,
}

/// `to` (canonical) written relative to the folder `from` (canonical), with `..` steps when above.
fn relative(from: &Path, to: &Path) -> String {
    let common = from.components().zip(to.components()).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_string(); from.components().count() - common];
    parts.extend(to.components().skip(common).map(|c| c.as_os_str().to_string_lossy().into_owned()));
    parts.join("/")
}

impl Target {
    /// What the token under the cursor of a manifest names.
    fn in_manifest(word: &str, costs: &AgentCosts) -> Option<Target> {
        let agent = &costs.loaded.agent;
        let name = word.rsplit('.').next().filter(|_| ["modules.", "modes.", "tools."].iter().any(|p| word.starts_with(p)));
        let name = name.unwrap_or(word);
        if agent.steps.iter().any(|s| s.id == name) {
            Some(Target::Step(name.to_string()))
        } else if agent.modules.contains_key(name) {
            Some(Target::Module(name.to_string()))
        } else if agent.modes.contains_key(name) {
            Some(Target::Mode(name.to_string()))
        } else if agent.categories.iter().any(|c| c.name == name) {
            Some(Target::Category(name.to_string()))
        } else {
            costs.loaded.root.normalize(word).ok().filter(|rel| !rel.is_empty()).map(Target::File)
        }
    }

    fn title(&self) -> String {
        match self {
            Target::Step(id) => format!("step {}", markdown_code(id)),
            Target::Module(name) => format!("module {}", markdown_code(name)),
            Target::Mode(name) => format!("{} mode", markdown_code(name)),
            Target::Category(name) => format!("tool category {}", markdown_code(name)),
            Target::File(rel) => markdown_code(rel),
        }
    }

    /// Its figure in one mode × scenario, if it takes part there.
    fn row<'a>(&self, costs: &AgentCosts, costed: &'a Costed) -> Option<Row<'a>> {
        let agent = &costs.loaded.agent;
        let m = &costed.measured;
        let steps: Vec<&str> = match self {
            Target::Step(id) => vec![id.as_str()],
            Target::Module(name) => agent.steps.iter().filter(|s| s.module.as_deref() == Some(name)).map(|s| s.id.as_str()).collect(),
            Target::Mode(name) if *name == m.mode => {
                let total = m.request.total;
                return Some(Row {
                    costed,
                    tokens: total.tokens,
                    exact: total.exact,
                    tools: Some(m.tool_schemas.tools.len()),
                    budget: None,
                });
            }
            Target::Category(name) => {
                let group = m.tool_schemas.categories.iter().find(|g| g.name == *name)?;
                return Some(Row {
                    costed,
                    tokens: group.tokens.tokens,
                    exact: group.tokens.exact,
                    tools: Some(group.tools),
                    budget: None,
                });
            }
            Target::File(rel) => {
                let within = |source: &str| source == rel || source.strip_prefix(rel.as_str()).is_some_and(|rest| rest.starts_with('/'));
                let tools: Vec<i64> = m
                    .tool_schemas
                    .tools
                    .iter()
                    .filter(|t| {
                        agent
                            .categories
                            .iter()
                            .any(|c| c.name == t.category && c.tools.iter().any(|ct| ct.tool.name == t.name && within(&ct.source)))
                    })
                    .map(|t| t.tokens.tokens)
                    .collect();
                if !tools.is_empty() {
                    let exact = m.tool_schemas.exact;
                    return Some(Row { costed, tokens: tools.iter().sum(), exact, tools: Some(tools.len()), budget: None });
                }
                m.sections.iter().filter(|s| s.sources.iter().any(|p| within(p))).map(|s| s.id.as_str()).collect()
            }
            Target::Mode(_) => return None,
        };
        let sections: Vec<_> = m.sections.iter().filter(|s| steps.contains(&s.id.as_str())).collect();
        if sections.is_empty() {
            return None;
        }
        let budget = costed
            .budgets
            .iter()
            .find(|b| b.kind == BudgetKind::Step && b.id.as_deref().is_some_and(|id| steps.contains(&id)))
            .map(|b| (b.limit, b.status));
        let exact = sections.iter().all(|s| s.tokens.exact);
        Some(Row { costed, tokens: sections.iter().map(|s| s.tokens.tokens).sum(), exact, tools: None, budget })
    }
}

fn tokens_text(tokens: i64, exact: bool) -> String {
    format!("{}{}", if exact { "" } else { "~" }, grouped(tokens))
}

/// A figure in a hint: its `~` and, for an estimate with a band, the band's width.
fn hint_text(c: &Costed, count: Count) -> String {
    match Band::of(c.measured.model.estimate_calibration(), count) {
        Some(band) => format!("{} ±{} %", tokens_text(count.tokens, count.exact), band.percent),
        None => tokens_text(count.tokens, count.exact),
    }
}

fn table(agent_rows: &[(String, Vec<Row>)]) -> String {
    let mut out = String::from("| agent | mode | scenario | tokens | share of window | budget |\n|---|---|---|--:|--:|---|\n");
    for (agent, rows) in agent_rows.iter().take(MOST_AGENTS_SHOWN) {
        for row in rows {
            let m = &row.costed.measured;
            let share = row.tokens as f64 / m.window.max_input_tokens.max(1) as f64 * 100.0;
            let mut tokens = tokens_text(row.tokens, row.exact);
            if let Some(n) = row.tools {
                tokens.push_str(&format!(" ({n} tools)"));
            }
            // An estimate's band, as the cost report shows it.
            if let Some(band) = crate::report::cost::band(m, Count { tokens: row.tokens, tokenizer: m.tokenizer, exact: row.exact }) {
                tokens.push_str(&format!(" ({band})"));
            }
            let budget = match row.budget {
                Some((limit, status)) => format!("{} ({})", grouped(limit), status.word()),
                None => "–".to_string(),
            };
            out.push_str(&format!(
                "| {} | {} | {} | {tokens} | {share:.1} % | {budget} |\n",
                markdown_code(agent),
                markdown_code(&m.mode),
                markdown_code(&m.scenario)
            ));
        }
    }
    if agent_rows.len() > MOST_AGENTS_SHOWN {
        let all: Vec<i64> = agent_rows.iter().flat_map(|(_, rows)| rows.iter().map(|r| r.tokens)).collect();
        let (low, high) = (all.iter().min().copied().unwrap_or(0), all.iter().max().copied().unwrap_or(0));
        out.push_str(&format!(
            "\n… and {} more agents; across all: {} to {} tokens\n",
            agent_rows.len() - MOST_AGENTS_SHOWN,
            grouped(low),
            grouped(high)
        ));
    }
    out
}

impl Workspace {
    /// Markdown for a hover at `position` in `path`: in a manifest, on what the token there
    /// names; in any other file, on the file, in every agent that reads it.
    pub fn hover(&mut self, path: &Path, position: Position) -> Option<String> {
        let path = canonical(path);
        let text = self.text(&path)?;
        let (title, targets) = if self.agents().any(|a| a == path) {
            let costs = self.costs(&path)?;
            let (word, _) = word_at(&text, Lines::new(&text).offset(position))?;
            let target = Target::in_manifest(word, &costs)?;
            (target.title(), vec![(costs, target)])
        } else {
            let targets: Vec<_> = self
                .agents_reading(&path)
                .iter()
                .filter_map(|manifest| {
                    let costs = self.costs(manifest)?;
                    let target = Target::File(relative(costs.loaded.root.canonical(), &path));
                    Some((costs, target))
                })
                .collect();
            (markdown_code(&relative(&self.root, &path)), targets)
        };
        let rows: Vec<(String, Vec<Row>)> = targets
            .iter()
            .map(|(costs, target)| (costs.loaded.agent.name.clone(), costs.costed.iter().filter_map(|c| target.row(costs, c)).collect()))
            .filter(|(_, rows): &(String, Vec<Row>)| !rows.is_empty())
            .collect();
        let agents = if rows.len() == 1 { format!("agent {}", markdown_code(&rows[0].0)) } else { format!("{} agents", rows.len()) };
        (!rows.is_empty()).then(|| format!("**{title}** in {agents}\n\n{}", table(&rows)))
    }

    /// A manifest's inlay hints: the whole request's tokens per mode (in the first scenario) at
    /// the top, and each step's tokens per mode where the step's id is written.
    pub fn inlay_hints(&mut self, path: &Path) -> Vec<InlayHint> {
        let path = canonical(path);
        let (Some(text), Some(costs)) = (self.text(&path), self.costs(&path)) else { return Vec::new() };
        let agent = &costs.loaded.agent;
        let Some(scenario) = agent.scenarios.keys().next() else { return Vec::new() };
        let runs: Vec<&Costed> = costs.costed.iter().filter(|c| c.measured.scenario == *scenario).collect();
        let lines = Lines::new(&text);
        let per_mode = |figure: &dyn Fn(&Costed) -> Option<Count>| {
            runs.iter()
                .map(|c| format!("{} {}", c.measured.mode, figure(c).map_or("–".to_string(), |n| hint_text(c, n))))
                .collect::<Vec<_>>()
                .join(" · ")
        };
        let mut hints = vec![InlayHint {
            position: Position::default(),
            label: format!("tokens ({scenario}): {} ", per_mode(&|c| Some(c.measured.request.total))),
        }];
        for step in &agent.steps {
            let Some(at) = id_place(&text, &step.id) else { continue };
            let tokens = |c: &Costed| c.measured.sections.iter().find(|s| s.id == step.id).map(|s| s.tokens);
            if runs.iter().all(|c| tokens(c).is_none()) {
                continue;
            }
            let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
            hints.push(InlayHint { position: lines.position(line_end), label: format!("  {}", per_mode(&tokens)) });
        }
        hints
    }

    /// Where a reference in a manifest leads: a module's files, a referenced file, or the
    /// SKILL.md files of a folder; never outside the workspace.
    pub fn definition(&mut self, path: &Path, position: Position) -> Vec<PathBuf> {
        let path = canonical(path);
        let (Some(text), Some(costs)) = (self.text(&path), self.costs(&path)) else { return Vec::new() };
        let Some((word, _)) = word_at(&text, Lines::new(&text).offset(position)) else { return Vec::new() };
        let agent = &costs.loaded.agent;
        let root = &costs.loaded.root;
        let module = Target::in_manifest(word, &costs).and_then(|t| match t {
            Target::Module(name) => Some(name),
            Target::Step(id) => agent.steps.iter().find(|s| s.id == id).and_then(|s| s.module.clone()),
            _ => None,
        });
        let rels: Vec<String> = match module.and_then(|m| agent.modules.get(&m)) {
            Some(crate::manifest::model::ModuleFiles::Single(file)) => vec![file.path.clone()],
            Some(crate::manifest::model::ModuleFiles::Variants(files)) => files.values().map(|f| f.path.clone()).collect(),
            None => match root.normalize(word).and_then(|rel| root.resolve(&rel).map(|abs| (rel, abs))) {
                Ok((rel, abs)) if abs.is_dir() => {
                    root.find_files(&rel, crate::agent_files::SKILL_FILE).unwrap_or_default().into_iter().flatten().collect()
                }
                Ok((rel, _)) => vec![rel],
                Err(_) => Vec::new(),
            },
        };
        rels.iter().filter_map(|rel| root.resolve(rel).ok()).filter(|abs| abs.is_file() && abs.starts_with(&self.root)).collect()
    }
}

/// Where a step's id is written in a manifest (TOML `id = "x"`, YAML `id: x`).
fn id_place(text: &str, id: &str) -> Option<usize> {
    let patterns = [format!("id = \"{id}\""), format!("id=\"{id}\""), format!("id: {id}"), format!("id: \"{id}\"")];
    patterns.iter().filter_map(|p| text.find(p.as_str())).min()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::Options;

    /// A gpt-4o agent with one tool: its prompt is counted exactly (o200k_base), its tools and so
    /// its request total are estimates (OpenAI does not publish how its API renders tools).
    fn agent_with_a_tool(dir: &Path) {
        let manifest = "[agent]\nname = \"a\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [{ id = \"core\", kind = \"module\" }]\n\n[modules]\ncore = { source = \"core.md\" }\n\n[tools.files]\nfiles = [\"tools.json\"]\n";
        let tools = r#"[{"type": "function", "function": {"name": "lookup", "description": "Look a word up.", "parameters": {"type": "object", "properties": {"word": {"type": "string"}}}}}]"#;
        std::fs::write(dir.join("ctxc.toml"), manifest).expect("write");
        std::fs::write(dir.join("core.md"), "You are careful.\n").expect("write");
        std::fs::write(dir.join("tools.json"), tools).expect("write");
    }

    #[test]
    fn hovers_and_hints_carry_a_tilde_exactly_where_cost_does() {
        let dir = tempfile::tempdir().expect("tempdir");
        agent_with_a_tool(dir.path());
        let mut workspace = Workspace::new(dir.path(), Options::default(), Vec::new());
        workspace.refresh_all();
        let manifest = dir.path().join("ctxc.toml");
        let hints = workspace.inlay_hints(&manifest);
        assert!(hints[0].label.starts_with("tokens (default): default ~"), "the request total is an estimate: {:?}", hints[0].label);
        assert!(hints.iter().skip(1).all(|h| !h.label.contains('~')), "the prompt's sections are exact: {hints:?}");
        let hover = workspace.hover(&dir.path().join("core.md"), Position::default()).expect("a hover on a prompt file");
        assert!(hover.contains("| `a` | `default` | `default` | 4 |"), "an exact section: {hover}");
        let tools = workspace.hover(&dir.path().join("tools.json"), Position::default()).expect("a hover on a tool file");
        assert!(tools.contains(" | ~"), "estimated tools: {tools}");
        // gpt-4o's estimates are not calibrated: no band to show.
        assert!(!tools.contains('±') && !hints[0].label.contains('±'), "{tools}");
    }

    /// A Claude agent's figures are calibrated estimates: the hover and the hints show their band
    /// as `ctxc cost` does.
    #[test]
    fn estimates_carry_their_band_in_hovers_and_hints() {
        let dir = tempfile::tempdir().expect("tempdir");
        agent_with_a_tool(dir.path());
        let manifest = std::fs::read_to_string(dir.path().join("ctxc.toml")).expect("read");
        std::fs::write(dir.path().join("ctxc.toml"), manifest.replace("gpt-4o", "claude-sonnet-4-5")).expect("write");
        let mut workspace = Workspace::new(dir.path(), Options::default(), Vec::new());
        workspace.refresh_all();
        let hover = workspace.hover(&dir.path().join("core.md"), Position::default()).expect("a hover on a prompt file");
        let row = hover.lines().find(|l| l.starts_with("| `a` |")).expect("the agent's row");
        assert!(row.contains(" | ~") && row.contains("(±10 %: "), "{hover}");
        let hints = workspace.inlay_hints(&dir.path().join("ctxc.toml"));
        assert!(hints.iter().all(|h| h.label.contains("±10 %")), "{hints:?}");
    }
}
