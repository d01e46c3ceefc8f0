//! `ctxc lsp`: a Language Server over stdio. This file speaks JSON-RPC only; what it answers
//! comes from `ctxc::editor`. Messages waiting together are taken as one batch: every change
//! in it is applied, the project is re-checked once, then the requests are answered.

use std::path::PathBuf;

use clap::Args;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use serde_json::{json, Value};

use ctxc::editor::{self, Finding, Position, Range, Workspace};

use super::lsp_protocol::{self as lsp, path_of, uri_of};
use super::{EXIT_INPUT, EXIT_OK};

#[derive(Debug, Args)]
pub struct LspArgs {
    #[command(flatten)]
    set: super::SetArgs,
    /// The model's own tokenizer file, as on other commands (as `--set agent.tokenizer=PATH`).
    #[arg(long, value_name = "PATH")]
    tokenizer: Option<PathBuf>,
    /// The model's chat template, as on other commands (as `--set agent.chat_template=PATH`).
    #[arg(long, value_name = "PATH")]
    chat_template: Option<PathBuf>,
}

/// The id of the request asking the client to watch the files (see [`watch_request`]).
const WATCH_ID: &str = "ctxc-watch";

/// The custom request of a preview pane: the rendered prompt of one mode and scenario.
const RENDER: &str = "ctxc/render";

pub fn run(args: LspArgs) -> u8 {
    let stdio = super::lsp_stdio::Stdio::start();
    let served = serve(&stdio.connection, args);
    let stopped = stdio.finish();
    match (served, stopped) {
        // A stream that broke off is the cause of whatever the server then failed at.
        (_, Some(why)) => {
            super::output::eprint(&format!("ctxc lsp: stopped reading the client: {why}\n"));
            EXIT_INPUT
        }
        (Err(e), None) => {
            super::output::eprint(&format!("ctxc lsp: {e}\n"));
            EXIT_INPUT
        }
        (Ok(()), None) => EXIT_OK,
    }
}

/// Full text synchronisation (`textDocumentSync` 1), and the requests [`respond`] answers.
fn capabilities() -> Value {
    json!({
        "textDocumentSync": 1,
        "hoverProvider": true,
        "definitionProvider": true,
        "completionProvider": {"triggerCharacters": ["[", ".", "\"", " "]},
        "codeActionProvider": true,
        "inlayHintProvider": true,
    })
}

fn serve(connection: &Connection, args: LspArgs) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (id, params) = connection.initialize_start()?;
    let params: lsp::Initialize = serde_json::from_value(params)?;
    // `rootUri` is what older clients send; folders come first.
    let root = params
        .workspace_folders
        .as_ref()
        .and_then(|f| f.first())
        .map(|f| f.uri.clone())
        .or(params.root_uri)
        .and_then(|uri| path_of(&uri))
        .map_or_else(std::env::current_dir, Ok)?;
    // Whether the client watches files for the server when asked (most send no file events
    // unless asked; what they do not report is still seen when the agents are next checked).
    let watches = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|w| w.dynamic_registration)
        .unwrap_or(false);
    let result = json!({"capabilities": capabilities(), "serverInfo": {"name": "ctxc", "version": env!("CARGO_PKG_VERSION")}});
    connection.initialize_finish(id, result)?;
    let mut set = args.set.set;
    set.extend(super::file_override("agent.tokenizer", args.tokenizer.as_deref()));
    set.extend(super::file_override("agent.chat_template", args.chat_template.as_deref()));
    let mut workspace = Workspace::new(&root, ctxc::lint::Options::default(), set);
    // The time spent placing findings and sending them (`CTXC_TIMINGS`: printed at shutdown).
    let mut reporting = std::time::Duration::ZERO;
    let refreshed = workspace.refresh_all();
    let started = std::time::Instant::now();
    publish(connection, refreshed)?;
    reporting += started.elapsed();
    if watches {
        connection.sender.send(Message::Request(watch_request(&workspace)))?;
    }
    while let Ok(first) = connection.receiver.recv() {
        let mut batch = vec![first];
        batch.extend(connection.receiver.try_iter());
        let mut changed: Vec<PathBuf> = Vec::new();
        let mut requests = Vec::new();
        for message in batch {
            match message {
                Message::Request(request) => requests.push(request),
                Message::Notification(n) if n.method == "exit" => return Ok(()),
                Message::Notification(n) => changed.extend(apply(&mut workspace, n)),
                // The client watches every file for the server: its reports can be trusted.
                Message::Response(r) if r.id == WATCH_ID.to_string().into() && r.error.is_none() => workspace.trust_reports(),
                Message::Response(_) => {}
            }
        }
        if !changed.is_empty() {
            changed.sort();
            changed.dedup();
            let refreshed = workspace.refresh(&changed);
            let started = std::time::Instant::now();
            publish(connection, refreshed)?;
            reporting += started.elapsed();
        }
        for request in requests {
            if connection.handle_shutdown(&request)? {
                super::print_timings_took(workspace.session(), reporting);
                return Ok(());
            }
            let response = answer(&mut workspace, request);
            connection.sender.send(Message::Response(response))?;
        }
    }
    Ok(())
}

/// The request asking the client to report changes of the files the project reads
/// (`workspace/didChangeWatchedFiles`), made after the first check has read them.
fn watch_request(workspace: &Workspace) -> Request {
    let watchers: Vec<Value> = workspace.watched().into_iter().map(|glob| json!({"globPattern": glob})).collect();
    let registration = json!({
        "id": "ctxc-watched-files",
        "method": "workspace/didChangeWatchedFiles",
        "registerOptions": {"watchers": watchers},
    });
    Request::new(WATCH_ID.to_string().into(), "client/registerCapability".into(), json!({"registrations": [registration]}))
}

/// Applies a notification; returns the files it changed.
fn apply(workspace: &mut Workspace, n: Notification) -> Vec<PathBuf> {
    let params = n.params;
    let set = |workspace: &mut Workspace, uri: &str, text: Option<String>| path_of(uri).map(|p| workspace.set_text(&p, text));
    match n.method.as_str() {
        "textDocument/didOpen" => serde_json::from_value::<lsp::DidOpen>(params)
            .ok()
            .and_then(|p| set(workspace, &p.text_document.uri, Some(p.text_document.text)))
            .into_iter()
            .collect(),
        // Full synchronisation: the last change holds the whole text.
        "textDocument/didChange" => serde_json::from_value::<lsp::DidChange>(params)
            .ok()
            .and_then(|p| {
                let text = p.content_changes.into_iter().last()?.text;
                set(workspace, &p.text_document.uri, Some(text))
            })
            .into_iter()
            .collect(),
        "textDocument/didClose" => serde_json::from_value::<lsp::OnDocument>(params)
            .ok()
            .and_then(|p| set(workspace, &p.text_document.uri, None))
            .into_iter()
            .collect(),
        "workspace/didChangeWatchedFiles" => {
            workspace.disk_changed();
            serde_json::from_value::<lsp::WatchedChanges>(params)
                .map(|p| p.changes.iter().filter_map(|c| path_of(&c.uri)).map(|p| editor::canonical(&p)).collect())
                .unwrap_or_default()
        }
        _ => Vec::new(),
    }
}

fn publish(connection: &Connection, published: Vec<editor::Published>) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    for file in published {
        let Some(uri) = uri_of(&file.path) else { continue };
        let diagnostics: Vec<Value> = file.findings.iter().map(diagnostic).collect();
        let params = json!({"uri": uri, "diagnostics": diagnostics});
        connection.sender.send(Message::Notification(Notification::new("textDocument/publishDiagnostics".into(), params)))?;
    }
    Ok(())
}

fn position(p: Position) -> Value {
    json!({"line": p.line, "character": p.character})
}

fn range(r: Range) -> Value {
    json!({"start": position(r.start), "end": position(r.end)})
}

/// A finding as a diagnostic: severity 1 is an error, 2 a warning.
fn diagnostic(f: &Finding) -> Value {
    let severity = match f.severity {
        ctxc::Severity::Error => 1,
        ctxc::Severity::Warning => 2,
    };
    let mut diagnostic = json!({"range": range(f.range), "severity": severity, "source": "ctxc", "message": f.message});
    if let Some(code) = f.code {
        diagnostic["code"] = json!(code.to_string());
    }
    diagnostic
}

fn answer(workspace: &mut Workspace, request: Request) -> Response {
    let id = request.id.clone();
    match respond(workspace, request) {
        Ok(result) => Response::new_ok(id, result),
        Err((code, message)) => Response::new_err(id, code as i32, message),
    }
}

type Answer = Result<Value, (ErrorCode, String)>;

fn params<T: serde::de::DeserializeOwned>(request: Request) -> Result<T, (ErrorCode, String)> {
    serde_json::from_value(request.params).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
}

fn file(uri: &str) -> Result<PathBuf, (ErrorCode, String)> {
    path_of(uri).ok_or_else(|| (ErrorCode::InvalidParams, format!("`{uri}` is not a file")))
}

fn at(p: lsp::Position) -> Position {
    Position { line: p.line, character: p.character }
}

fn respond(workspace: &mut Workspace, request: Request) -> Answer {
    match request.method.as_str() {
        "textDocument/hover" => hover(workspace, request),
        "textDocument/definition" => definition(workspace, request),
        "textDocument/completion" => completion(workspace, request),
        "textDocument/codeAction" => code_actions(workspace, request),
        "textDocument/inlayHint" => inlay_hints(workspace, request),
        RENDER => render(workspace, request),
        other => Err((ErrorCode::MethodNotFound, format!("ctxc lsp does not handle `{other}`"))),
    }
}

/// Markdown on what the position names (in a manifest) or on the file (anywhere else).
fn hover(workspace: &mut Workspace, request: Request) -> Answer {
    let p: lsp::AtPosition = params(request)?;
    let hover = workspace.hover(&file(&p.text_document.uri)?, at(p.position));
    Ok(hover.map_or(Value::Null, |markdown| json!({"contents": markdown_content(markdown)})))
}

/// The files a reference in a manifest leads to.
fn definition(workspace: &mut Workspace, request: Request) -> Answer {
    let p: lsp::AtPosition = params(request)?;
    let targets = workspace.definition(&file(&p.text_document.uri)?, at(p.position));
    let locations: Vec<Value> =
        targets.iter().filter_map(|path| uri_of(path)).map(|uri| json!({"uri": uri, "range": range(Range::default())})).collect();
    Ok(json!(locations))
}

/// Manifest keys and values that fit at the position.
fn completion(workspace: &mut Workspace, request: Request) -> Answer {
    let p: lsp::AtPosition = params(request)?;
    let path = file(&p.text_document.uri)?;
    let yaml = path.extension().is_some_and(|e| e == "yaml" || e == "yml");
    let text = workspace.text(&editor::canonical(&path)).unwrap_or_default();
    let offset = editor::Lines::new(&text).offset(at(p.position));
    let items: Vec<Value> = editor::complete::complete(&text, offset, yaml)
        .into_iter()
        .map(|c| {
            // Completion item kinds: 10 a property, 12 a value.
            let mut item = json!({"label": c.label, "kind": if c.key { 10 } else { 12 }, "insertText": c.insert});
            if let Some(detail) = c.detail {
                item["documentation"] = markdown_content(detail);
            }
            item
        })
        .collect();
    Ok(json!(items))
}

/// The fixes of the findings in the range, as quick fixes.
fn code_actions(workspace: &mut Workspace, request: Request) -> Answer {
    let p: lsp::OnDocument = params(request)?;
    let path = editor::canonical(&file(&p.text_document.uri)?);
    let wanted = Range { start: at(p.range.start), end: at(p.range.end) };
    let actions: Vec<Value> = workspace
        .findings(&path)
        .iter()
        .filter(|f| f.range.overlaps(&wanted))
        .filter_map(|f| Some((f, f.fix.as_ref()?)))
        .map(|(f, fix)| {
            let mut changes = serde_json::Map::new();
            for e in &fix.edits {
                if let Some(uri) = uri_of(&e.path) {
                    let edits = changes.entry(uri).or_insert_with(|| json!([]));
                    if let Value::Array(edits) = edits {
                        edits.push(json!({"range": range(e.range), "newText": e.new_text}));
                    }
                }
            }
            json!({
                "title": fix.title,
                "kind": "quickfix",
                "diagnostics": [diagnostic(f)],
                "edit": {"changes": changes},
                "isPreferred": fix.safe,
            })
        })
        .collect();
    Ok(json!(actions))
}

/// Token counts per mode beside the manifest's steps, for the lines in the range.
fn inlay_hints(workspace: &mut Workspace, request: Request) -> Answer {
    let p: lsp::OnDocument = params(request)?;
    let hints: Vec<Value> = workspace
        .inlay_hints(&file(&p.text_document.uri)?)
        .into_iter()
        .filter(|h| h.position.line >= p.range.start.line && h.position.line <= p.range.end.line)
        .map(|h| json!({"position": position(h.position), "label": h.label}))
        .collect();
    Ok(json!(hints))
}

/// `ctxc/render`: the rendered prompt of a mode and scenario.
fn render(workspace: &mut Workspace, request: Request) -> Answer {
    #[derive(serde::Deserialize)]
    struct RenderParams {
        uri: Option<String>,
        path: Option<PathBuf>,
        mode: Option<String>,
        scenario: Option<String>,
    }
    let p: RenderParams = params(request)?;
    let path = match (p.uri, p.path) {
        (Some(uri), _) => file(&uri)?,
        (None, Some(path)) => path,
        (None, None) => return Err((ErrorCode::InvalidParams, "give `uri` or `path`".into())),
    };
    let rendering = workspace.render(&path, p.mode.as_deref(), p.scenario.as_deref()).map_err(|e| (ErrorCode::RequestFailed, e))?;
    Ok(to_json(&rendering))
}

/// Markdown shown by the client (`MarkupContent`).
fn markdown_content(markdown: String) -> Value {
    json!({"kind": "markdown", "value": markdown})
}

/// An answer as JSON (one that cannot be serialized is `null`).
fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or_default()
}
