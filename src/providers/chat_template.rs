//! The request as an open model receives it: the model's own chat template (Jinja2, the
//! `chat_template` of its `tokenizer_config.json` or its `chat_template.jinja`) rendered as
//! Hugging Face transformers' `apply_chat_template(messages, tools=…, add_generation_prompt=True,
//! tokenize=False)` renders it (transformers 5.x, `utils/chat_template_utils.py` and
//! `tokenization_utils_base.py`): `trim_blocks` and `lstrip_blocks` on, Jinja2's lenient
//! undefined, `break`/`continue`, Python's string methods, transformers' `tojson` (JSON as Python's
//! `json.dumps` writes it, non-ASCII kept), `raise_exception`, `strftime_now`, and the special
//! tokens (`bos_token`, `eos_token`…) of the tokenizer configuration as variables. Every render
//! keeps ctxc's template limits (fuel, memory and work budgets); errors are located diagnostics
//! in the file the template was read from.

use std::ops::Range;

use jsonc_parser::common::Ranged;
use minijinja::value::{Kwargs, Value, ValueKind};
use serde_json::{json, Value as Json};

use crate::codes::Code;
use crate::diagnostic::Diagnostic;
use crate::tools::Tool;

/// The date `strftime_now` formats: rendering does not depend on the day ctxc runs (its output
/// is deterministic). It is the date Llama 3.1's template writes when `strftime_now` is missing.
const RENDER_DATE: &str = "2024-07-26 00:00:00 (a Friday)";

/// The special tokens transformers always passes (`SPECIAL_TOKENS_ATTRIBUTES`), when set.
const NAMED_TOKENS: [&str; 7] = ["bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"];

/// One template of a model: its name (`default`, `tool_use`…, `None` for a single template),
/// its source, and where each of its bytes is in the file (`None` when the file is the template).
#[derive(Debug, Clone, PartialEq)]
struct Named {
    name: Option<String>,
    source: String,
    offsets: Option<Vec<usize>>,
}

/// A model's chat template, read from its files, with the special tokens it is rendered with.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatTemplate {
    /// The display path of the file the template was read from.
    pub file: String,
    templates: Vec<Named>,
    /// The variables transformers passes besides the conversation: `bos_token`, `eos_token`… as
    /// the tokenizer configuration sets them, as one template value made once: every render
    /// reads it where it is (a configuration of 60,000 tokens and a request of 1,200 tools, two
    /// renders per tool, took 19 s when each render copied the tokens into its context).
    pub special_tokens: Value,
    /// How it was chosen, for the label of the counts made with it (see [`ChatTemplate::found`]).
    pub found: String,
}

/// The texts a request is counted from (see [`ChatTemplate::request_texts`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestTexts {
    /// The system messages, an empty user turn and the generation prompt, without tools.
    pub without_tools: String,
    /// The same with the tool list; `None` when the request has no `tools` (an empty list is
    /// `Some`: a template may render it).
    pub with_tools: Option<String>,
    /// An empty user turn and the generation prompt: no system prompt, no tools.
    pub bare: String,
    /// For each tool, the bare request with it once and with it twice: the second copy is what
    /// the tool adds to a list.
    pub each_tool: Vec<(String, String)>,
}

impl ChatTemplate {
    /// The template (or templates) of a `tokenizer_config.json` and its special tokens; `Ok(None)`
    /// when the configuration has no `chat_template`.
    pub fn from_tokenizer_config(file: &str, text: &str) -> Result<Option<ChatTemplate>, Diagnostic> {
        let error = |at: usize, message: String| Diagnostic::error(message).code(Code::MAN010).in_file(file).at(Some(at..at));
        let ast = jsonc_parser::parse_to_ast(text, &Default::default(), &strict_json())
            .map_err(|e| error(e.range().start.min(text.len()), format!("invalid tokenizer configuration: {}", e.kind())))?;
        let Some(jsonc_parser::ast::Value::Object(object)) = ast.value else {
            return Err(error(0, "invalid tokenizer configuration: not a JSON object".to_string()));
        };
        let config: Json = jsonc_parser::ast::Value::Object(object.clone()).into();
        let special_tokens = special_tokens(&config);
        let Some(property) = object.get("chat_template") else { return Ok(None) };
        let templates = match &property.value {
            jsonc_parser::ast::Value::StringLit(lit) => vec![embedded(None, text, lit.range().start..lit.range().end)],
            jsonc_parser::ast::Value::Array(array) => {
                let mut named = Vec::new();
                for element in &array.elements {
                    let entry = element.as_object();
                    let name = entry.and_then(|o| o.get_string("name")).map(|s| s.value.to_string());
                    let template = entry.and_then(|o| o.get_string("template"));
                    let (Some(name), Some(template)) = (name, template) else {
                        let at = element.range().start;
                        return Err(error(at, "a `chat_template` list holds objects with a `name` and a `template` string".to_string()));
                    };
                    named.push(embedded(Some(name), text, template.range().start..template.range().end));
                }
                named
            }
            jsonc_parser::ast::Value::NullKeyword(_) => return Ok(None),
            other => return Err(error(other.range().start, "`chat_template` must be a string or a list of named templates".to_string())),
        };
        let template = ChatTemplate { file: file.to_string(), templates, special_tokens, found: String::new() };
        template.compile()?;
        Ok(Some(template))
    }

    /// A `chat_template.jinja` file, with the special tokens of the `tokenizer_config.json` beside
    /// it (`config`: its display path and text), as transformers loads them: the `.jinja` file
    /// takes the place of the configuration's `chat_template`.
    pub fn from_jinja(file: &str, text: &str, config: Option<(&str, &str)>) -> Result<ChatTemplate, Diagnostic> {
        let special_tokens = match config {
            Some((config_file, config_text)) => {
                let value: Json = serde_json::from_str(config_text).map_err(|e| {
                    let at = crate::diagnostic::offset_of(config_text, e.line(), e.column());
                    Diagnostic::error(format!("invalid tokenizer configuration: {e}"))
                        .code(Code::MAN010)
                        .in_file(config_file)
                        .at(Some(at..at))
                })?;
                special_tokens(&value)
            }
            None => special_tokens(&Json::Null),
        };
        let template = ChatTemplate {
            file: file.to_string(),
            templates: vec![Named { name: None, source: text.to_string(), offsets: None }],
            special_tokens,
            found: String::new(),
        };
        template.compile()?;
        Ok(template)
    }

    /// The chat template of a tokenizer folder, as transformers loads one: its `chat_template.jinja`
    /// when there is one (special tokens from the configuration), else the `chat_template` of its
    /// `tokenizer_config.json`. Each file is given as (display path, text); `Ok(None)` when
    /// neither holds a template.
    pub fn from_files(config: Option<(&str, &str)>, jinja: Option<(&str, &str)>) -> Result<Option<ChatTemplate>, Diagnostic> {
        match (jinja, config) {
            (Some((file, text)), config) => ChatTemplate::from_jinja(file, text, config).map(Some),
            (None, Some((file, text))) => ChatTemplate::from_tokenizer_config(file, text),
            (None, None) => Ok(None),
        }
    }

    /// This template, saying how it was chosen: `named by the manifest's `chat_template``,
    /// `given by --chat-template`, `found beside the tokenizer file in the Hugging Face cache (…)`.
    pub fn found(mut self, how: &str) -> ChatTemplate {
        self.found = how.to_string();
        self
    }

    /// Where the template comes from, for labels: its file and how it was chosen.
    pub fn source(&self) -> String {
        match self.found.is_empty() {
            true => self.file.clone(),
            false => format!("{}, {}", self.file, self.found),
        }
    }

    /// The template transformers' `get_chat_template` chooses: the only one; of named ones,
    /// `tool_use` when tools are passed and there is one, else `default`.
    fn choose(&self, with_tools: bool) -> Result<&Named, Diagnostic> {
        if let [only] = self.templates.as_slice() {
            return Ok(only);
        }
        let named = |name: &str| self.templates.iter().find(|t| t.name.as_deref() == Some(name));
        with_tools.then(|| named("tool_use")).flatten().or_else(|| named("default")).ok_or_else(|| {
            let names: Vec<&str> = self.templates.iter().filter_map(|t| t.name.as_deref()).collect();
            Diagnostic::error(format!(
                "the tokenizer configuration has several chat templates ({}) and none named `default`",
                names.join(", ")
            ))
            .code(Code::MAN010)
            .in_file(&self.file)
        })
    }

    /// Compiles every template, so that a syntax error is reported when the file is loaded.
    fn compile(&self) -> Result<(), Diagnostic> {
        let env = environment();
        for named in &self.templates {
            let (compiled, _) = crate::templates::within_limits(|| env.template_from_named_str("chat_template", &named.source).map(|_| ()));
            if let Err(e) = compiled {
                return Err(self.located(named, crate::templates::render_error("chat_template", &named.source, &e)));
            }
        }
        Ok(())
    }

    /// `d` (located in a template's source) located in the file the template was read from.
    fn located(&self, named: &Named, mut d: Diagnostic) -> Diagnostic {
        if let (Some(offsets), Some(span)) = (&named.offsets, d.span.clone()) {
            let at = |i: usize| offsets[i.min(offsets.len() - 1)];
            d.span = Some(at(span.start)..at(span.end));
        }
        d.file = Some(self.file.clone());
        d.related.clear();
        d
    }

    /// The text `apply_chat_template(messages, tools=tools, add_generation_prompt=…,
    /// tokenize=False)` returns. `messages` is a JSON array of `{role, content, …}` objects (keys
    /// whose value is null are dropped, as transformers drops them); `tools` are passed in
    /// transformers' JSON-schema form `{"type": "function", "function": {name, description,
    /// parameters}}`, `None` when the request has none.
    pub fn render(&self, messages: &[Json], tools: Option<&[&Tool]>, add_generation_prompt: bool) -> Result<String, Diagnostic> {
        let named = self.choose(tools.is_some())?;
        let messages: Vec<Json> = messages
            .iter()
            .map(|m| match m {
                Json::Object(fields) => {
                    Json::Object(fields.iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (k.clone(), v.clone())).collect())
                }
                other => other.clone(),
            })
            .collect();
        let tools: Option<Vec<Json>> = tools.map(|tools| tools.iter().map(|t| function_schema(t)).collect());
        let request = minijinja::context! {
            messages => Value::from_serialize(&messages),
            tools => Value::from_serialize(&tools),
            documents => (),
            add_generation_prompt => add_generation_prompt,
        };
        // The request's variables over the special tokens, as transformers passes them.
        let context = minijinja::value::merge_maps([self.special_tokens.clone(), request]);
        let env = environment();
        crate::templates::render_bounded(&env, "chat_template", &named.source, context, &|_| self.file.clone())
            .map_err(|d| self.located(named, d))
    }

    /// The renders a request's fixed part is counted from: each of `system` as a system message,
    /// an empty user message and the generation prompt, with and without `tools` (`None`: no
    /// `tools` in the request), and each tool in a request of its own (once and twice) to tell
    /// its own text from the text around the list.
    pub fn request_texts(&self, system: &[String], tools: Option<&[&Tool]>) -> Result<RequestTexts, Diagnostic> {
        let user = json!({"role": "user", "content": ""});
        let mut conversation: Vec<Json> = system.iter().map(|p| json!({"role": "system", "content": p})).collect();
        conversation.push(user.clone());
        let bare = [user];
        let without_tools = self.render(&conversation, None, true)?;
        let with_tools = tools.map(|tools| self.render(&conversation, Some(tools), true)).transpose()?;
        let each_tool = tools
            .unwrap_or_default()
            .iter()
            .map(|tool| Ok((self.render(&bare, Some(&[tool]), true)?, self.render(&bare, Some(&[tool, tool]), true)?)))
            .collect::<Result<_, Diagnostic>>()?;
        Ok(RequestTexts { without_tools, with_tools, bare: self.render(&bare, None, true)?, each_tool })
    }
}

/// The fixed part of a request counted from its renders (`count`: the tokenizer's count of a
/// text). The system messages' framing is the rendered request without them, each piece
/// between them counted alone; a tool costs what a second copy of it adds to a list; the tool
/// list's framing is what one tool adds beyond its own cost (all an empty list adds); a chat
/// template has no preamble apart from that framing.
pub fn count_request(texts: &RequestTexts, system: &[String], count: &dyn Fn(&str) -> usize) -> super::RequestTokens {
    let n = |text: &str| count(text) as i64;
    let without_tools = n(&texts.without_tools);
    let framing = message_framing(&texts.without_tools, system, &n);
    let tools: Vec<i64> = texts.each_tool.iter().map(|(once, twice)| n(twice) - n(once)).collect();
    let tools_total = texts.with_tools.as_deref().map_or(0, |with| n(with) - without_tools);
    let tool_framing = match (texts.each_tool.first(), tools.first()) {
        (Some((once, _)), Some(own)) => n(once) - n(&texts.bare) - own,
        _ => tools_total,
    };
    super::RequestTokens { tools, tool_framing, preamble: 0, tools_total, framing, without_tools }
}

/// The text of `request` around the `system` messages, each piece counted alone: each message
/// is found after the one before (as written, or trimmed, as some templates write it); one not
/// found is taken out by its count.
fn message_framing(request: &str, system: &[String], n: &dyn Fn(&str) -> i64) -> i64 {
    let mut framing = 0;
    let mut rest = request;
    let mut not_found = 0;
    for message in system {
        let found = [message.as_str(), message.trim()].into_iter().find_map(|m| rest.find(m).map(|at| (at, m.len())));
        match found {
            Some((at, len)) => {
                framing += n(&rest[..at]);
                rest = &rest[at + len..];
            }
            None => not_found += n(message),
        }
    }
    framing + n(rest) - not_found
}

/// A tool as transformers passes it to a chat template (`get_json_schema`'s form).
pub fn function_schema(tool: &Tool) -> Json {
    json!({"type": "function", "function": tool.function_value()})
}

/// Plain JSON, as Python's `json.load` reads a tokenizer configuration (and the base of the
/// looser forms hosts read).
pub fn strict_json() -> jsonc_parser::ParseOptions {
    jsonc_parser::ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// The template held by the JSON string literal at `literal` (quotes included) in `text`, with
/// the file offset of each of its bytes, so that its errors point into the file.
fn embedded(name: Option<String>, text: &str, literal: Range<usize>) -> Named {
    let raw = &text[literal.start + 1..literal.end - 1];
    let mut source = String::with_capacity(raw.len());
    let mut offsets = Vec::with_capacity(raw.len() + 1);
    let mut chars = raw.char_indices().peekable();
    let mut push = |source: &mut String, c: char, at: usize| {
        for _ in 0..c.len_utf8() {
            offsets.push(literal.start + 1 + at);
        }
        source.push(c);
    };
    while let Some((at, c)) = chars.next() {
        if c != '\\' {
            push(&mut source, c, at);
            continue;
        }
        let Some((_, escaped)) = chars.next() else { break };
        let decoded = match escaped {
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'u' => {
                let hex = |chars: &mut std::iter::Peekable<std::str::CharIndices>| {
                    let digits: String = (0..4).filter_map(|_| chars.next().map(|(_, c)| c)).collect();
                    u32::from_str_radix(&digits, 16).unwrap_or(0xFFFD)
                };
                let high = hex(&mut chars);
                let code = if (0xD800..0xDC00).contains(&high) && raw[chars.peek().map_or(raw.len(), |(i, _)| *i)..].starts_with("\\u") {
                    chars.next();
                    let low = hex(&mut chars);
                    0x10000 + ((high - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF)
                } else {
                    high
                };
                char::from_u32(code).unwrap_or('\u{FFFD}')
            }
            other => other,
        };
        push(&mut source, decoded, at);
    }
    offsets.push(literal.end - 1);
    Named { name, source, offsets: Some(offsets) }
}

/// The special tokens a tokenizer configuration gives a template: the named ones transformers
/// always passes, and every other `…_token` key holding a token (Gemma's `boi_token`…), and the
/// named tokens of `extra_special_tokens`. A token is a string or an `AddedToken` object.
fn special_tokens(config: &Json) -> Value {
    let token = |value: &Json| match value {
        Json::String(s) => Some(s.clone()),
        Json::Object(o) => o.get("content").and_then(Json::as_str).map(str::to_string),
        _ => None,
    };
    let mut tokens: Vec<(String, String)> = Vec::new();
    let Some(fields) = config.as_object() else { return Value::from_iter(tokens) };
    for (key, value) in fields {
        if NAMED_TOKENS.contains(&key.as_str()) || key.ends_with("_token") {
            tokens.extend(token(value).map(|t| (key.clone(), t)));
        }
    }
    if let Some(extra) = fields.get("extra_special_tokens").and_then(Json::as_object) {
        for (key, value) in extra {
            tokens.extend(token(value).map(|t| (key.clone(), t)));
        }
    }
    Value::from_iter(tokens)
}

/// transformers' template environment on ctxc's engine and limits.
fn environment() -> minijinja::Environment<'static> {
    let mut env = minijinja::Environment::new();
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Lenient);
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_fuel(Some(crate::templates::TEMPLATE_FUEL));
    env.set_unknown_method_callback(crate::templates::python_method);
    env.add_filter("tojson", tojson);
    env.add_function("raise_exception", raise_exception);
    env.add_function("strftime_now", strftime_now);
    env
}

fn raise_exception(message: String) -> Result<Value, minijinja::Error> {
    Err(minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, format!("the chat template raised an exception: {message}")))
}

/// Python's `datetime.strftime` of [`RENDER_DATE`].
fn strftime_now(format: String) -> Result<Value, minijinja::Error> {
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut spec = chars.next();
        // glibc's `%-d`: without padding.
        let unpadded = spec == Some('-');
        if unpadded {
            spec = chars.next();
        }
        let field = match spec {
            Some('a') => "Fri",
            Some('A') => "Friday",
            Some('b' | 'h') => "Jul",
            Some('B') => "July",
            Some('d') => "26",
            Some('e') => "26",
            Some('m') => "07",
            Some('y') => "24",
            Some('Y') => "2024",
            Some('H' | 'M' | 'S') => "00",
            Some('I') => "12",
            Some('p') => "AM",
            Some('j') => "208",
            Some('u') => "5",
            Some('w') => "5",
            Some('F') => "2024-07-26",
            Some('D') => "07/26/24",
            Some('%') => "%",
            other => {
                return Err(minijinja::Error::new(
                    minijinja::ErrorKind::InvalidOperation,
                    format!(
                        "strftime_now: `%{}` is not supported (ctxc renders the date {RENDER_DATE})",
                        other.map(String::from).unwrap_or_default()
                    ),
                ))
            }
        };
        let field = if unpadded { field.trim_start_matches('0') } else { field };
        // A field is up to five times its two characters: charged as written.
        minijinja::budget::charge(field.len())?;
        out.push_str(field);
    }
    Ok(Value::from(out))
}

/// transformers' `tojson`: `json.dumps(x, ensure_ascii=False, indent=None, separators=None,
/// sort_keys=False)`, each keyword (or the first positional argument, `ensure_ascii`) as there.
fn tojson(value: &Value, args: &[Value], kwargs: Kwargs) -> Result<Value, minijinja::Error> {
    let arg = |i: usize, name: &str| -> Result<Option<Value>, minijinja::Error> {
        Ok(args.get(i).cloned().or(kwargs.get::<Option<Value>>(name)?).filter(|v| !v.is_none() && !v.is_undefined()))
    };
    let ensure_ascii = arg(0, "ensure_ascii")?.is_some_and(|v| v.is_true());
    let indent = match arg(1, "indent")? {
        None => None,
        Some(v) if v.kind() == ValueKind::String => Some(v.as_str().unwrap_or_default().to_string()),
        Some(v) => {
            let width = usize::try_from(v.clone()).or_else(|_| i64::try_from(v).map(|_| 0))?;
            // The indentation is made from a number: charged before it is allocated.
            minijinja::budget::charge(width)?;
            Some(" ".repeat(width))
        }
    };
    let separators = match arg(2, "separators")? {
        Some(v) => {
            let parts: Vec<String> = v.try_iter()?.map(|p| p.as_str().map(str::to_string).unwrap_or_else(|| p.to_string())).collect();
            match parts.as_slice() {
                [item, key] => (item.clone(), key.clone()),
                _ => return Err(minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, "tojson: separators must be two strings")),
            }
        }
        None if indent.is_some() => (",".to_string(), ": ".to_string()),
        None => (", ".to_string(), ": ".to_string()),
    };
    let sort_keys = arg(3, "sort_keys")?.is_some_and(|v| v.is_true());
    kwargs.assert_all_used()?;
    let mut writer = JsonWriter { out: String::new(), ensure_ascii, indent, separators, sort_keys };
    writer.value(value, 0)?;
    Ok(Value::from(writer.out))
}

/// Writes a template value as Python's `json.dumps` does.
struct JsonWriter {
    out: String,
    ensure_ascii: bool,
    indent: Option<String>,
    /// (between items, between a key and its value)
    separators: (String, String),
    sort_keys: bool,
}

impl JsonWriter {
    fn push(&mut self, text: &str) -> Result<(), minijinja::Error> {
        // Indentation grows with depth: charged as written, not after.
        minijinja::budget::charge(text.len())?;
        self.out.push_str(text);
        Ok(())
    }

    fn newline(&mut self, depth: usize) -> Result<(), minijinja::Error> {
        if let Some(indent) = &self.indent {
            minijinja::budget::charge_many(depth, indent.len())?;
            self.out.push('\n');
            for _ in 0..depth {
                self.out.push_str(indent);
            }
        }
        Ok(())
    }

    fn value(&mut self, value: &Value, depth: usize) -> Result<(), minijinja::Error> {
        match value.kind() {
            ValueKind::None => self.push("null"),
            ValueKind::Bool => self.push(if value.is_true() { "true" } else { "false" }),
            ValueKind::Number if value.is_integer() => self.push(&value.to_string()),
            ValueKind::Number => self.push(&python_float(f64::try_from(value.clone())?)),
            ValueKind::String => {
                let text = string_literal(value.as_str().unwrap_or_default(), self.ensure_ascii);
                self.push(&text)
            }
            ValueKind::Map => {
                let mut keys: Vec<Value> = value.try_iter()?.collect();
                if keys.is_empty() {
                    return self.push("{}");
                }
                if self.sort_keys {
                    keys.sort_by_key(|k| k.to_string());
                }
                self.push("{")?;
                for (i, key) in keys.iter().enumerate() {
                    if i > 0 {
                        let separator = self.separators.0.clone();
                        self.push(&separator)?;
                    }
                    self.newline(depth + 1)?;
                    let name = match key.kind() {
                        ValueKind::String => key.as_str().unwrap_or_default().to_string(),
                        ValueKind::None => "null".to_string(),
                        ValueKind::Bool => (if key.is_true() { "true" } else { "false" }).to_string(),
                        _ => key.to_string(),
                    };
                    self.push(&string_literal(&name, self.ensure_ascii))?;
                    let separator = self.separators.1.clone();
                    self.push(&separator)?;
                    self.value(&value.get_item(key)?, depth + 1)?;
                }
                self.newline(depth)?;
                self.push("}")
            }
            ValueKind::Seq | ValueKind::Iterable => {
                let items: Vec<Value> = value.try_iter()?.collect();
                if items.is_empty() {
                    return self.push("[]");
                }
                self.push("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        let separator = self.separators.0.clone();
                        self.push(&separator)?;
                    }
                    self.newline(depth + 1)?;
                    self.value(item, depth + 1)?;
                }
                self.newline(depth)?;
                self.push("]")
            }
            kind => Err(minijinja::Error::new(
                minijinja::ErrorKind::InvalidOperation,
                format!("tojson: a value of kind {kind} is not JSON serializable (as in Python)"),
            )),
        }
    }
}

/// A float as Python's `repr` writes it: the shortest digits that read back, in positional
/// notation for exponents -4 to 15, else as `1.5e+20`; `NaN` and `Infinity` as `json.dumps`.
fn python_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    let sci = format!("{f:e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if negative { "-" } else { "" };
    if (-4..16).contains(&exponent) {
        let point = exponent + 1;
        let body = if point <= 0 {
            format!("0.{}{digits}", "0".repeat((-point) as usize))
        } else if point as usize >= digits.len() {
            format!("{digits}{}.0", "0".repeat(point as usize - digits.len()))
        } else {
            format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
        };
        format!("{sign}{body}")
    } else {
        let rest = if digits.len() > 1 { format!(".{}", &digits[1..]) } else { String::new() };
        let exp_sign = if exponent < 0 { '-' } else { '+' };
        format!("{sign}{}{rest}e{exp_sign}{:02}", &digits[..1], exponent.abs())
    }
}

/// A JSON string as Python's `json.dumps` writes it (`\uXXXX` in lower case; with
/// `ensure_ascii`, every non-ASCII character too, as UTF-16).
fn string_literal(text: &str, ensure_ascii: bool) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (ensure_ascii && !c.is_ascii()) => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(source: &str, context: Value) -> Result<String, Diagnostic> {
        crate::templates::render_bounded(&environment(), "t", source, context, &|n| n.to_string())
    }

    #[test]
    fn tojson_writes_as_python_json_dumps() {
        let data =
            Value::from_serialize(json!({"b": 1, "a": [1.5, 1e20, 1e-5, 0.1, 2.0, "é\"\n\u{1}"], "c": {}, "d": [], "e": null, "f": true}));
        let ctx = minijinja::context! { d => data };
        assert_eq!(
            render("{{ d|tojson }}", ctx.clone()).expect("renders"),
            r#"{"b": 1, "a": [1.5, 1e+20, 1e-05, 0.1, 2.0, "é\"\n\u0001"], "c": {}, "d": [], "e": null, "f": true}"#
        );
        assert_eq!(
            render("{{ d.a[:1]|tojson(indent=2) }}|{{ d|tojson(separators=(',', ':'), sort_keys=true) }}", ctx.clone()).expect("renders"),
            "[\n  1.5\n]|{\"a\":[1.5,1e+20,1e-05,0.1,2.0,\"é\\\"\\n\\u0001\"],\"b\":1,\"c\":{},\"d\":[],\"e\":null,\"f\":true}"
        );
        assert_eq!(render("{{ 'é😀'|tojson(ensure_ascii=true) }}", ctx).expect("renders"), r#""\u00e9\ud83d\ude00""#);
    }

    #[test]
    fn the_environment_is_transformers() {
        let ctx = minijinja::context! { bos_token => "<s>" };
        // trim_blocks and lstrip_blocks, break, Python's methods, lenient undefined, strftime_now.
        let source = "{{ bos_token }}\n  {% for i in range(5) %}\n{% if i == 2 %}{% break %}{% endif %}{{ i }}\n  {% endfor %}\n{{ 'a,b'.split(',')|length }}{{ missing }}{{ strftime_now('%d %b %Y') }}";
        assert_eq!(render(source, ctx).expect("renders"), "<s>\n0\n1\n226 Jul 2024");
        let d = render("line\n{{ raise_exception('no system role') }}", Value::UNDEFINED).expect_err("raises");
        assert!(d.message.contains("no system role") && d.span.is_some(), "{d:?}");
    }

    #[test]
    fn a_template_in_a_tokenizer_configuration_is_located_in_the_file() {
        let config = r#"{"bos_token": {"__type": "AddedToken", "content": "<s>"}, "eos_token": "</s>", "add_bos_token": true, "boi_token": "<img>",
"chat_template": "{{ bos_token }}{% for m in messages %}\n{{ m['content'] }}{% endfor %}{{ eos_token }}"}"#;
        let t = ChatTemplate::from_tokenizer_config("tokenizer_config.json", config).expect("valid").expect("has a template");
        assert_eq!(t.special_tokens, Value::from_iter([("bos_token", "<s>"), ("eos_token", "</s>"), ("boi_token", "<img>")]));
        let text = t.render(&[json!({"role": "user", "content": "hi"})], None, true).expect("renders");
        assert_eq!(text, "<s>hi</s>");
        let broken = config.replace("{% endfor %}", "{% endfor");
        let d = ChatTemplate::from_tokenizer_config("tokenizer_config.json", &broken).expect_err("a syntax error");
        let span = d.span.clone().expect("located");
        assert_eq!(d.file.as_deref(), Some("tokenizer_config.json"));
        assert!(broken[..span.start].contains("{% endfor") && span.start > broken.find("chat_template").expect("key"), "{d:?}");
    }

    #[test]
    fn named_templates_are_chosen_as_transformers_chooses() {
        let config = r#"{"chat_template": [{"name": "default", "template": "plain"}, {"name": "tool_use", "template": "tools:{{ tools|length }}"}]}"#;
        let t = ChatTemplate::from_tokenizer_config("c.json", config).expect("valid").expect("templates");
        let tool = Tool::new("f".into(), "does f".to_string(), json!({"type": "object"}), None);
        assert_eq!(t.render(&[], None, false).expect("renders"), "plain");
        assert_eq!(t.render(&[], Some(&[&tool]), false).expect("renders"), "tools:1");
        assert!(ChatTemplate::from_tokenizer_config("c.json", r#"{"eos_token": "x"}"#).expect("valid").is_none());
    }

    #[test]
    fn hostile_templates_end_in_diagnostics() {
        for source in [
            "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
            "{{ messages|tojson(indent=100000000) }}",
            "{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
        ] {
            let t = ChatTemplate::from_jinja("chat_template.jinja", source, None).expect("compiles");
            let d = t
                .render(&[json!({"role": "user", "content": "hi"}), json!({"role": "user", "content": "hi"})], None, true)
                .expect_err("over a limit");
            assert_eq!((d.code, d.file.as_deref()), (Some(Code::TPL004), Some("chat_template.jinja")), "{source}: {d:?}");
        }
    }

    #[test]
    fn python_float_repr() {
        for (f, text) in [
            (1.0, "1.0"),
            (0.0001, "0.0001"),
            (1e16, "1e+16"),
            (123456789012345.6, "123456789012345.6"),
            (-2.5e-7, "-2.5e-07"),
            (1e15, "1000000000000000.0"),
        ] {
            assert_eq!(python_float(f), text);
        }
    }
}
