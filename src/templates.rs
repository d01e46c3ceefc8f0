//! The template layer: the one minijinja environment every user template and enable condition
//! runs in, and its limits — an instruction budget (fuel), a memory budget for everything a
//! template makes (output, captures, concatenation, literals, filter results; a ctxc patch of
//! minijinja, see `vendor/minijinja/PATCHES.md`) and a cap on the output. Errors are located
//! TPL diagnostics, never a crash or a runaway. Templates are written for Python's Jinja2: its
//! string, list and dict methods work (minijinja-contrib's `pycompat`), include and import names
//! resolve from a template root as Jinja2's `FileSystemLoader` does, and an error inside an
//! included file is reported at that file's line with the include chain.

use std::collections::{BTreeSet, HashSet};
use std::ops::Range;
use std::sync::Arc;

use minijinja::budget::{Limits, Spent};
use minijinja::machinery::{tokenize, Token, WhitespaceConfig};
use minijinja::value::{Value, ValueKind};
use serde::Serialize;

use crate::codes::Code;
use crate::diagnostic::{Diagnostic, Related};
use crate::project::{ProjectRoot, ReadError, SourceFile};
/// Instruction budget for one template render: generous for real prompts, finite for loops.
pub const TEMPLATE_FUEL: u64 = 200_000;
/// Largest text one template may produce (1 MiB).
pub const MAX_TEMPLATE_OUTPUT: usize = 1024 * 1024;
/// Bytes one template render (or condition) may allocate in text and lists, counted as they are
/// made: output and captures, `~` / `+` / `*`, literals, slices and every filter's result. Fuel
/// alone bounds instructions, and one instruction can double a string.
pub const TEMPLATE_MEMORY: usize = 16 * 1024 * 1024;
/// Work one template render (or condition) may do besides its instructions: a unit per byte a
/// call, a substring test, a comparison or a hash reads, and per value an iteration yields.
/// Fuel alone counts `s in t` on a 14 MB `t` as one instruction.
pub const TEMPLATE_WORK: u64 = 64 * 1024 * 1024;

/// The environment every user template and enable condition runs in: strict undefined
/// variables, no escaping, trailing newlines kept, Python's methods, and the instruction limit.
/// Jinja2 renders the same with `Environment(undefined=StrictUndefined, autoescape=False,
/// keep_trailing_newline=True)` (its `trim_blocks` and `lstrip_blocks` stay off in both). Run it
/// only through [`within_limits`].
pub fn environment() -> minijinja::Environment<'static> {
    let mut env = minijinja::Environment::new();
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
    env.set_keep_trailing_newline(true);
    env.set_fuel(Some(TEMPLATE_FUEL));
    env.set_unknown_method_callback(python_method);
    env.add_filter("escape", escape);
    env.add_filter("e", escape);
    // Jinja2 has no `debug()`; minijinja's prints the environment, whose loaded templates depend on
    // which templates rendered before (a render's output must depend on its inputs alone: renders
    // are memoized, `render::render_template`).
    env.remove_global("debug");
    env
}

/// The characters MarkupSafe escapes, and how.
const MARKUPSAFE: [(char, &str); 5] = [('&', "&amp;"), ('<', "&lt;"), ('>', "&gt;"), ('"', "&#34;"), ('\'', "&#39;")];

/// Jinja2's `|escape` (MarkupSafe): `&`, `<`, `>`, `"` and `'` only, quotes as numeric entities.
fn escape(value: &Value) -> Result<Value, minijinja::Error> {
    if value.is_safe() {
        return Ok(value.clone());
    }
    let text = value.to_string();
    minijinja::budget::charge_many(text.len(), 5)?;
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match MARKUPSAFE.iter().find(|(from, _)| *from == c) {
            Some((_, entity)) => out.push_str(entity),
            None => out.push(c),
        }
    }
    Ok(Value::from_safe_string(out))
}

/// Python's `str`, `list` and `dict` methods (minijinja-contrib's `pycompat`), with the arguments
/// pycompat does not survive handled here first: `count('')` (pycompat loops forever), `strip`
/// with many characters (pycompat tests each character against each), and the methods whose
/// result can outgrow their input many times over (`replace`, `join`, `splitlines`) charged to
/// the memory budget before they are made. A method neither has is named with the Jinja2 way to
/// write it. (Every call is also charged the work of reading its strings, by minijinja.)
pub(crate) fn python_method(state: &minijinja::State, value: &Value, method: &str, args: &[Value]) -> Result<Value, minijinja::Error> {
    if let Some(s) = value.as_str() {
        match (method, args) {
            // Python counts the empty string between every two characters and at both ends.
            ("count", [needle]) if needle.as_str() == Some("") => return Ok(Value::from(s.chars().count() + 1)),
            ("strip" | "lstrip" | "rstrip", [chars]) if chars.as_str().is_some() => {
                let mut set: Vec<char> = chars.as_str().unwrap_or_default().chars().collect();
                set.sort_unstable();
                set.dedup();
                let listed = |c: char| set.binary_search(&c).is_ok();
                let stripped = match method {
                    "strip" => s.trim_matches(listed),
                    "lstrip" => s.trim_start_matches(listed),
                    _ => s.trim_end_matches(listed),
                };
                return Ok(Value::from(stripped));
            }
            ("startswith" | "endswith", [affixes]) if affixes.as_str().is_none() => {
                // Each string of a tuple is compared in turn.
                let work = affixes
                    .try_iter()
                    .into_iter()
                    .flatten()
                    .fold(0, |work: usize, affix| work.saturating_add(minijinja::budget::call_work([&affix])));
                minijinja::budget::charge_work(work)?;
            }
            ("splitlines", _) => minijinja::budget::charge_many(s.matches('\n').count() + 1, minijinja::budget::NODE_BYTES)?,
            ("replace", [old, new, rest @ ..]) => {
                let (old, new) = (old.as_str().unwrap_or_default(), new.as_str().unwrap_or_default());
                let found = if old.is_empty() { s.chars().count() + 1 } else { s.matches(old).count() };
                let limit = rest.first().and_then(|c| i64::try_from(c.clone()).ok()).filter(|c| *c >= 0);
                let found = limit.map_or(found, |c| found.min(c as usize));
                minijinja::budget::charge_many(found, new.len())?;
            }
            ("join", [items]) => {
                let count = items.len().unwrap_or(0);
                minijinja::budget::charge_many(count.saturating_sub(1), s.len())?;
                minijinja::budget::charge_value(items)?;
            }
            _ => {}
        }
    }
    minijinja_contrib::pycompat::unknown_method_callback(state, value, method, args).map_err(|e| match e.kind() {
        minijinja::ErrorKind::UnknownMethod => unknown_method(value, method),
        _ => e,
    })
}

/// "map has no method named update", with what Jinja2 templates write instead.
fn unknown_method(value: &Value, method: &str) -> minijinja::Error {
    let kind = match value.kind() {
        ValueKind::Map => "a dict (map)",
        ValueKind::Seq => "a list",
        ValueKind::String => "a string",
        ValueKind::Undefined | ValueKind::None => "none",
        _ => "this value",
    };
    let hint = match method {
        "append" | "extend" | "insert" | "pop" | "remove" | "update" | "setdefault" | "clear" | "sort" | "reverse" => {
            format!("values cannot be changed in place here, unlike in Python: build a new one (`list + [x]`, `dict(d, key=x)`) or use the `|{}` filter", if method == "reverse" || method == "sort" { method } else { "list" })
        }
        "center" | "ljust" | "rjust" | "zfill" => "use the `|format` filter with a width (`\"%-10s\"|format(x)`) or `|center`".to_string(),
        "lower" | "upper" | "title" | "capitalize" | "items" | "join" | "split" | "replace" | "length" | "first" | "last" => {
            format!("Jinja2's `|{method}` filter does the same: write `x|{method}`")
        }
        "strip" => "Jinja2's `|trim` filter does the same".to_string(),
        _ => format!("ctxc supports Python's str, list and dict methods that Jinja2 templates use most (`.items()`, `.get()`, `.upper()`, `.split()`, `.strip()`, `.format()`…), not `.{method}()`; write it with a filter"),
    };
    minijinja::Error::new(
        minijinja::ErrorKind::UnknownMethod,
        format!("{kind} has no method `.{method}()` in ctxc's templates (Python's Jinja2 has it): {hint}"),
    )
}

/// Runs `f` (compiling or evaluating templates of [`environment`]) with [`TEMPLATE_MEMORY`] and
/// [`TEMPLATE_WORK`] to spend; returns its result and which of them ran out, if one did.
pub fn within_limits<R>(f: impl FnOnce() -> R) -> (R, Option<Spent>) {
    minijinja::budget::with_budget(Limits { memory: TEMPLATE_MEMORY, work: TEMPLATE_WORK }, f)
}

/// Renders one template with ctxc's environment and limits, as prompt files are rendered (without
/// includes, which need a project). For tools that drive the template layer directly (fuzzing).
pub fn render_template_str<S: Serialize>(name: &str, source: &str, context: S) -> Result<String, Diagnostic> {
    let env = environment();
    render_bounded(&env, name, source, minijinja::Value::from_serialize(context), &|path| path.to_string())
}

/// Where include and import names of a template resolve: a folder relative to the manifest's
/// directory (`""` for that directory itself), as Jinja2's `FileSystemLoader(root)` does.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct TemplateRoot(pub String);

impl TemplateRoot {
    /// The reference (relative to the manifest's directory) of the template named `name`.
    pub fn reference(&self, name: &str) -> String {
        match self.0.as_str() {
            "" | "." => name.to_string(),
            root => format!("{}/{name}", root.trim_end_matches('/')),
        }
    }

    /// The name Jinja2's loader knows the file `path` (relative to the manifest's directory) by:
    /// its path from the root, climbing with `..` when it lies outside.
    pub fn name_of(&self, path: &str) -> String {
        let root: Vec<&str> = self.0.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
        let file: Vec<&str> = path.split('/').collect();
        let common = root.iter().zip(&file).take_while(|(a, b)| a == b).count();
        let mut name = vec![".."; root.len() - common];
        name.extend(&file[common..]);
        name.join("/")
    }

    /// The display path of the template named `name`.
    pub fn display(&self, root: &ProjectRoot, name: &str) -> String {
        let reference = self.reference(name);
        root.display_path(&root.normalize(&reference).unwrap_or(reference))
    }

    /// Reads the template named `name` through the project root (so it cannot leave it).
    pub fn read(&self, root: &ProjectRoot, name: &str) -> Result<SourceFile, ReadError> {
        root.read(&self.reference(name))
    }
}

/// What a template loader found for one name: with the template's own text and its variables,
/// what each name it loaded found decides a render's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// A file, by its content hash.
    Text(u128),
    Missing,
    /// A file the project root refuses to read (outside it, too large, not UTF-8…).
    Refused,
}

impl Found {
    /// What the template named `name` is now, read as the loader of [`project_environment`] reads it.
    pub fn now(root: &ProjectRoot, template_root: &TemplateRoot, name: &str) -> Found {
        Found::of(&template_root.read(root, name))
    }

    fn of(read: &Result<SourceFile, ReadError>) -> Found {
        match read {
            Ok(file) => Found::Text(file.text.hash()),
            Err(ReadError::Missing(_)) => Found::Missing,
            Err(_) => Found::Refused,
        }
    }
}

/// Every name an environment's loader was asked for, once each, with what it found. minijinja
/// keeps only the files it found, so a loop including a missing file asks for it at every turn.
pub type Loads = Arc<std::sync::Mutex<std::collections::HashMap<String, Found>>>;

/// [`environment`] with includes and imports read through the project root, from `template_root`,
/// and the names its loader is asked for from now on.
pub fn project_environment(root: &ProjectRoot, template_root: &TemplateRoot) -> (minijinja::Environment<'static>, Loads) {
    let mut env = environment();
    let (root, template_root) = (root.clone(), template_root.clone());
    let loads = Loads::default();
    let log = Arc::clone(&loads);
    // Includes and imports resolve through the project root, so they cannot leave it.
    // One name per file: `a.j2`, `./a.j2` and `x/../a.j2` are loaded and compiled once, so a
    // template cannot make minijinja compile one large file under thousands of names.
    env.set_path_join_callback(|name, _| canonical(name));
    env.set_loader(move |name| {
        let read = template_root.read(&root, name);
        log.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(name.to_string(), Found::of(&read));
        match read {
            Ok(file) => Ok(Some(file.text.to_string())),
            // minijinja words every "not found" its own way; other refusals keep their reason.
            Err(ReadError::Missing(_)) => Ok(None),
            Err(e) => Err(minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, e.message())),
        }
    });
    (env, loads)
}

/// A template name with `.` and empty parts dropped and `..` applied where it can be, as
/// Jinja2's loader reads names; absolute names stay as written (the project root refuses them).
fn canonical(name: &str) -> std::borrow::Cow<'_, str> {
    if name.starts_with('/') || !name.split('/').any(|part| matches!(part, "" | "." | "..")) {
        return name.into();
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in name.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    parts.join("/").into()
}

/// Renders `source` (named `name`) within the limits; `display` turns a template name into the
/// path diagnostics show.
pub fn render_bounded(
    env: &minijinja::Environment<'static>,
    name: &str,
    source: &str,
    context: minijinja::Value,
    display: &dyn Fn(&str) -> String,
) -> Result<String, Diagnostic> {
    let (result, spent) = within_limits(|| env.render_named_str(name, source, context));
    match (result, spent) {
        (Ok(text), None) if text.len() > MAX_TEMPLATE_OUTPUT => {
            Err(Diagnostic::error(format!("template output is {} bytes, over the {MAX_TEMPLATE_OUTPUT}-byte limit", text.len()))
                .code(Code::TPL004)
                .in_file(display(name)))
        }
        (Ok(text), None) => Ok(text),
        // A spent budget fails the render even where the template caught the error.
        (Ok(_), Some(spent)) => Err(over_budget(spent).in_file(display(name))),
        (Err(e), spent) => Err(template_error(name, source, &e, spent, display)),
    }
}

/// The TPL004 of a render that ran out of memory or work.
pub fn over_budget(spent: Spent) -> Diagnostic {
    match spent {
        Spent::Memory => {
            let mib = TEMPLATE_MEMORY / (1024 * 1024);
            Diagnostic::error(format!("template error: the template uses more than its {mib} MiB of memory")).code(Code::TPL004).help(
                format!(
                    "a template may make at most {mib} MiB of text and lists (output, captures, concatenation, filter results); \
                     look for a string or list that grows in a loop, or a large width or count"
                ),
            )
        }
        Spent::Work => {
            let mib = TEMPLATE_WORK / (1024 * 1024);
            Diagnostic::error(format!("template error: the template reads more than its {mib} MiB of text and values"))
                .code(Code::TPL004)
                .help(format!(
                    "besides its {TEMPLATE_FUEL} instructions, a template may scan, compare or hash at most {mib} MiB of text and \
                     step over at most that many values (substring tests, filters and methods on long strings, lookups in long lists); \
                     look for a test on a long string inside a loop"
                ))
        }
    }
}

/// Where a minijinja error points: its template's name and the byte range in that template,
/// a valid one (see [`valid_span`]). Every template error becomes a diagnostic through here.
fn place(e: &minijinja::Error, name: &str, source: &str) -> (String, Option<Range<usize>>) {
    let path = e.name().unwrap_or(name).to_string();
    let text = e.template_source().or((path == name).then_some(source));
    let span = e.range().map(|span| valid_span(span, text)).or_else(|| {
        e.line().zip(text).map(|(line, text)| {
            let start = crate::diagnostic::offset_of(text, line, 1);
            start..start
        })
    });
    (path, span)
}

/// `span` in order (minijinja reports some errors at the end of a block as `7..6`, which an
/// editor refuses as a range) and, when the text is known, inside it on character boundaries.
fn valid_span(span: Range<usize>, text: Option<&str>) -> Range<usize> {
    let (start, end) = (span.start.min(span.end), span.start.max(span.end));
    let Some(text) = text else { return start..end };
    let floor = |offset: usize| (0..=offset.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    floor(start)..floor(end)
}

/// The located diagnostic of an error compiling or rendering `source` (named `name`) outside a
/// project: its span is in `source`.
pub fn render_error(name: &str, source: &str, e: &minijinja::Error) -> Diagnostic {
    template_error(name, source, e, None, &|path| path.to_string())
}

fn template_error(name: &str, source: &str, e: &minijinja::Error, spent: Option<Spent>, display: &dyn Fn(&str) -> String) -> Diagnostic {
    // An error inside an included template comes wrapped in one "error in ..." per include: the
    // innermost is the real place, the others are the include chain.
    let mut chain = vec![e];
    while let Some(inner) = chain.last().and_then(|e| std::error::Error::source(*e)).and_then(|s| s.downcast_ref::<minijinja::Error>()) {
        chain.push(inner);
    }
    let (real, outer) = (chain[chain.len() - 1], &chain[..chain.len() - 1]);
    let related: Vec<Related> = outer
        .iter()
        .rev()
        .map(|e| {
            let (path, span) = place(e, name, source);
            let message = if e.kind() == minijinja::ErrorKind::BadInclude { "included from" } else { "called from" };
            Related { file: display(&path), span, message: message.to_string() }
        })
        .collect();
    let e = real;
    let (path, span) = place(e, name, source);
    if let Some(spent) = spent {
        return over_budget(spent).in_file(display(&path)).at(span).related(related);
    }
    let code = match e.kind() {
        minijinja::ErrorKind::UndefinedError => Code::TPL002,
        minijinja::ErrorKind::OutOfFuel => Code::TPL004,
        _ => Code::TPL001,
    };
    let detail = e.detail().map(|d| format!(": {d}")).unwrap_or_default();
    // minijinja does not name the undefined variable; the expression it points at does.
    let expression = span.clone().zip(e.template_source().or((path == name).then_some(source))).and_then(|(span, text)| text.get(span));
    let message = match (e.kind(), expression) {
        (minijinja::ErrorKind::UndefinedError, Some(expr)) => format!("template error: `{expr}` is undefined{detail}"),
        _ => format!("template error: {}{detail}", e.kind()),
    };
    let mut d = Diagnostic::error(message).code(code).in_file(display(&path)).at(span).related(related);
    match e.kind() {
        minijinja::ErrorKind::UndefinedError => d = d.help(UNDEFINED_HELP),
        minijinja::ErrorKind::OutOfFuel => {
            d = d.help(format!("a template may run at most {TEMPLATE_FUEL} instructions; look for a runaway loop"))
        }
        minijinja::ErrorKind::TemplateNotFound => {
            d = d.help(
                "include and import names resolve from the template root, as with Jinja2's FileSystemLoader: the manifest's \
                 directory, or the folder `[templates] root` (or the module's `root`) names",
            )
        }
        _ => {}
    }
    d
}

const UNDEFINED_HELP: &str = "templates can use agent.name, agent.description, agent.model, mode, scenario, flags, tools, \
     tools_description, vars.NAME and the scenario's `vars` (`[scenarios.NAME] vars = { … }` gives runtime variables sample values)";

/// A variable a template (or a template it includes) reads and its context does not provide.
#[derive(Debug, Clone, PartialEq)]
pub struct Unprovided {
    pub name: String,
    /// The display path of the file that reads it, and where.
    pub file: String,
    pub span: Range<usize>,
    /// The includes that led there, outermost first.
    pub chain: Vec<Related>,
}

/// What a static pass over a template and the templates it includes found.
#[derive(Debug, Default)]
pub struct Scan {
    /// Every included or imported file read (named by a string literal), for snippets.
    pub files: Vec<SourceFile>,
    /// Variables read that the context does not provide, in the order met.
    pub unprovided: Vec<Unprovided>,
}

/// The variables ctxc gives every template.
pub const CONTEXT: [&str; 7] = ["agent", "mode", "scenario", "flags", "tools", "tools_description", "vars"];

/// Names every template can use besides its context: minijinja's global functions.
const GLOBALS: [&str; 3] = ["range", "dict", "namespace"];

/// A template's tokens as far as it tokenizes, each with its span.
fn tokens_of(text: &str) -> Vec<(Token<'_>, minijinja::machinery::Span)> {
    tokenize(text, false, Default::default(), WhitespaceConfig { keep_trailing_newline: true, ..Default::default() })
        .map_while(Result::ok)
        .collect()
}

fn range_of(span: minijinja::machinery::Span) -> Range<usize> {
    span.start_offset as usize..span.end_offset as usize
}

/// The names read as variables (an identifier not after a dot), with their token's index.
fn variable_reads<'a, 't>(tokens: &'a [(Token<'t>, minijinja::machinery::Span)]) -> impl Iterator<Item = (usize, &'t str)> + 'a {
    tokens.iter().enumerate().filter_map(|(i, (token, _))| match token {
        Token::Ident(id) if i == 0 || !matches!(tokens[i - 1].0, Token::Dot) => Some((i, *id)),
        _ => None,
    })
}

/// Where a template first reads the variable `name` (`name.attribute`, with `attribute`), from
/// its tokens: never a mention in its text outside a tag.
pub fn first_read(text: &str, name: &str, attribute: Option<&str>) -> Option<Range<usize>> {
    let tokens = tokens_of(text);
    let found = variable_reads(&tokens).filter(|&(_, id)| id == name).find_map(|(i, _)| match attribute {
        None => Some(range_of(tokens[i].1)),
        Some(attribute) => match (tokens.get(i + 1), tokens.get(i + 2)) {
            (Some((Token::Dot, _)), Some((Token::Ident(a), end))) if *a == attribute => {
                Some(tokens[i].1.start_offset as usize..end.end_offset as usize)
            }
            _ => None,
        },
    });
    found
}

/// Whether the variable read at `tokens[i]` (with the attributes after it) is tested with
/// `is [not] defined` / `undefined` or given a `|default`.
fn guarded(tokens: &[(Token<'_>, minijinja::machinery::Span)], i: usize) -> bool {
    let token = |k: usize| tokens.get(k).map(|(t, _)| t);
    let mut j = i + 1;
    while let (Some(Token::Dot), Some(Token::Ident(_))) = (token(j), token(j + 1)) {
        j += 2;
    }
    matches!(
        (token(j), token(j + 1), token(j + 2)),
        (Some(Token::Ident("is")), Some(Token::Ident("defined" | "undefined")), _)
            | (Some(Token::Ident("is")), Some(Token::Ident("not")), Some(Token::Ident("defined" | "undefined")))
            | (Some(Token::Pipe), Some(Token::Ident("default" | "d")), _)
    )
}

/// What the static pass reads of one template file, which its name and text alone decide:
/// memoized by both, so the agents and checks sharing a template compile and lex it once.
struct TemplateReads {
    /// The variables it reads without setting them.
    undeclared: HashSet<String>,
    /// Names read as variables (not attributes), each at its first use.
    first_use: Vec<(String, Range<usize>)>,
    /// Names tested with `is defined` or given a `|default` anywhere: ones the template expects
    /// may be missing, as Jinja2 allows.
    guarded: HashSet<String>,
    /// The files it names in `{% include "x" %}`, `{% import "x" as m %}`, `{% from "x" import
    /// m %}` and `{% extends "x" %}`, with where.
    includes: Vec<(String, Range<usize>)>,
}

impl TemplateReads {
    /// `None` when the file does not compile (left to the render, which reports it).
    fn of(name: &str, text: &str) -> Option<TemplateReads> {
        let env = environment();
        let (undeclared, _) = within_limits(|| env.template_from_named_str(name, text).map(|t| t.undeclared_variables(false)));
        let undeclared = undeclared.ok()?;
        let tokens = tokens_of(text);
        let mut first_use: Vec<(String, Range<usize>)> = Vec::new();
        for (i, id) in variable_reads(&tokens) {
            if !first_use.iter().any(|(n, _)| n == id) {
                first_use.push((id.to_string(), range_of(tokens[i].1)));
            }
        }
        let guarded = variable_reads(&tokens).filter(|&(i, _)| guarded(&tokens, i)).map(|(_, id)| id.to_string()).collect();
        let mut includes = Vec::new();
        for window in tokens.windows(3) {
            let [(Token::BlockStart, _), (Token::Ident(tag), _), (Token::Str(child), span)] = window else { continue };
            if ["include", "import", "from", "extends"].contains(tag) {
                includes.push((child.to_string(), span.start_offset as usize..span.end_offset as usize));
            }
        }
        Some(TemplateReads { undeclared, first_use, guarded, includes })
    }
}

/// The static pass: every variable `text` (the template `path`, relative to the manifest's
/// directory) and the files it includes or imports read without setting them, that `provided`
/// rejects, each at its first use. A file included from several places is looked at once. Files
/// that do not compile or cannot be read are left to the render, which reports them.
pub fn scan(root: &ProjectRoot, template_root: &TemplateRoot, path: &str, text: &str, provided: &dyn Fn(&str) -> bool) -> Scan {
    let mut scan = Scan::default();
    // Files by their path, so each is read once whatever name reaches it (`a.j2`, `./a.j2`).
    let mut seen: HashSet<String> = HashSet::from([path.to_string()]);
    // (template name, display path, text, include chain, names the includers set)
    let mut todo = vec![(template_root.name_of(path), root.display_path(path), text.to_string(), Vec::new(), BTreeSet::new())];
    while let Some((name, display, text, chain, inherited)) = todo.pop() {
        let mut key = xxhash_rust::xxh3::Xxh3::new();
        key.update(&(name.len() as u64).to_le_bytes());
        key.update(name.as_bytes());
        key.update(text.as_bytes());
        let read =
            root.cache().get_or_insert(crate::memo::Kind::TemplateReads, key.digest128(), || Arc::new(TemplateReads::of(&name, &text)));
        let Some(read) = read.as_ref() else { continue };
        // What this file binds (set, for, macro arguments…) is visible to the files it includes.
        let mut binds = inherited.clone();
        binds.extend(read.first_use.iter().map(|(n, _)| n.clone()).filter(|n| !read.undeclared.contains(n)));
        for (id, span) in &read.first_use {
            let id = id.as_str();
            if read.undeclared.contains(id)
                && !inherited.contains(id)
                && !read.guarded.contains(id)
                && !GLOBALS.contains(&id)
                && !provided(id)
            {
                scan.unprovided.push(Unprovided { name: id.to_string(), file: display.clone(), span: span.clone(), chain: chain.clone() });
            }
        }
        let mut children = Vec::new();
        for (child, span) in &read.includes {
            let Ok(reference) = root.normalize(&template_root.reference(child)) else { continue };
            if !seen.insert(reference.clone()) {
                continue;
            }
            let Ok(file) = root.read(&reference) else { continue };
            let mut child_chain = chain.clone();
            child_chain.push(Related { file: display.clone(), span: Some(span.clone()), message: "included from".to_string() });
            children.push((child.to_string(), file.display.clone(), file.text.to_string(), child_chain, binds.clone()));
            scan.files.push(file);
        }
        // Depth first, in the order the file includes them.
        todo.extend(children.into_iter().rev());
    }
    scan
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variable_is_found_where_a_tag_reads_it_not_where_the_text_mentions_it() {
        let text = "Write vars.company and agent.x here.\n{{ x.vars.company }} {{ vars.name }} {{ vars.company|upper }}";
        let at = |name, attribute| first_read(text, name, attribute).map(|r| (r.start, &text[r]));
        assert_eq!(at("vars", Some("company")), Some((77, "vars.company")));
        assert_eq!(at("vars", None), Some((61, "vars")));
        assert_eq!(at("agent", Some("x")), None, "a mention outside a tag is not a read");
        assert_eq!(at("company", None), None, "an attribute is not a variable");
    }

    /// As in Jinja2, `debug` is no function: its output would show what rendered before.
    #[test]
    fn debug_is_undefined_as_in_jinja2() {
        let d = render_template_str("t.j2", "{{ debug() }}", ()).expect_err("undefined");
        assert!(d.code == Some(Code::TPL001) && d.message.contains("debug is unknown"), "{d:?}");
        assert_eq!(render_template_str("t.j2", "{{ range(2)|list }}", ()).expect("renders"), "[0, 1]");
    }

    #[test]
    fn renders_a_template_on_its_own() {
        let text = render_template_str("t.j2", "Hello {{ name }}{{ '!' * 3 }}", minijinja::context! { name => "Ada" });
        assert_eq!(text.expect("renders"), "Hello Ada!!!");
    }

    #[test]
    fn memory_over_the_budget_is_a_located_tpl004() {
        let source = "line one\n{% set ns = namespace(s='x' * 1000) %}{% for i in range(30) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}";
        let d = render_template_str("t.j2", source, ()).expect_err("over the budget");
        assert_eq!(d.code, Some(Code::TPL004));
        assert_eq!(d.file.as_deref(), Some("t.j2"));
        let at = d.span.clone().expect("located").start;
        assert_eq!(&source[at..at + 11], "ns.s ~ ns.s", "{d:?}");
    }

    #[test]
    fn growth_under_the_budget_is_fine() {
        let source =
            "{% set ns = namespace(s='x' * 1000) %}{% for i in range(10) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}";
        let text = render_template_str("t.j2", source, ());
        assert_eq!(text.expect("renders"), "1024000");
    }

    #[test]
    fn a_runaway_loop_is_out_of_fuel() {
        let d = render_template_str("t.j2", "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", ())
            .expect_err("out of fuel");
        assert_eq!(d.code, Some(Code::TPL004));
        assert!(d.message.contains("out of fuel"), "{d:?}");
    }

    #[test]
    fn python_methods_render_as_in_jinja2() {
        let source =
            "{% for k, v in d.items() %}{{ k.upper() }}={{ v }} {% endfor %}{{ s.strip().split(',')|join('+') }} {{ d.get('x', 0) }}";
        let text = render_template_str("t.j2", source, minijinja::context! { d => minijinja::context! { a => 1 }, s => " a,b " });
        assert_eq!(text.expect("renders"), "A=1 a+b 0");
    }

    #[test]
    fn python_replace_and_join_are_charged_before_they_are_made() {
        for source in ["{{ ('x' * 4000).replace('x', 'y' * 100000) }}", "{{ ('y' * 1000000).join(range(10000)) }}"] {
            let d = render_template_str("t.j2", source, ()).expect_err("over the budget");
            assert_eq!(d.code, Some(Code::TPL004), "{source}: {d:?}");
        }
        assert_eq!(
            render_template_str("t.j2", "{{ 'a-b-c'.replace('-', '+', 1) }}{{ ','.join(['x', 'y']) }}", ()).expect("renders"),
            "a+b-cx,y"
        );
    }

    #[test]
    fn python_methods_with_hostile_arguments_end_as_in_python() {
        let source =
            "{{ 'abc'.count('') }} {{ ''.count('') }} {{ 'xxyxx'.strip('x') }} {{ ('a' * 100000).strip('b' * 100000 ~ 'a')|length }} \
                      {{ 'a-b'.lstrip('-a') }} {{ 'a-b'.rstrip('b-') }} {{ 'ab'.startswith(['x', 'a']) }}";
        assert_eq!(render_template_str("t.j2", source, ()).expect("renders"), "4 1 y 0 b a True");
    }

    #[test]
    fn integer_and_format_edge_cases_are_errors_not_panics() {
        for (source, expected) in [
            ("{{ 10 is divisibleby 0 }}", Err("division by zero")),
            ("{{ (-170141183460469231731687303715884105727 - 1) is divisibleby -1 }}", Ok("True")),
            ("{{ '%.70000f'|format(1.5) }}", Err("width or precision 70000")),
            ("{{ '%.70000e'|format(1.5) }}", Err("width or precision 70000")),
            ("{{ '{:.70000f}'.format(1.5) }}", Err("width or precision 70000")),
            ("{{ '{:999999999}'.format('x') }}", Err("width or precision 999999999")),
            ("{{ '{:.10000e}'.format(1.5)|length }}", Ok("10006")),
            ("{{ 'abc'[::-9223372036854775807 - 1] }}", Ok("c")),
            ("{{ 'abc'[0:2:-1] }}|{{ [1, 2, 3][0:2:-1]|list }}", Ok("|[]")),
            ("{{ [][true:0:-1]|list }}{{ ''[::-1] }}", Ok("[]")),
            ("{{ range(9223372036854775807, -9223372036854775807 - 1, -9223372036854775807 - 1)|list }}", Ok("[9223372036854775807, -1]")),
        ] {
            match (render_template_str("t.j2", source, ()), expected) {
                (Ok(text), Ok(expected)) => assert_eq!(text, expected, "{source}"),
                (Err(d), Err(expected)) => assert!(d.message.contains(expected) && d.span.is_some(), "{source}: {d:?}"),
                (got, _) => panic!("{source}: {got:?}"),
            }
        }
    }

    #[test]
    fn widths_are_charged_before_they_are_made() {
        // 2,000 fields of one 1 MB argument, or of a 10,000 wide padding: each is charged first.
        for source in ["{{ ('{0}' * 2000).format('x' * 1000000) }}", "{{ ('%10000s' * 2000)|format(*range(2000)) }}"] {
            let d = render_template_str("t.j2", source, ()).expect_err("over the budget");
            assert!(d.code == Some(Code::TPL004) && d.message.contains("16 MiB of memory"), "{source}: {d:?}");
        }
    }

    #[test]
    fn work_over_the_budget_is_a_located_tpl004() {
        for (source, at) in [
            ("{% set s = 'x' * 14000000 %}{% for i in range(100000) %}{% if 'y' in s %}{% endif %}{% endfor %}", "'y' in s"),
            ("{% set l = range(100000)|list %}{% for i in range(100000) %}{{ l.count(5) }}{% endfor %}", "l.count(5)"),
            ("{% set s = 'x' * 4000000 %}{% for i in range(100000) %}{{ s is startingwith('y') }}{% endfor %}", "s is startingwith('y')"),
        ] {
            let d = render_template_str("t.j2", source, ()).expect_err("over the budget");
            assert!(d.code == Some(Code::TPL004) && d.message.contains("64 MiB of text and values"), "{source}: {d:?}");
            let span = d.span.clone().expect("located");
            // At the expression (the call's own span inside it, or its `if` around it).
            let found = &source[span.clone()];
            assert!(!found.is_empty() && (at.contains(found) || found.contains(at)) && found.len() < at.len() + 5, "{source}: {span:?}");
        }
    }

    #[test]
    fn a_real_prompt_spends_little_of_the_work_budget() {
        // 300 tools, each looked up in a 100 KB description: far under the budget.
        let tools: Vec<String> = (0..300).map(|i| format!("tool_{i}")).collect();
        let description = "x".repeat(100_000);
        let source = "{% for t in tools %}{% if t in description %}{{ t }}{% endif %}{% endfor %}done";
        let text = render_template_str("t.j2", source, minijinja::context! { tools, description });
        assert_eq!(text.expect("renders"), "done");
    }

    #[test]
    #[allow(clippy::reversed_empty_ranges)] // minijinja's inverted spans are what is tested
    fn spans_are_valid_ranges_of_the_text() {
        assert_eq!(valid_span(7..6, Some("0123456789")), 6..7);
        assert_eq!(valid_span(7..60, Some("0123456789")), 7..10);
        assert_eq!(valid_span(2..4, Some("aé")), 1..3, "inside the text, on character boundaries");
        assert_eq!(valid_span(9..3, None), 3..9);
    }

    #[test]
    fn a_method_minijinja_lacks_names_the_jinja2_way() {
        let d =
            render_template_str("t.j2", "{{ d.update(x=1) }}", minijinja::context! { d => minijinja::context! {} }).expect_err("no update");
        assert_eq!(d.code, Some(Code::TPL001));
        assert!(d.message.contains("a dict (map) has no method `.update()`") && d.message.contains("cannot be changed in place"), "{d:?}");
        let d = render_template_str("t.j2", "{{ 'x'.zfill(3) }}", ()).expect_err("no zfill");
        assert!(d.message.contains("`|format`"), "{d:?}");
    }

    #[test]
    fn escape_is_markupsafe_s() {
        assert_eq!(
            render_template_str("t.j2", "{{ s|e }}{{ s|escape|e }}", minijinja::context! { s => "<'\"&>" }).expect("renders"),
            "&lt;&#39;&#34;&amp;&gt;&lt;&#39;&#34;&amp;&gt;"
        );
    }

    #[test]
    fn an_undefined_variable_is_named() {
        let d = render_template_str("t.j2", "line\n{{ user.nickname }}", minijinja::context! { user => minijinja::context! {} })
            .expect_err("undefined");
        assert_eq!(d.code, Some(Code::TPL002));
        assert!(d.message.contains("`user.nickname` is undefined"), "{d:?}");
    }

    #[test]
    fn names_are_canonical_so_a_file_loads_once() {
        assert_eq!(canonical("a.j2"), "a.j2");
        assert_eq!(canonical("./x//y/../a.j2"), "x/a.j2");
        assert_eq!(canonical("d7/../a.j2"), "a.j2");
        assert_eq!(canonical("../../a.j2"), "../../a.j2");
        assert_eq!(canonical("/etc/passwd"), "/etc/passwd");
    }

    /// Counted in names: a loop including a missing file 50 times, and a found one 50 times,
    /// leaves one entry each, so a memoized render checks each name once.
    #[test]
    fn the_loads_hold_each_name_once_with_what_it_found() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("part.j2"), "x").expect("write");
        let root = ProjectRoot::new(dir.path()).expect("root");
        let (env, loads) = project_environment(&root, &TemplateRoot::default());
        let text = "{% for i in range(50) %}{% include 'part.j2' %}{% include 'gone.j2' ignore missing %}{% endfor %}";
        assert_eq!(render_bounded(&env, "t.j2", text, Value::UNDEFINED, &|n| n.to_string()).expect("renders"), "x".repeat(50));
        let part = crate::memo::content_hash("x");
        let loads = loads.lock().expect("loads").clone();
        assert_eq!(loads, [("part.j2".to_string(), Found::Text(part)), ("gone.j2".to_string(), Found::Missing)].into_iter().collect());
        assert_eq!(Found::now(&root, &TemplateRoot::default(), "part.j2"), Found::Text(part));
    }

    #[test]
    fn template_names_are_paths_from_the_root() {
        let root = TemplateRoot("prompts".into());
        assert_eq!(root.name_of("prompts/system.j2"), "system.j2");
        assert_eq!(root.name_of("other/x.j2"), "../other/x.j2");
        assert_eq!(root.reference("parts/a.j2"), "prompts/parts/a.j2");
        assert_eq!(TemplateRoot::default().name_of("prompts/system.j2"), "prompts/system.j2");
        assert_eq!(TemplateRoot::default().reference("a.j2"), "a.j2");
    }

    #[test]
    fn the_static_pass_follows_includes_and_what_includers_set() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("p")).expect("mkdir");
        let write = |name: &str, text: &str| std::fs::write(dir.path().join("p").join(name), text).expect("write");
        write(
            "top.j2",
            "{{ agent.name }}\n{% for item in items %}{% include 'item.j2' %}{% endfor %}\n{% include 'missing.j2' ignore missing %}",
        );
        write("item.j2", "{{ item }} {{ range(2)|list }}\n  {{ cli_mode }} {{ cli_mode }}");
        let root = ProjectRoot::new(dir.path()).expect("root");
        let top = std::fs::read_to_string(dir.path().join("p/top.j2")).expect("read");
        let scan = scan(&root, &TemplateRoot("p".into()), "p/top.j2", &top, &|name| name == "agent");
        let found: Vec<(&str, &str, Range<usize>)> =
            scan.unprovided.iter().map(|u| (u.name.as_str(), u.file.as_str(), u.span.clone())).collect();
        let item = format!("{}/p/item.j2", dir.path().display());
        let top_path = format!("{}/p/top.j2", dir.path().display());
        let items = top.find("in items").expect("there") + 3;
        let cli_mode = "{{ item }} {{ range(2)|list }}\n  {{ ".len();
        assert_eq!(found, vec![("items", top_path.as_str(), items..items + 5), ("cli_mode", item.as_str(), cli_mode..cli_mode + 8)]);
        assert_eq!(scan.unprovided[1].chain.len(), 1, "included from top.j2");
        assert_eq!(scan.files.len(), 1, "item.j2 read once");
    }

    #[test]
    fn the_budget_is_given_back_after_a_render() {
        render_template_str("t.j2", "{{ 'x' * 100000000 }}", ()).expect_err("over the budget");
        // Outside a render nothing is charged: the same value is made freely.
        let (value, exhausted) = within_limits(|| minijinja::budget::charge(1));
        assert!(value.is_ok() && exhausted.is_none());
        assert!(minijinja::budget::charge(usize::MAX).is_ok(), "no budget outside a render");
    }
}
