//! `ctxc lsp`: a Language Server over stdio. This file speaks JSON-RPC only; what it answers
//! comes from `ctxc::editor`. Messages waiting together are taken as one batch: every change
//! in it is applied, the project is re-checked once, then the requests are answered.

use std::path::PathBuf;

use clap::Args;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{self as lsp, Url};
use serde_json::{json, Value};

use ctxc::editor::{self, Finding, Position, Range, Workspace};

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

fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Kind(lsp::TextDocumentSyncKind::FULL)),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(vec!["[".into(), ".".into(), "\"".into(), " ".into()]),
            ..Default::default()
        }),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Simple(true)),
        inlay_hint_provider: Some(lsp::OneOf::Left(true)),
        ..Default::default()
    }
}

fn serve(connection: &Connection, args: LspArgs) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (id, params) = connection.initialize_start()?;
    let params: lsp::InitializeParams = serde_json::from_value(params)?;
    #[allow(deprecated)] // `rootUri` is what older clients send; folders come first.
    let root = params
        .workspace_folders
        .as_ref()
        .and_then(|f| f.first())
        .map(|f| f.uri.clone())
        .or(params.root_uri)
        .and_then(|uri| uri.to_file_path().ok())
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
                Message::Notification(n) if n.method == note::Exit::METHOD => return Ok(()),
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
    let watchers = workspace
        .watched()
        .into_iter()
        .map(|glob| lsp::FileSystemWatcher { glob_pattern: lsp::GlobPattern::String(glob), kind: None })
        .collect();
    let options = lsp::DidChangeWatchedFilesRegistrationOptions { watchers };
    let registration = lsp::Registration {
        id: "ctxc-watched-files".into(),
        method: note::DidChangeWatchedFiles::METHOD.into(),
        register_options: serde_json::to_value(options).ok(),
    };
    Request::new(
        WATCH_ID.to_string().into(),
        req::RegisterCapability::METHOD.into(),
        lsp::RegistrationParams { registrations: vec![registration] },
    )
}

fn path_of(uri: &Url) -> Option<PathBuf> {
    uri.to_file_path().ok()
}

/// Applies a notification; returns the files it changed.
fn apply(workspace: &mut Workspace, n: Notification) -> Vec<PathBuf> {
    let params = n.params;
    let set = |workspace: &mut Workspace, uri: &Url, text: Option<String>| path_of(uri).map(|p| workspace.set_text(&p, text));
    match n.method.as_str() {
        note::DidOpenTextDocument::METHOD => serde_json::from_value::<lsp::DidOpenTextDocumentParams>(params)
            .ok()
            .and_then(|p| set(workspace, &p.text_document.uri, Some(p.text_document.text)))
            .into_iter()
            .collect(),
        // Full synchronisation: the last change holds the whole text.
        note::DidChangeTextDocument::METHOD => serde_json::from_value::<lsp::DidChangeTextDocumentParams>(params)
            .ok()
            .and_then(|p| {
                let text = p.content_changes.into_iter().last()?.text;
                set(workspace, &p.text_document.uri, Some(text))
            })
            .into_iter()
            .collect(),
        note::DidCloseTextDocument::METHOD => serde_json::from_value::<lsp::DidCloseTextDocumentParams>(params)
            .ok()
            .and_then(|p| set(workspace, &p.text_document.uri, None))
            .into_iter()
            .collect(),
        note::DidChangeWatchedFiles::METHOD => {
            workspace.disk_changed();
            serde_json::from_value::<lsp::DidChangeWatchedFilesParams>(params)
                .map(|p| p.changes.iter().filter_map(|c| path_of(&c.uri)).map(|p| editor::canonical(&p)).collect())
                .unwrap_or_default()
        }
        _ => Vec::new(),
    }
}

fn publish(connection: &Connection, published: Vec<editor::Published>) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    for file in published {
        let Ok(uri) = Url::from_file_path(&file.path) else { continue };
        let diagnostics = file.findings.iter().map(diagnostic).collect();
        let params = lsp::PublishDiagnosticsParams { uri, diagnostics, version: None };
        connection.sender.send(Message::Notification(Notification::new(note::PublishDiagnostics::METHOD.into(), params)))?;
    }
    Ok(())
}

fn position(p: Position) -> lsp::Position {
    lsp::Position { line: p.line, character: p.character }
}

fn range(r: Range) -> lsp::Range {
    lsp::Range { start: position(r.start), end: position(r.end) }
}

fn diagnostic(f: &Finding) -> lsp::Diagnostic {
    lsp::Diagnostic {
        range: range(f.range),
        severity: Some(match f.severity {
            ctxc::Severity::Error => lsp::DiagnosticSeverity::ERROR,
            ctxc::Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        }),
        code: f.code.map(|c| lsp::NumberOrString::String(c.to_string())),
        source: Some("ctxc".into()),
        message: f.message.clone(),
        ..Default::default()
    }
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

fn file(uri: &Url) -> Result<PathBuf, (ErrorCode, String)> {
    path_of(uri).ok_or_else(|| (ErrorCode::InvalidParams, format!("`{uri}` is not a file")))
}

fn at(p: lsp::Position) -> Position {
    Position { line: p.line, character: p.character }
}

fn respond(workspace: &mut Workspace, request: Request) -> Answer {
    match request.method.as_str() {
        req::HoverRequest::METHOD => hover(workspace, request),
        req::GotoDefinition::METHOD => definition(workspace, request),
        req::Completion::METHOD => completion(workspace, request),
        req::CodeActionRequest::METHOD => code_actions(workspace, request),
        req::InlayHintRequest::METHOD => inlay_hints(workspace, request),
        RENDER => render(workspace, request),
        other => Err((ErrorCode::MethodNotFound, format!("ctxc lsp does not handle `{other}`"))),
    }
}

/// Markdown on what the position names (in a manifest) or on the file (anywhere else).
fn hover(workspace: &mut Workspace, request: Request) -> Answer {
    let p: lsp::HoverParams = params(request)?;
    let doc = p.text_document_position_params;
    let hover = workspace.hover(&file(&doc.text_document.uri)?, at(doc.position)).map(|markdown| lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent { kind: lsp::MarkupKind::Markdown, value: markdown }),
        range: None,
    });
    Ok(to_json(&hover))
}

/// The files a reference in a manifest leads to.
fn definition(workspace: &mut Workspace, request: Request) -> Answer {
    let p: lsp::GotoDefinitionParams = params(request)?;
    let doc = p.text_document_position_params;
    let targets = workspace.definition(&file(&doc.text_document.uri)?, at(doc.position));
    let locations: Vec<lsp::Location> = targets
        .iter()
        .filter_map(|path| Url::from_file_path(path).ok())
        .map(|uri| lsp::Location { uri, range: lsp::Range::default() })
        .collect();
    Ok(to_json(&lsp::GotoDefinitionResponse::Array(locations)))
}

/// Manifest keys and values that fit at the position.
fn completion(workspace: &mut Workspace, request: Request) -> Answer {
    let p: lsp::CompletionParams = params(request)?;
    let doc = p.text_document_position;
    let path = file(&doc.text_document.uri)?;
    let yaml = path.extension().is_some_and(|e| e == "yaml" || e == "yml");
    let text = workspace.text(&editor::canonical(&path)).unwrap_or_default();
    let offset = editor::Lines::new(&text).offset(at(doc.position));
    let items: Vec<lsp::CompletionItem> = editor::complete::complete(&text, offset, yaml)
        .into_iter()
        .map(|c| lsp::CompletionItem {
            label: c.label,
            kind: Some(if c.key { lsp::CompletionItemKind::PROPERTY } else { lsp::CompletionItemKind::VALUE }),
            documentation: c
                .detail
                .map(|d| lsp::Documentation::MarkupContent(lsp::MarkupContent { kind: lsp::MarkupKind::Markdown, value: d })),
            insert_text: Some(c.insert),
            ..Default::default()
        })
        .collect();
    Ok(to_json(&items))
}

/// The fixes of the findings in the range, as quick fixes.
fn code_actions(workspace: &mut Workspace, request: Request) -> Answer {
    let p: lsp::CodeActionParams = params(request)?;
    let path = editor::canonical(&file(&p.text_document.uri)?);
    let wanted = Range { start: at(p.range.start), end: at(p.range.end) };
    let actions: Vec<lsp::CodeActionOrCommand> = workspace
        .findings(&path)
        .iter()
        .filter(|f| f.range.overlaps(&wanted))
        .filter_map(|f| Some((f, f.fix.as_ref()?)))
        .map(|(f, fix)| {
            let mut changes: std::collections::HashMap<Url, Vec<lsp::TextEdit>> = std::collections::HashMap::new();
            for e in &fix.edits {
                if let Ok(uri) = Url::from_file_path(&e.path) {
                    changes.entry(uri).or_default().push(lsp::TextEdit { range: range(e.range), new_text: e.new_text.clone() });
                }
            }
            lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title: fix.title.clone(),
                kind: Some(lsp::CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic(f)]),
                edit: Some(lsp::WorkspaceEdit { changes: Some(changes), ..Default::default() }),
                is_preferred: Some(fix.safe),
                ..Default::default()
            })
        })
        .collect();
    Ok(to_json(&actions))
}

/// Token counts per mode beside the manifest's steps, for the lines in the range.
fn inlay_hints(workspace: &mut Workspace, request: Request) -> Answer {
    let p: lsp::InlayHintParams = params(request)?;
    let hints: Vec<lsp::InlayHint> = workspace
        .inlay_hints(&file(&p.text_document.uri)?)
        .into_iter()
        .filter(|h| h.position.line >= p.range.start.line && h.position.line <= p.range.end.line)
        .map(|h| lsp::InlayHint {
            position: position(h.position),
            label: lsp::InlayHintLabel::String(h.label),
            kind: None,
            text_edits: None,
            tooltip: None,
            padding_left: None,
            padding_right: None,
            data: None,
        })
        .collect();
    Ok(to_json(&hints))
}

/// `ctxc/render`: the rendered prompt of a mode and scenario.
fn render(workspace: &mut Workspace, request: Request) -> Answer {
    #[derive(serde::Deserialize)]
    struct RenderParams {
        uri: Option<Url>,
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

/// An answer as JSON (one that cannot be serialized is `null`).
fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or_default()
}
