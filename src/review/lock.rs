//! `ctxc.lock`: one per agent, next to its manifest. Deterministic TOML: the agent, its model
//! and tokenizer, where its snapshots are, then one `[[prompt]]` per mode × scenario (sorted by
//! mode, then scenario) with the sha256 and tokens of the whole prompt, of the tool schemas and
//! of every section in pipeline order. The format is documented in docs/review.md.

use serde::Deserialize;

use super::{AgentPin, PromptPin, SectionPin, ToolsPin};
use crate::diagnostic::{Diagnostic, Sources};
use crate::project::{ProjectRoot, ReadError, SourceFile};
use crate::Failure;

/// The lock file's name, next to the manifest.
pub const LOCK_NAME: &str = "ctxc.lock";
/// The format version this ctxc writes and reads.
pub const LOCK_VERSION: u32 = 1;

const HEADER: &str = "# ctxc.lock: written by `ctxc snapshot`, checked by `ctxc check --locked`. Do not edit by hand.\n";

/// A lock file's content: the pins and the snapshot folder they were written with.
#[derive(Debug, Clone, PartialEq)]
pub struct Lock {
    pub pin: AgentPin,
    /// The snapshot folder, relative to the manifest's directory.
    pub snapshots: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LockToml {
    version: u32,
    agent: String,
    #[serde(default)]
    model: Option<String>,
    tokenizer: String,
    exact: bool,
    snapshots: String,
    #[serde(default)]
    prompt: Vec<PromptToml>,
}

/// The `version` key alone, with where its value is written (any other key is read later).
#[derive(Deserialize)]
struct VersionToml {
    version: Option<toml::Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PromptToml {
    mode: String,
    scenario: String,
    #[allow(dead_code)] // written for people; the name follows from mode and scenario
    snapshot: String,
    tokens: i64,
    sha256: String,
    tool_schemas: ToolsPin,
    #[serde(default)]
    sections: Vec<SectionPin>,
}

/// A TOML string, quoted and escaped.
fn quote(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// The lock file's text for an agent's pins.
pub fn render(pin: &AgentPin, snapshots: &str) -> String {
    let mut out = String::from(HEADER);
    out.push_str(&format!("version = {LOCK_VERSION}\nagent = {}\n", quote(&pin.agent)));
    if let Some(model) = &pin.model {
        out.push_str(&format!("model = {}\n", quote(model)));
    }
    out.push_str(&format!("tokenizer = {}\nexact = {}\nsnapshots = {}\n", quote(&pin.tokenizer), pin.exact, quote(snapshots)));
    for p in &pin.prompts {
        let t = &p.tool_schemas;
        out.push_str(&format!(
            "\n[[prompt]]\nmode = {}\nscenario = {}\nsnapshot = {}\ntokens = {}\nsha256 = {}\ntool_schemas = {{ tools = {}, tokens = {}, sha256 = {} }}\nsections = [\n",
            quote(&p.mode),
            quote(&p.scenario),
            quote(&super::file_name(&p.mode, &p.scenario)),
            p.tokens,
            quote(&p.sha256),
            t.tools,
            t.tokens,
            quote(&t.sha256),
        ));
        for s in &p.sections {
            out.push_str(&format!(
                "    {{ id = {}, step = {}, tokens = {}, tokenizer = {}, exact = {}, sha256 = {} }},\n",
                quote(&s.id),
                s.step,
                s.tokens,
                quote(&s.tokenizer),
                s.exact,
                quote(&s.sha256)
            ));
        }
        out.push_str("]\n");
    }
    out
}

/// What to do about a lock or snapshot file that cannot be read.
pub const REWRITE: &str = "remove it and run `ctxc snapshot` to write the snapshots and the lock file again";

/// Reads an agent's lock file under the rules of every file ctxc reads (a regular file inside
/// the project, within the size limit, UTF-8): `None` when there is none.
pub fn read(root: &ProjectRoot) -> Result<Option<SourceFile>, Box<Diagnostic>> {
    match root.read(LOCK_NAME) {
        Ok(file) => Ok(Some(file)),
        Err(ReadError::Missing(_)) => Ok(None),
        Err(e) => Err(Box::new(Diagnostic::error(e.message()).in_file(root.display_path(LOCK_NAME)).help(REWRITE))),
    }
}

/// Parses a lock file's text; `display` names it in diagnostics (which carry line and column).
pub fn parse(text: &str, display: &str) -> Result<Lock, Failure> {
    let fail = |message: String, span: Option<std::ops::Range<usize>>| {
        let mut sources = Sources::default();
        sources.insert(display, text);
        let d = Diagnostic::error(message)
            .in_file(display)
            .at(span)
            .label("here")
            .help("ctxc.lock is written by `ctxc snapshot`: run it again to rewrite the file");
        Failure { diagnostics: vec![d], sources }
    };
    // The version first, so that a lock from another format version is named as such.
    let version =
        toml::from_str::<VersionToml>(text).map_err(|e| fail(format!("{LOCK_NAME} is not valid TOML: {}", e.message()), e.span()))?.version;
    match version.as_ref().map(|v| (v.get_ref().as_integer(), v.span())) {
        Some((Some(v), _)) if v == i64::from(LOCK_VERSION) => {}
        Some((Some(v), span)) => {
            return Err(fail(format!("{LOCK_NAME} has format version {v}; this ctxc reads version {LOCK_VERSION}"), Some(span)))
        }
        _ => return Err(fail(format!("{LOCK_NAME} has no `version`"), Some(0..0))),
    }
    let raw: LockToml = toml::from_str(text).map_err(|e| fail(format!("{LOCK_NAME}: {}", e.message()), e.span()))?;
    let _ = raw.version;
    let prompts = raw
        .prompt
        .into_iter()
        .map(|p| PromptPin {
            mode: p.mode,
            scenario: p.scenario,
            tokens: p.tokens,
            sha256: p.sha256,
            tool_schemas: p.tool_schemas,
            sections: p.sections,
            text: None,
        })
        .collect();
    Ok(Lock {
        pin: AgentPin { agent: raw.agent, model: raw.model, tokenizer: raw.tokenizer, exact: raw.exact, prompts },
        snapshots: raw.snapshots,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pin() -> AgentPin {
        let section = |id: &str, step| SectionPin {
            id: id.into(),
            step,
            tokens: 10,
            tokenizer: "o200k_base".into(),
            exact: true,
            sha256: super::super::sha256_hex(id),
        };
        AgentPin {
            agent: "a \"quoted\" agent".into(),
            model: Some("gpt-4o".into()),
            tokenizer: "o200k_base".into(),
            exact: true,
            prompts: vec![PromptPin {
                mode: "plan".into(),
                scenario: "default".into(),
                tokens: 25,
                sha256: super::super::sha256_hex("prompt"),
                tool_schemas: ToolsPin { tools: 0, tokens: 0, sha256: super::super::sha256_hex("[]") },
                sections: vec![section("core", 1), section("mode", 6)],
                text: None,
            }],
        }
    }

    #[test]
    fn round_trips() {
        let text = render(&pin(), ".ctxc/snapshots");
        let lock = parse(&text, "ctxc.lock").unwrap_or_else(|f| panic!("{:?}", f.diagnostics));
        assert_eq!(lock.pin, pin());
        assert_eq!(lock.snapshots, ".ctxc/snapshots");
        assert_eq!(render(&lock.pin, &lock.snapshots), text, "byte-stable");
    }

    #[test]
    fn bad_locks_are_diagnostics_with_a_place() {
        let text = render(&pin(), ".ctxc/snapshots");
        let truncated = &text[..text.len() / 2];
        let failure = parse(truncated, "ctxc.lock").expect_err("truncated");
        assert!(failure.diagnostics[0].span.is_some(), "{:?}", failure.diagnostics);
        let future = text.replace("version = 1", "version = 2");
        let failure = parse(&future, "ctxc.lock").expect_err("other version");
        assert!(failure.diagnostics[0].message.contains("format version 2"));
        let at = future.find("version = 2").expect("written") + "version = ".len();
        assert_eq!(failure.diagnostics[0].span, Some(at..at + 1), "at the value");
        let unknown = text.replace("exact = true\nsnapshots", "exact = true\nextra = 1\nsnapshots");
        assert!(parse(&unknown, "ctxc.lock").expect_err("unknown key").diagnostics[0].message.contains("unknown field"));
    }

    #[cfg(unix)]
    #[test]
    fn the_lock_is_read_under_the_guard() {
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("passwd"), "root:x:0:0\n").expect("write");
        let dir = tempfile::tempdir().expect("tempdir");
        let root = ProjectRoot::new(dir.path()).expect("root");
        assert!(matches!(read(&root), Ok(None)));
        std::os::unix::fs::symlink(outside.path().join("passwd"), dir.path().join(LOCK_NAME)).expect("symlink");
        let d = read(&root).expect_err("a link out");
        assert!(d.message.contains("points outside the project root") && !d.message.contains("root:x"), "{}", d.message);
        std::fs::remove_file(dir.path().join(LOCK_NAME)).expect("remove");
        std::fs::write(dir.path().join(LOCK_NAME), render(&pin(), ".ctxc/snapshots")).expect("write");
        assert!(read(&root).is_ok_and(|f| f.is_some_and(|f| parse(&f.text, LOCK_NAME).is_ok())));
    }
}
