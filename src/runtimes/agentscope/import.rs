//! `ctxc import agentscope FILE.py`: a ctxc manifest from the Python file that builds an
//! AgentScope 2.x `Agent(...)`, read without running it. Only what Python writes as literals is
//! carried over: the keyword arguments of the `Agent` call, of the model class, `Toolkit`,
//! `ContextConfig` and `LocalWorkspace` calls they hold, and names bound to such values with a
//! plain `NAME = ...` anywhere in the file (the last binding before the call). Anything computed is
//! a note at its file:line:col, and the manifest leaves it out. A 1.x `ReActAgent(...)` is read the
//! same way, with the `register_tool_function` / `register_agent_skill` statements on its toolkit
//! (the lines' indentation tells the blocks they are in: one in a loop or a condition is refused).

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Component, Path};

use crate::diagnostic::{Diagnostic, Failure, Sources};
use crate::import::{toml_string, Imported};
use crate::project::{ProjectRoot, ReadError};

/// The release a `ReActAgent` is imported as: the 1.x release ctxc models.
const REACT_RELEASE: &str = "1.0.21";
/// Where a system prompt written as a Python string goes (the manifest's module reads it).
pub const PROMPT_FILE: &str = "prompts/system.md";
/// Where the manifest expects the declarations of the toolkit's own tools (OpenAI's form).
pub const TOOLS_FILE: &str = "tools/functions.json";
/// How deeply brackets may nest, and how many names a value may pass through.
const MAX_NESTING: usize = 64;
const MAX_ALIASES: usize = 16;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Name(String),
    /// A string literal's value; `None` for an f-string or bytes, which are not text ctxc can read.
    Str(Option<String>),
    Number(String),
    Op(char),
    /// The end of a logical line (outside brackets).
    Newline,
}

/// A token and where it is written.
type Spanned = (Tok, Range<usize>);
/// What cannot be read, and the byte where it starts.
type LexError = (String, usize);

/// The file's tokens with their byte spans: enough of Python's lexer for literals and calls.
fn lex(text: &str) -> Result<Vec<Spanned>, LexError> {
    let bytes = text.as_bytes();
    let (mut i, mut depth, mut out) = (0, 0usize, Vec::new());
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        match c {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'\\' if bytes.get(i + 1) == Some(&b'\n') => i += 2,
            b'\\' if bytes.get(i + 1) == Some(&b'\r') => i += 2 + usize::from(bytes.get(i + 2) == Some(&b'\n')),
            b'\n' => {
                if depth == 0 && !matches!(out.last(), Some((Tok::Newline, _)) | None) {
                    out.push((Tok::Newline, i..i + 1));
                }
                i += 1;
            }
            _ if c.is_ascii_whitespace() => i += 1,
            _ if c.is_ascii_digit() || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.' || bytes[i] == b'_') {
                    i += 1;
                }
                out.push((Tok::Number(text[start..i].replace('_', "")), start..i));
            }
            _ if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] >= 0x80) {
                    i += 1;
                }
                let word = &text[start..i];
                let prefix = word.to_ascii_lowercase();
                if matches!(bytes.get(i), Some(b'"' | b'\''))
                    && matches!(prefix.as_str(), "r" | "u" | "b" | "f" | "rb" | "br" | "fr" | "rf")
                {
                    let (value, end) = string(text, i, prefix.contains('r'))?;
                    let text_value = (!prefix.contains('b') && !prefix.contains('f')).then_some(value);
                    out.push((Tok::Str(text_value), start..end));
                    i = end;
                } else {
                    out.push((Tok::Name(word.to_string()), start..i));
                }
            }
            b'"' | b'\'' => {
                let (value, end) = string(text, i, false)?;
                out.push((Tok::Str(Some(value)), start..end));
                i = end;
            }
            _ => {
                match c {
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                out.push((Tok::Op(c as char), i..i + 1));
                i += 1;
            }
        }
    }
    Ok(out)
}

/// The string literal whose opening quote is at `at`: its value and the byte after it.
fn string(text: &str, at: usize, raw: bool) -> Result<(String, usize), LexError> {
    let bytes = text.as_bytes();
    let quote = bytes[at];
    let triple = bytes.get(at + 1) == Some(&quote) && bytes.get(at + 2) == Some(&quote);
    let mut i = at + if triple { 3 } else { 1 };
    let mut value = String::new();
    loop {
        let Some(&c) = bytes.get(i) else {
            return Err(("a string that never ends".into(), at));
        };
        if c == quote && (!triple || (bytes.get(i + 1) == Some(&quote) && bytes.get(i + 2) == Some(&quote))) {
            return Ok((value, i + if triple { 3 } else { 1 }));
        }
        if c == b'\n' && !triple {
            return Err(("a string that never ends on its line".into(), at));
        }
        let ch = text[i..].chars().next().unwrap_or('\u{fffd}');
        if c != b'\\' || raw {
            if raw && c == b'\\' && bytes.get(i + 1).is_some() {
                // A raw string keeps the backslash and the character after it, quote included.
                value.push('\\');
                i += 1;
                let next = text[i..].chars().next().unwrap_or('\u{fffd}');
                value.push(next);
                i += next.len_utf8();
                continue;
            }
            value.push(ch);
            i += ch.len_utf8();
            continue;
        }
        let Some(&e) = bytes.get(i + 1) else {
            return Err(("a string that never ends".into(), at));
        };
        i += 2;
        let hex = |i: usize, n: usize| text.get(i..i + n).and_then(|h| u32::from_str_radix(h, 16).ok()).and_then(char::from_u32);
        match e {
            b'\n' => {}
            b'\r' => i += usize::from(bytes.get(i) == Some(&b'\n')),
            b'n' => value.push('\n'),
            b't' => value.push('\t'),
            b'r' => value.push('\r'),
            b'\\' | b'\'' | b'"' => value.push(e as char),
            b'a' => value.push('\u{7}'),
            b'b' => value.push('\u{8}'),
            b'f' => value.push('\u{c}'),
            b'v' => value.push('\u{b}'),
            b'0'..=b'7' => {
                let mut n = u32::from(e - b'0');
                for _ in 0..2 {
                    match bytes.get(i) {
                        Some(d @ b'0'..=b'7') => {
                            n = n * 8 + u32::from(d - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                value.push(char::from_u32(n).unwrap_or('\u{fffd}'));
            }
            b'x' | b'u' | b'U' => {
                let n = match e {
                    b'x' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                let Some(ch) = hex(i, n) else {
                    return Err((format!("a `\\{}` escape without {n} hex digits", e as char), i - 2));
                };
                value.push(ch);
                i += n;
            }
            b'N' => return Err(("a `\\N{...}` escape: ctxc does not read Unicode names; write the character itself".into(), i - 2)),
            _ => {
                // Python keeps an unknown escape as written.
                value.push('\\');
                i -= 1;
            }
        }
    }
}

/// A Python expression as far as an import reads it.
#[derive(Debug, Clone)]
enum Expr {
    /// A string (adjacent literals joined); `None` when one of them is an f-string or bytes.
    Str(Option<String>),
    Number(String),
    Name(String),
    List(Vec<(Expr, Range<usize>)>),
    Call {
        func: Box<Expr>,
        args: Vec<Arg>,
    },
    Attr(Box<Expr>, String),
    /// Computed at run time from these parts (operators, subscripts, keywords).
    Computed(Vec<Expr>),
    /// Anything else (dicts, lambdas…): computed at run time.
    Other,
}

#[derive(Debug, Clone)]
struct Arg {
    key: Option<String>,
    value: Expr,
    at: Range<usize>,
}

struct Parser<'a> {
    toks: &'a [Spanned],
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|(t, _)| t)
    }

    fn span(&self) -> Range<usize> {
        self.toks.get(self.pos).map_or(0..0, |(_, s)| s.clone())
    }

    fn is_op(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Op(c))
    }

    /// One expression and its span; stops before a `,`, a closing bracket, a `:` or the line's end.
    fn expr(&mut self) -> Result<(Expr, Range<usize>), LexError> {
        let start = self.span().start;
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err((format!("brackets nested more than {MAX_NESTING} deep"), start));
        }
        let mut value = self.primary()?;
        let mut parts = Vec::new();
        // Operators and keywords (`return`, `await`, `+`…): the value is computed at run time, but
        // the calls in it are still read (an `Agent(...)` after `return`).
        loop {
            match self.peek() {
                Some(Tok::Op(',' | ')' | ']' | '}' | ':')) | Some(Tok::Newline) | None => break,
                Some(Tok::Op('=')) if self.toks.get(self.pos + 1).map(|(t, _)| t) != Some(&Tok::Op('=')) => break,
                Some(Tok::Name(_) | Tok::Str(_) | Tok::Number(_) | Tok::Op('(' | '[' | '{')) => {
                    parts.push(std::mem::replace(&mut value, Expr::Other));
                    value = self.primary()?;
                }
                Some(_) => self.pos += 1,
            }
        }
        if !parts.is_empty() {
            parts.push(value);
            value = Expr::Computed(parts);
        }
        self.depth -= 1;
        let end = self.toks.get(self.pos.saturating_sub(1)).map_or(start, |(_, s)| s.end).max(start);
        Ok((value, start..end))
    }

    /// An atom and what follows it: attributes, calls, subscripts.
    fn primary(&mut self) -> Result<Expr, LexError> {
        let mut value = self.atom()?;
        loop {
            match self.peek() {
                Some(Tok::Op('.')) => {
                    self.pos += 1;
                    match self.peek().cloned() {
                        Some(Tok::Name(name)) => {
                            self.pos += 1;
                            value = Expr::Attr(Box::new(value), name);
                        }
                        _ => value = Expr::Other,
                    }
                }
                Some(Tok::Op('(')) => {
                    self.pos += 1;
                    let args = self.args(')')?;
                    value = Expr::Call { func: Box::new(value), args };
                }
                Some(Tok::Op('[')) => {
                    self.pos += 1;
                    let items = self.args(']')?;
                    value = Expr::Computed(items.into_iter().map(|a| a.value).collect());
                }
                _ => return Ok(value),
            }
        }
    }

    fn atom(&mut self) -> Result<Expr, LexError> {
        let Some(tok) = self.peek().cloned() else { return Ok(Expr::Other) };
        self.pos += 1;
        Ok(match tok {
            Tok::Str(first) => {
                let mut value = first;
                while let Some(Tok::Str(next)) = self.peek().cloned() {
                    self.pos += 1;
                    value = value.zip(next).map(|(a, b)| a + &b);
                }
                Expr::Str(value)
            }
            Tok::Number(n) => Expr::Number(n),
            Tok::Name(name) => Expr::Name(name),
            Tok::Op('[') => {
                let items = self.args(']')?;
                match items.iter().all(|a| a.key.is_none()) {
                    true => Expr::List(items.into_iter().map(|a| (a.value, a.at)).collect()),
                    false => Expr::Other,
                }
            }
            Tok::Op('(') => {
                let mut items = self.args(')')?;
                match items.len() {
                    1 if items[0].key.is_none() => items.remove(0).value,
                    _ => Expr::Other,
                }
            }
            Tok::Op('{') => {
                self.args('}')?;
                Expr::Other
            }
            _ => Expr::Other,
        })
    }

    /// Comma-separated items up to `close` (consumed): `key=value` or a value.
    fn args(&mut self, close: char) -> Result<Vec<Arg>, LexError> {
        let mut out = Vec::new();
        loop {
            if self.is_op(close) {
                self.pos += 1;
                return Ok(out);
            }
            let Some(tok) = self.peek().cloned() else {
                return Err((format!("a `{close}` is missing"), self.toks.last().map_or(0, |(_, s)| s.end)));
            };
            let key_start = self.span().start;
            let key = match (tok, self.toks.get(self.pos + 1).map(|(t, _)| t)) {
                (Tok::Name(name), Some(Tok::Op('='))) if self.toks.get(self.pos + 2).map(|(t, _)| t) != Some(&Tok::Op('=')) => {
                    self.pos += 2;
                    Some(name)
                }
                _ => None,
            };
            let (value, at) = self.expr()?;
            // A keyword argument is shown from its name on.
            let at = if key.is_some() { key_start..at.end } else { at };
            out.push(Arg { key, value, at });
            match self.peek() {
                Some(Tok::Op(',')) => self.pos += 1,
                Some(Tok::Op(c)) if *c == close => {}
                _ => {
                    // `*args`, slices, dict entries, generators: not read, skipped to the close.
                    self.skip_rest()?;
                    if self.is_op(',') {
                        self.pos += 1;
                    }
                    if let Some(last) = out.last_mut() {
                        last.value = Expr::Other;
                    }
                }
            }
        }
    }

    /// Skips to the next `,` or closing bracket at this level (or the line's end), brackets balanced.
    fn skip_rest(&mut self) -> Result<(), LexError> {
        let mut open = 0usize;
        while let Some(tok) = self.peek() {
            match tok {
                Tok::Op('(' | '[' | '{') => open += 1,
                Tok::Op(')' | ']' | '}') if open == 0 => return Ok(()),
                Tok::Op(')' | ']' | '}') => open -= 1,
                Tok::Op(',') | Tok::Newline if open == 0 => return Ok(()),
                _ => {}
            }
            if open > MAX_NESTING {
                return Err((format!("brackets nested more than {MAX_NESTING} deep"), self.span().start));
            }
            self.pos += 1;
        }
        Ok(())
    }
}

/// The dotted name an expression is written as (`agentscope.agent.Agent`), if it is one.
fn dotted(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Name(n) => Some(n.clone()),
        Expr::Attr(value, name) => dotted(value).map(|d| format!("{d}.{name}")),
        _ => None,
    }
}

fn last_part(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

/// The file as read: its tokens, the `NAME = value` bindings (each with where it was written and
/// the value's span) and the `Agent(...)` calls.
struct Module {
    display: String,
    bindings: Vec<(String, usize, Expr, Range<usize>)>,
    agents: Vec<(Expr, Range<usize>)>,
    /// `NAME.register_tool_function(...)` and `NAME.register_agent_skill(...)` statements (1.x).
    registrations: Vec<Registration>,
}

/// The methods a 1.x toolkit is filled with, one statement a call.
const REGISTER_METHODS: [&str; 2] = ["register_tool_function", "register_agent_skill"];

/// A registration on a toolkit, as written.
struct Registration {
    receiver: String,
    method: String,
    args: Vec<Arg>,
    at: Range<usize>,
    /// Why it may run other than once, in order: the loop or condition it is written in, or the
    /// expression it is part of.
    dynamic: Option<String>,
}

/// Python's block statements: a registration inside one of the first five may run any number of times.
const BLOCKS: [&str; 12] = ["for", "while", "if", "elif", "else", "def", "class", "with", "try", "except", "finally", "match"];

/// The column (bytes from the line's start) where `at` is written.
fn column(text: &str, at: usize) -> usize {
    at - text[..at].rfind('\n').map_or(0, |n| n + 1)
}

impl Module {
    fn note(&self, message: impl Into<String>, at: &Range<usize>) -> Diagnostic {
        Diagnostic::warning(message).in_file(&self.display).at(Some(at.clone()))
    }

    fn error(&self, message: impl Into<String>, at: &Range<usize>) -> Diagnostic {
        Diagnostic::error(message).in_file(&self.display).at(Some(at.clone())).label("here")
    }

    /// The value a name stands for at `before`: followed through plain bindings.
    fn resolve(&self, mut expr: Expr, mut at: Range<usize>, before: usize) -> (Expr, Range<usize>) {
        for _ in 0..MAX_ALIASES {
            let Expr::Name(name) = &expr else { break };
            let Some((_, _, value, span)) = self.bindings.iter().rev().find(|(n, pos, _, _)| n == name && *pos < before) else {
                break;
            };
            (expr, at) = (value.clone(), span.clone());
        }
        (expr, at)
    }
}

fn parse_module(text: &str, display: &str) -> Result<Module, Diagnostic> {
    let error = |(message, at): (String, usize)| {
        Diagnostic::error(format!("not Python ctxc can read: {message}")).in_file(display).at(Some(at..at)).label("here")
    };
    let toks = lex(text).map_err(error)?;
    let mut module = Module { display: display.to_string(), bindings: Vec::new(), agents: Vec::new(), registrations: Vec::new() };
    let mut parser = Parser { toks: &toks, pos: 0, depth: 0 };
    let mut line_start = true;
    // The blocks the current line is inside: each header's indentation and keyword.
    let mut blocks: Vec<(usize, String)> = Vec::new();
    while let Some(tok) = parser.peek().cloned() {
        if line_start {
            let (start, indent) = (parser.span().start, column(text, parser.span().start));
            while blocks.last().is_some_and(|(i, _)| *i >= indent) {
                blocks.pop();
            }
            let first = parser.pos;
            if let Tok::Name(word) = &tok {
                let word = match (word.as_str(), parser.toks.get(first + 1)) {
                    ("async", Some((Tok::Name(next), _))) => next.clone(),
                    _ => word.clone(),
                };
                if BLOCKS.contains(&word.as_str()) {
                    blocks.push((indent, word));
                }
            }
            let dynamic = blocks.iter().rev().find(|(_, k)| BLOCKS[..5].contains(&k.as_str())).map(|(_, k)| format!("inside `{k}`"));
            registrations(&mut parser, start, dynamic, &mut module.registrations).map_err(error)?;
            parser.pos = first;
        }
        match tok {
            Tok::Newline => {
                parser.pos += 1;
                line_start = true;
                continue;
            }
            Tok::Name(name) if line_start && parser.toks.get(parser.pos + 1).map(|(t, _)| t) == Some(&Tok::Op('=')) => {
                let at = parser.span().start;
                parser.pos += 2;
                let (value, span) = parser.expr().map_err(error)?;
                collect_agents(&value, &span, &mut module.agents);
                module.bindings.push((name, at, value, span));
            }
            Tok::Name(_) | Tok::Str(_) | Tok::Op('(' | '[') => {
                let (value, span) = parser.expr().map_err(error)?;
                collect_agents(&value, &span, &mut module.agents);
                if parser.pos < toks.len() && !matches!(parser.peek(), Some(Tok::Newline)) {
                    parser.pos += 1;
                }
            }
            _ => parser.pos += 1,
        }
        parser.depth = 0;
        line_start = false;
    }
    Ok(module)
}

/// The registrations of the logical line starting at the parser's position: a statement
/// `NAME.register_...(...)` is read; a register method named anywhere else on the line is one
/// ctxc cannot follow (`dynamic`). Leaves the position anywhere on the line.
fn registrations(parser: &mut Parser<'_>, start: usize, dynamic: Option<String>, out: &mut Vec<Registration>) -> Result<(), LexError> {
    let first = parser.pos;
    let statement = match (parser.toks.get(first), parser.toks.get(first + 1), parser.toks.get(first + 2)) {
        (Some((Tok::Name(receiver), _)), Some((Tok::Op('.'), _)), Some((Tok::Name(method), _)))
            if REGISTER_METHODS.contains(&method.as_str()) =>
        {
            let (receiver, method) = (receiver.clone(), method.clone());
            let (value, at) = parser.expr()?;
            let ends = matches!(parser.peek(), Some(Tok::Newline) | None);
            match value {
                Expr::Call { func, args }
                    if ends
                        && matches!(func.as_ref(), Expr::Attr(r, m) if matches!(r.as_ref(), Expr::Name(n) if *n == receiver) && *m == method) =>
                {
                    out.push(Registration { receiver, method, args, at: start..at.end, dynamic: dynamic.clone() });
                    true
                }
                _ => false,
            }
        }
        _ => false,
    };
    parser.pos = first + usize::from(statement);
    // Any other mention of a register method on this line.
    let mut i = parser.pos;
    while let Some((tok, span)) = parser.toks.get(i) {
        match tok {
            Tok::Newline => break,
            Tok::Name(m) if !statement && REGISTER_METHODS.contains(&m.as_str()) && i > 0 && parser.toks[i - 1].0 == Tok::Op('.') => {
                let receiver = match parser.toks.get(i.wrapping_sub(2)) {
                    Some((Tok::Name(r), _)) => r.clone(),
                    _ => String::new(),
                };
                let why = dynamic.clone().unwrap_or_else(|| "inside an expression".into());
                out.push(Registration { receiver, method: m.clone(), args: Vec::new(), at: span.clone(), dynamic: Some(why) });
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// The `Agent(...)` calls inside an expression, outermost first.
fn collect_agents(expr: &Expr, span: &Range<usize>, out: &mut Vec<(Expr, Range<usize>)>) {
    match expr {
        Expr::Call { func, args } => {
            if dotted(func).is_some_and(|d| matches!(last_part(&d), "Agent" | "ReActAgent")) {
                out.push((expr.clone(), span.clone()));
                return;
            }
            for arg in args {
                collect_agents(&arg.value, &arg.at, out);
            }
        }
        Expr::List(items) => items.iter().for_each(|(e, s)| collect_agents(e, s, out)),
        Expr::Computed(parts) => parts.iter().for_each(|e| collect_agents(e, span, out)),
        _ => {}
    }
}

/// What the manifest says about the agent.
#[derive(Default)]
struct Agent {
    name: String,
    model: Option<String>,
    model_class: Option<String>,
    /// The system prompt: a file of the project (`open(...)`) or the text written in Python.
    prompt: Option<Prompt>,
    settings: Vec<(String, String)>,
    skills: Vec<String>,
    tools: usize,
    workdir: Option<String>,
    /// The 1.x release, for a `ReActAgent`.
    version: Option<String>,
    /// `[agentscope.compression]`'s keys and values (TOML), as written.
    compression: Vec<(String, String)>,
}

impl Agent {
    /// Whether the manifest reads AgentScope's own texts from upstream/.
    fn reads_upstream(&self) -> bool {
        !self.skills.is_empty()
            || self.workdir.is_some()
            || self.settings.iter().any(|(k, v)| k == "compression_tool_enabled" && v == "true")
    }
}

enum Prompt {
    File(String),
    Text(String),
}

/// Reads FILE (a Python file inside its folder) and makes `ctxc.toml` beside it.
pub fn import(file: &Path) -> Result<Imported, Failure> {
    let mut sources = Sources::default();
    let fail = |d: Diagnostic, sources: &Sources| Failure { diagnostics: vec![d], sources: sources.clone() };
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let root = ProjectRoot::new(dir).map_err(|e| fail(e.into_diagnostic(), &sources))?;
    let source = match root.read(&name) {
        Ok(source) => source,
        Err(ReadError::Missing(_)) => return Err(fail(Diagnostic::error(format!("`{}` not found", file.display())), &sources)),
        Err(e) => return Err(fail(e.into_diagnostic().in_file(root.display_path(&name)), &sources)),
    };
    sources.insert_shared(&source.display, source.text.clone());
    let module = parse_module(&source.text, &source.display).map_err(|d| fail(d, &sources))?;
    let mut notes = Vec::new();
    let Some((call, at)) = module.agents.first().cloned() else {
        return Err(fail(
            Diagnostic::error("no `Agent(...)` call in this file: ctxc import agentscope reads the file that builds the agent")
                .in_file(&source.display)
                .at(Some(0..0))
                .help("AgentScope 2.x builds an agent with `agentscope.agent.Agent(name=..., system_prompt=..., model=...)`"),
            &sources,
        ));
    };
    for (_, other) in module.agents.iter().skip(1) {
        notes.push(module.note("another `Agent(...)`: ctxc imports the first one in the file; write a manifest per agent", other));
    }
    let project_dir =
        std::fs::canonicalize(dir).map_err(|e| fail(Diagnostic::error(format!("cannot resolve `{}`: {e}", dir.display())), &sources))?;
    let agent = read_agent(&module, &call, &at, &project_dir, &mut notes).map_err(|d| fail(d, &sources))?;
    notes.sort_by_key(|d| d.span.as_ref().map_or(0, |s| s.start));
    let text = manifest_text(&name, &agent, &project_dir);
    let files = match &agent.prompt {
        Some(Prompt::Text(text)) => vec![(dir.join(PROMPT_FILE), text.clone())],
        _ => Vec::new(),
    };
    Ok(Imported { manifest: dir.join("ctxc.toml"), text, notes, sources, upstream: agent.reads_upstream().then_some("AgentScope"), files })
}

fn keyword_args(call: &Expr) -> &[Arg] {
    match call {
        Expr::Call { args, .. } => args,
        _ => &[],
    }
}

fn read_agent(
    module: &Module,
    call: &Expr,
    at: &Range<usize>,
    project_dir: &Path,
    notes: &mut Vec<Diagnostic>,
) -> Result<Agent, Diagnostic> {
    let class = match call {
        Expr::Call { func, .. } => dotted(func).unwrap_or_default(),
        _ => String::new(),
    };
    if last_part(&class) == "ReActAgent" {
        return read_react_agent(module, call, at, notes);
    }
    let mut agent = Agent::default();
    for (arg, key, value, span) in agent_args(module, call, at, notes) {
        match key {
            "name" => agent.name = name(module, value, &span, notes),
            "system_prompt" => agent.prompt = prompt(module, &value, &span, notes)?,
            "model" => model(module, &value, &span, &mut agent, notes),
            "toolkit" => toolkit(module, &value, &span, at.start, &mut agent, notes)?,
            "context_config" => context_config(module, &value, &span, &mut agent, notes),
            "offloader" => offloader(module, &value, &span, project_dir, &mut agent, notes),
            "middlewares" => notes.push(module.note("middlewares are Python that may rewrite the prompt: none is carried over; give an `on_system_prompt` middleware's text to the manifest as module `on_system_prompt` (docs/runtimes/agentscope.md)", &span)),
            "state" | "model_config" | "react_config" => notes.push(module.note(format!("`{key}` is not carried over: it does not change the system prompt, the tools or the window ctxc reports"), &span)),
            "injection_config" => notes.push(module.note("`injection_config` is not carried over: set `[agentscope] inject_runtime_state` and `context_buffer_ratio` by hand if it changes them", &span)),
            other => notes.push(module.note(format!("`{other}` is not an argument of AgentScope 2.0.11's `Agent`: not carried over"), &arg.at)),
        }
    }
    if agent.prompt.is_none() && !keyword_args(call).iter().any(|a| a.key.as_deref() == Some("system_prompt")) {
        return Err(module.error("the `Agent(...)` call has no `system_prompt`, which AgentScope requires", at));
    }
    if agent.name.is_empty() {
        agent.name = "agent".into();
    }
    Ok(agent)
}

/// An agent call's keyword arguments, each with its key and its value followed through names
/// bound before the call; a positional one is a note.
fn agent_args<'c>(
    module: &Module,
    call: &'c Expr,
    at: &Range<usize>,
    notes: &mut Vec<Diagnostic>,
) -> Vec<(&'c Arg, &'c str, Expr, Range<usize>)> {
    let mut out = Vec::new();
    for arg in keyword_args(call) {
        let Some(key) = arg.key.as_deref() else {
            notes.push(module.note("a positional argument: ctxc reads the agent's keyword arguments only", &arg.at));
            continue;
        };
        let (value, span) = module.resolve(arg.value.clone(), arg.at.clone(), at.start);
        out.push((arg, key, value, span));
    }
    out
}

/// The agent's name when written as a string; empty (named after the file) with a note otherwise.
fn name(module: &Module, value: Expr, span: &Range<usize>, notes: &mut Vec<Diagnostic>) -> String {
    match value {
        Expr::Str(Some(name)) => name,
        _ => {
            notes.push(module.note("the agent's name is computed: the manifest is named after the file", span));
            String::new()
        }
    }
}

/// A 1.x `ReActAgent(...)`: its name, `sys_prompt`, model, the registrations on the toolkit it
/// receives (statements before the call) and its `CompressionConfig`.
fn read_react_agent(module: &Module, call: &Expr, at: &Range<usize>, notes: &mut Vec<Diagnostic>) -> Result<Agent, Diagnostic> {
    let mut agent = Agent { version: Some(REACT_RELEASE.into()), ..Agent::default() };
    for (arg, key, value, span) in agent_args(module, call, at, notes) {
        match key {
            "name" => agent.name = name(module, value, &span, notes),
            "sys_prompt" => agent.prompt = prompt(module, &value, &span, notes)?,
            "model" => {
                model(module, &value, &span, &mut agent, notes);
                // 1.x model classes have no `context_size`: the class sets no window.
                agent.model_class = None;
            }
            "toolkit" => react_toolkit(module, &arg.value, &span, at.start, &mut agent, notes)?,
            "compression_config" => compression_config(module, &value, &span, &mut agent, notes),
            "formatter" => {}
            other => notes.push(
                module.note(format!("`{other}` is not carried over: ctxc models ReActAgent's prompt, tools and compression"), &arg.at),
            ),
        }
    }
    if agent.prompt.is_none() {
        return Err(module.error("the `ReActAgent(...)` call has no `sys_prompt`, which AgentScope requires", at));
    }
    if agent.name.is_empty() {
        agent.name = "agent".into();
    }
    Ok(agent)
}

/// The toolkit a `ReActAgent` receives, by name: the registrations on that name written after its
/// last binding and before the agent, in order. One that may run other than once is refused.
fn react_toolkit(
    module: &Module,
    value: &Expr,
    span: &Range<usize>,
    before: usize,
    agent: &mut Agent,
    notes: &mut Vec<Diagnostic>,
) -> Result<(), Diagnostic> {
    let Expr::Name(name) = value else {
        notes.push(module.note("the toolkit is not a name bound to `Toolkit()`: its tools and skills are not carried over", span));
        return Ok(());
    };
    let bound = module.bindings.iter().rev().find(|(n, pos, _, _)| n == name && *pos < before).map_or(0, |b| b.1);
    for r in module.registrations.iter().filter(|r| r.receiver == *name && r.at.start > bound && r.at.start < before) {
        if let Some(why) = &r.dynamic {
            return Err(module.error(format!("`{name}.{}` is called {why}: ctxc imports registrations written once, in order, as statements; register each tool and skill by its own statement, or write the manifest by hand", r.method), &r.at));
        }
        if r.method == "register_tool_function" {
            notes.push(module.note(format!("a tool in Python: ctxc cannot see its schema; write it into {TOOLS_FILE} (OpenAI function format, in the toolkit's order)"), &r.at));
            agent.tools += 1;
            continue;
        }
        let dir = r.args.iter().find(|a| a.key.is_none() || a.key.as_deref() == Some("skill_dir"));
        match dir.map(|a| (module.resolve(a.value.clone(), a.at.clone(), r.at.start), a.at.clone())) {
            Some(((Expr::Str(Some(path)), _), _))
                if Path::new(&path).components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir)) =>
            {
                agent.skills.push(path.trim_start_matches("./").trim_end_matches('/').to_string())
            }
            Some(((Expr::Str(Some(path)), _), at)) => {
                return Err(
                    module.error(format!("the skill folder `{path}` is outside the file's folder: ctxc reads only files inside it"), &at)
                )
            }
            _ => return Err(module.error("the skill folder is computed: ctxc imports skills registered by a string path", &r.at)),
        }
    }
    Ok(())
}

/// `ReActAgent.CompressionConfig(...)`: `[agentscope.compression]`.
fn compression_config(module: &Module, value: &Expr, span: &Range<usize>, agent: &mut Agent, notes: &mut Vec<Diagnostic>) {
    if matches!(value, Expr::Name(n) if n == "None") {
        return;
    }
    if !matches!(value, Expr::Call { func, .. } if dotted(func).is_some_and(|d| last_part(&d) == "CompressionConfig")) {
        notes.push(module.note(
            "the compression is not configured here by a `CompressionConfig(...)` call: write `[agentscope.compression]` by hand",
            span,
        ));
        return;
    }
    for arg in keyword_args(value) {
        let literal = match &arg.value {
            Expr::Number(n) if n.parse::<u64>().is_ok() => Some(n.clone()),
            Expr::Name(b) if b == "True" || b == "False" => Some(b.to_ascii_lowercase()),
            _ => None,
        };
        match (arg.key.as_deref(), literal) {
            (Some(key @ ("enable" | "trigger_threshold" | "keep_recent")), Some(v)) => agent.compression.push((key.to_string(), v)),
            (Some("agent_token_counter"), _) if matches!(&arg.value, Expr::Call { func, .. } if dotted(func).is_some_and(|d| last_part(&d) == "OpenAITokenCounter")) => {
                agent.compression.push(("token_counter".into(), "\"openai\"".into()))
            }
            (Some("agent_token_counter"), _) => notes.push(module.note(
                "a token counter other than `OpenAITokenCounter(...)`: ctxc models that one only; set `token_counter` by hand",
                &arg.at,
            )),
            (Some(key @ ("enable" | "trigger_threshold" | "keep_recent")), None) => {
                notes.push(module.note(format!("`{key}` is computed: not carried over"), &arg.at))
            }
            (key, _) => notes.push(module.note(
                format!("`{}` is not carried over: ctxc models the default summary and the agent's own model", key.unwrap_or("…")),
                &arg.at,
            )),
        }
    }
}

/// The system prompt: a string, or a project file read with `open(PATH).read()` or
/// `Path(PATH).read_text()`; anything else is a note.
fn prompt(module: &Module, value: &Expr, span: &Range<usize>, notes: &mut Vec<Diagnostic>) -> Result<Option<Prompt>, Diagnostic> {
    if let Expr::Str(Some(text)) = value {
        if text.ends_with(['\n', '\r']) {
            notes.push(module.note("the system prompt ends with a line break, which AgentScope sends and ctxc drops from the module file: ctxc counts it without", span));
        }
        return Ok(Some(Prompt::Text(text.clone())));
    }
    let read_from = match value {
        Expr::Call { func, .. } => match func.as_ref() {
            Expr::Attr(inner, method) if matches!(method.as_str(), "read" | "read_text") => match inner.as_ref() {
                Expr::Call { func, args } if dotted(func).is_some_and(|d| matches!(last_part(&d), "open" | "Path")) => args.first(),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    match read_from.map(|a| (&a.value, &a.at)) {
        Some((Expr::Str(Some(path)), at)) => {
            let inside = !path.is_empty() && Path::new(path).components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
            match inside {
                true => Ok(Some(Prompt::File(path.trim_start_matches("./").to_string()))),
                false => Err(module.error(
                    format!("the system prompt is read from `{path}`, outside the file's folder: ctxc reads only files inside it"),
                    at,
                )),
            }
        }
        _ => {
            notes.push(module.note(format!("the system prompt is computed at run time: ctxc cannot see it; the manifest reads {PROMPT_FILE}, which you write with its text"), span));
            Ok(Some(Prompt::File(PROMPT_FILE.into())))
        }
    }
}

fn model(module: &Module, value: &Expr, span: &Range<usize>, agent: &mut Agent, notes: &mut Vec<Diagnostic>) {
    let class = match value {
        Expr::Call { func, .. } => dotted(func).map(|d| last_part(&d).to_string()),
        _ => None,
    };
    let Some(class) = class.filter(|c| c.ends_with("ChatModel") || c.ends_with("ResponseModel")) else {
        notes.push(module.note("the model is not built here by a model class call: the manifest names no model class; set [agent] model and [agentscope] model_class", span));
        return;
    };
    agent.model_class = Some(class);
    for arg in keyword_args(value) {
        match (arg.key.as_deref(), &arg.value) {
            (Some("model" | "model_name"), Expr::Str(Some(name))) => agent.model = Some(name.clone()),
            (Some("context_size"), Expr::Number(n)) if n.parse::<u64>().is_ok() => agent.settings.push(("context_size".into(), n.clone())),
            (Some(key @ ("model" | "model_name" | "context_size")), _) => {
                notes.push(module.note(format!("the model's `{key}` is computed: not carried over"), &arg.at))
            }
            _ => {}
        }
    }
}

fn toolkit(
    module: &Module,
    value: &Expr,
    span: &Range<usize>,
    before: usize,
    agent: &mut Agent,
    notes: &mut Vec<Diagnostic>,
) -> Result<(), Diagnostic> {
    if matches!(value, Expr::Name(n) if n == "None") {
        return Ok(());
    }
    if !matches!(value, Expr::Call { func, .. } if dotted(func).is_some_and(|d| last_part(&d) == "Toolkit")) {
        notes.push(module.note("the toolkit is not built here by a `Toolkit(...)` call: its tools and skills are not carried over", span));
        return Ok(());
    }
    for arg in keyword_args(value) {
        let (list, list_at) = module.resolve(arg.value.clone(), arg.at.clone(), before);
        match arg.key.as_deref() {
            Some("tools") => match list {
                Expr::List(items) => {
                    for (_, at) in &items {
                        notes.push(module.note(format!("a tool in Python: ctxc cannot see its schema; write it into {TOOLS_FILE} (OpenAI function format, in the toolkit's order)"), at));
                    }
                    agent.tools += items.len();
                }
                _ => notes.push(module.note("the toolkit's tools are computed: not carried over", &list_at)),
            },
            Some("skills_or_loaders") => {
                match list {
                    Expr::List(items) => {
                        for (item, at) in items {
                            match module.resolve(item, at.clone(), before) {
                                (Expr::Str(Some(path)), _)
                                    if Path::new(&path).components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir)) =>
                                {
                                    agent.skills.push(path.trim_start_matches("./").trim_end_matches('/').to_string())
                                }
                                (Expr::Str(Some(path)), _) => {
                                    return Err(module.error(
                                        format!("the skill folder `{path}` is outside the file's folder: ctxc reads only files inside it"),
                                        &at,
                                    ))
                                }
                                _ => notes.push(module.note(
                                    "a skill loader or computed path: not carried over (ctxc reads skill folders named by string)",
                                    &at,
                                )),
                            }
                        }
                    }
                    _ => notes.push(module.note("the skills are computed: not carried over", &list_at)),
                }
            }
            _ => notes.push(module.note("not carried over: ctxc reads a toolkit's `tools` and `skills_or_loaders`", &arg.at)),
        }
    }
    Ok(())
}

/// `ContextConfig`'s fields the manifest has, as written (numbers and booleans).
const CONTEXT_FIELDS: [&str; 5] =
    ["trigger_ratio", "reserve_ratio", "tool_result_limit", "context_buffer_ratio", "compression_tool_enabled"];

fn context_config(module: &Module, value: &Expr, span: &Range<usize>, agent: &mut Agent, notes: &mut Vec<Diagnostic>) {
    if !matches!(value, Expr::Call { func, .. } if dotted(func).is_some_and(|d| last_part(&d) == "ContextConfig")) {
        notes.push(
            module.note("the context configuration is not built here by a `ContextConfig(...)` call: the preset's defaults are used", span),
        );
        return;
    }
    for arg in keyword_args(value) {
        let literal = match &arg.value {
            Expr::Number(n) if n.parse::<f64>().is_ok_and(f64::is_finite) => Some(n.clone()),
            Expr::Name(b) if b == "True" || b == "False" => Some(b.to_ascii_lowercase()),
            _ => None,
        };
        match (arg.key.as_deref(), literal) {
            (Some(key), Some(v)) if CONTEXT_FIELDS.contains(&key) => agent.settings.push((key.to_string(), v)),
            (Some(key), None) if CONTEXT_FIELDS.contains(&key) => {
                notes.push(module.note(format!("`{key}` is computed: not carried over"), &arg.at))
            }
            (key, _) => notes.push(module.note(
                format!(
                    "`{}` is not carried over: it shapes messages, not the prompt or the window numbers ctxc reports",
                    key.unwrap_or("…")
                ),
                &arg.at,
            )),
        }
    }
}

fn offloader(module: &Module, value: &Expr, span: &Range<usize>, project_dir: &Path, agent: &mut Agent, notes: &mut Vec<Diagnostic>) {
    if !matches!(value, Expr::Call { func, .. } if dotted(func).is_some_and(|d| last_part(&d) == "LocalWorkspace")) {
        notes.push(module.note("an offloader other than `LocalWorkspace(...)`: its instructions are not modelled", span));
        return;
    }
    for arg in keyword_args(value) {
        match (arg.key.as_deref(), &arg.value) {
            (Some("workdir"), Expr::Str(Some(dir))) => {
                let full = match Path::new(dir).is_absolute() {
                    true => dir.clone(),
                    false => project_dir.join(dir.trim_start_matches("./")).display().to_string(),
                };
                agent.workdir = Some(full);
            }
            (Some("instructions"), _) => notes.push(module.note(
                "custom workspace instructions are not carried over: write them to a file and point module `workspace` at it",
                &arg.at,
            )),
            _ => notes.push(module.note("not carried over: ctxc reads a workspace's `workdir` (a string)", &arg.at)),
        }
    }
    if agent.workdir.is_none() {
        notes.push(module.note("the workspace's `workdir` is not a string here: set [agentscope.workspace] workdir", span));
        agent.workdir = Some(project_dir.display().to_string());
    }
}

/// The manifest: a header saying where it comes from, then the agent's tables.
fn manifest_text(file: &str, agent: &Agent, project_dir: &Path) -> String {
    let mut out = format!(
        "# Imported from {file} by `ctxc import agentscope`: the Agent(...) it builds, read without running it.\n\
         # project_dir is where the agent runs (skill <dir> entries are absolute in AgentScope's prompt).\n"
    );
    if agent.reads_upstream() {
        out.push_str("# ctxc ships none of AgentScope's texts: `ctxc upstream --python PY` writes them into upstream/.\n");
    }
    out.push_str(&format!("\n[agent]\nname = {}\n", toml_string(&agent.name)));
    if let Some(model) = &agent.model {
        out.push_str(&format!("model = {}\n", toml_string(model)));
    }
    out.push_str("\n[pipeline]\npreset = \"agentscope\"\n\n[modules]\n");
    let prompt = match &agent.prompt {
        Some(Prompt::File(path)) => path.as_str(),
        _ => PROMPT_FILE,
    };
    out.push_str(&format!("system_prompt = {{ source = {} }}\n", toml_string(prompt)));
    if !agent.skills.is_empty() {
        out.push_str("skill_instruction = { source = \"upstream/skill-instruction.md\" }\n");
    }
    if agent.workdir.is_some() {
        out.push_str("workspace = { source = \"upstream/workspace.md\" }\n");
    }
    out.push_str("\n[agentscope]\n");
    if let Some(version) = &agent.version {
        out.push_str(&format!("version = {}\n", toml_string(version)));
    }
    if let Some(class) = &agent.model_class {
        out.push_str(&format!("model_class = {}\n", toml_string(class)));
    }
    // 1.x's skills block names each folder as registered: no project_dir.
    if agent.version.is_none() {
        out.push_str(&format!("project_dir = {}\n", toml_string(&project_dir.display().to_string())));
    }
    let mut seen = HashMap::new();
    for (key, value) in &agent.settings {
        seen.insert(key.as_str(), value.as_str());
    }
    for key in std::iter::once("context_size").chain(CONTEXT_FIELDS) {
        if let Some(value) = seen.get(key) {
            out.push_str(&format!("{key} = {value}\n"));
        }
    }
    if let Some(workdir) = &agent.workdir {
        out.push_str(&format!("\n[agentscope.workspace]\nworkdir = {}\n", toml_string(workdir)));
    }
    if !agent.compression.is_empty() {
        out.push_str("\n[agentscope.compression]\n");
        for (key, value) in &agent.compression {
            out.push_str(&format!("{key} = {value}\n"));
        }
    }
    if !agent.skills.is_empty() {
        let dirs: Vec<String> = agent.skills.iter().map(|s| toml_string(s)).collect();
        out.push_str(&format!("\n[skills]\ndirs = [{}]\n", dirs.join(", ")));
        // 1.x's toolkit binds no skill viewer.
        if agent.version.is_none() {
            out.push_str("\n[tools.skills]\nfiles = [\"upstream/skill-viewer.json\"]\n");
        }
    }
    if agent.tools > 0 {
        out.push_str(&format!(
            "\n# The toolkit's own tools ({} listed), which ctxc cannot read from Python, in OpenAI's function format.\n[tools.functions]\ntitle = \"Function tools\"\nfiles = [\"{TOOLS_FILE}\"]\n",
            agent.tools
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(source: &str) -> Result<(Imported, tempfile::TempDir), Vec<Diagnostic>> {
        let dir = crate::import::project(&[("agent.py", source)]);
        import(&dir.path().join("agent.py")).map(|i| (i, dir)).map_err(|f| f.diagnostics)
    }

    #[test]
    fn strings_join_and_escape_as_python_reads_them() {
        let source = "P = ('a\\tb\\x41\\u00e9\\U0001F600\\101' \"\"\"\nc\"\"\" r'\\n' \\\n 'd')\nagent = Agent(name='n', system_prompt=P, model=OpenAIChatModel(model='gpt-4o', context_size=1_000))\n";
        let (imported, _dir) = run(source).expect("imported");
        assert_eq!(imported.files[0].1, "a\tbAé😀A\nc\\nd");
        assert!(imported.text.contains("model = \"gpt-4o\"") && imported.text.contains("context_size = 1000"), "{}", imported.text);
        assert!(imported.notes.is_empty());
    }

    #[test]
    fn what_is_computed_is_a_located_note() {
        let source =
            "agent = Agent(\n    name=f'x{y}',\n    system_prompt=f'{base}',\n    model=make_model(),\n    middlewares=[M()],\n)\n";
        let (imported, _dir) = run(source).expect("imported");
        let lines: Vec<usize> = imported.notes.iter().map(|d| source[..d.span.clone().expect("span").start].lines().count()).collect();
        assert_eq!(lines, [2, 3, 4, 5], "{:?}", imported.notes);
        assert!(imported.text.contains("system_prompt = { source = \"prompts/system.md\" }") && imported.files.is_empty());
    }

    #[test]
    fn refusals_say_where() {
        for (source, wanted) in [
            ("x = 1\n", "no `Agent(...)` call"),
            ("a = ReActAgent(name='a', model=m)\n", "no `sys_prompt`"),
            (
                "t = Toolkit()\nfor f in fs:\n    t.register_tool_function(f)\na = ReActAgent(sys_prompt='x', toolkit=t)\n",
                "is called inside `for`",
            ),
            (
                "t = Toolkit()\nif x:\n    t.register_agent_skill('skills/a')\na = ReActAgent(sys_prompt='x', toolkit=t)\n",
                "is called inside `if`",
            ),
            (
                "t = Toolkit()\n[t.register_tool_function(f) for f in fs]\na = ReActAgent(sys_prompt='x', toolkit=t)\n",
                "inside an expression",
            ),
            (
                "t = Toolkit()\nt.register_agent_skill(os.path.join('a', 'b'))\na = ReActAgent(sys_prompt='x', toolkit=t)\n",
                "skill folder is computed",
            ),
            ("a = Agent(name='a', model=m)\n", "no `system_prompt`"),
            ("a = Agent(system_prompt=open('../secret.txt').read())\n", "outside the file's folder"),
            ("a = Agent(system_prompt='x', toolkit=Toolkit(skills_or_loaders=['/etc']))\n", "outside the file's folder"),
            ("a = Agent(system_prompt='unterminated)\n", "never ends"),
            ("a = Agent(system_prompt='\\N{EM DASH}')\n", "Unicode names"),
        ] {
            let errors = run(source).err().unwrap_or_else(|| panic!("{source} imported"));
            assert!(errors[0].message.contains(wanted) && errors[0].span.is_some(), "{source}: {:?}", errors[0]);
        }
    }

    /// A 1.x project: statements register tools and skills on the toolkit the `ReActAgent` gets
    /// (inside `async def main()`, as AgentScope's examples write it); registrations on another
    /// toolkit, or after the agent, are not its.
    #[test]
    fn a_react_agent_takes_the_registrations_on_its_toolkit() {
        let source = "from agentscope.agent import ReActAgent\n\
            async def main():\n\
            \x20   toolkit = Toolkit()\n\
            \x20   other = Toolkit()\n\
            \x20   toolkit.register_tool_function(search)\n\
            \x20   other.register_tool_function(ignored)\n\
            \x20   toolkit.register_agent_skill(\"skills/cite\")\n\
            \x20   agent = ReActAgent(\n\
            \x20       name=\"Friday\",\n\
            \x20       sys_prompt=\"You are Friday.\",\n\
            \x20       model=OpenAIChatModel(model_name=\"gpt-4o\", api_key=key),\n\
            \x20       formatter=OpenAIChatFormatter(),\n\
            \x20       toolkit=toolkit,\n\
            \x20       compression_config=ReActAgent.CompressionConfig(enable=True, agent_token_counter=OpenAITokenCounter(\"gpt-4o\"), trigger_threshold=8000),\n\
            \x20   )\n\
            \x20   toolkit.register_tool_function(later)\n";
        let (imported, _dir) = run(source).unwrap_or_else(|e| panic!("{e:?}"));
        let text = &imported.text;
        for wanted in [
            "name = \"Friday\"",
            "model = \"gpt-4o\"",
            "version = \"1.0.21\"",
            "[agentscope.compression]\nenable = true\ntoken_counter = \"openai\"\ntrigger_threshold = 8000\n",
            "dirs = [\"skills/cite\"]",
            "# The toolkit's own tools (1 listed)",
        ] {
            assert!(text.contains(wanted), "{wanted} in:\n{text}");
        }
        assert!(!text.contains("model_class") && !text.contains("skill-viewer"), "1.x has neither:\n{text}");
    }

    /// Hostile files: deep brackets stop at the nesting bound, a cycle of names at the alias
    /// bound, and a long flat file is read in one pass (each token visited a bounded number of times).
    #[test]
    fn hostile_files_are_bounded() {
        let deep = format!("a = Agent(system_prompt={}'x'{})\n", "(".repeat(100_000), ")".repeat(100_000));
        let errors = run(&deep).expect_err("refused");
        assert!(errors[0].message.contains("nested more than 64"), "{:?}", errors[0]);

        let cycle = "a = b\nb = a\nagent = Agent(system_prompt=a)\n";
        let (imported, _dir) = run(cycle).expect("imported");
        assert_eq!(imported.notes.len(), 1, "the prompt is computed: {:?}", imported.notes);

        let flat = format!("{}agent = Agent(system_prompt='x')\n", "f(1, 2)\n".repeat(200_000));
        let toks = lex(&flat).expect("lexed");
        let mut parser = Parser { toks: &toks, pos: 0, depth: 0 };
        let mut steps = 0;
        while parser.pos < toks.len() {
            parser.expr().expect("expr");
            parser.pos += 1;
            steps += 1;
        }
        assert!(steps <= toks.len(), "{steps} steps for {} tokens", toks.len());
        assert!(run(&flat).is_ok());
    }
}
