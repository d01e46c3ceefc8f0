//! Secrets in output that holds the prompt in full. Every report masks secrets, but the prompt
//! `render` prints and the snapshot files `snapshot` writes (and users commit) must be the prompt
//! exactly, so they cannot: `render` warns on stderr, `snapshot` refuses unless told otherwise.
//! The secrets are found by the SEC001–SEC006 rules themselves, run over the output.

use std::ops::Range;

use crate::diagnostic::{Diagnostic, Sources};
use crate::manifest::Loaded;
use crate::memo::SharedText;
use crate::rules::context::{Context, Settings};
use crate::rules::{self, Family};
use crate::tokens::TokenCounter;

/// One secret in the output: the rule's finding (code set, secret redacted), located in the
/// source file the secret comes from when a file the agent was built from holds it, else in the
/// output itself; and every output that holds it.
pub struct Leak {
    pub finding: Diagnostic,
    pub outputs: Vec<String>,
}

/// The secrets found in some outputs, and the texts their findings point into.
#[derive(Default)]
pub struct Leaks {
    pub leaks: Vec<Leak>,
    pub sources: Sources,
}

impl Leaks {
    /// Scans `text`, the output named `output`, of an agent.
    pub fn scan(&mut self, output: &str, text: &str, loaded: &Loaded) {
        let mut scanned = Sources::default();
        scanned.insert(output, text);
        let counter = TokenCounter::new();
        let cx = Context {
            agent: None,
            skills: &[],
            memory: &[],
            files: &[],
            sources: &scanned,
            root: &loaded.root,
            counter: &counter,
            tokenizer: loaded.agent.profile.tokenizer,
            settings: Settings::default(),
        };
        for rule in rules::ALL.iter().filter(|r| r.family == Family::Content) {
            let Some(check) = rule.stage.check() else { continue };
            // A secret finding is one whose text is never shown.
            for mut finding in check(&cx).into_iter().filter(|d| d.redact) {
                finding.code = Some(rule.code);
                match finding.span.clone().and_then(|span| origin(text, span, &loaded.sources)) {
                    Some((file, source, span)) => {
                        self.sources.insert_shared(file, source.clone());
                        finding = finding.in_file(file).at(Some(span));
                    }
                    None => self.sources.insert(output, text),
                }
                self.add(finding, output);
            }
        }
    }

    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.leaks.is_empty()
    }

    /// Records a finding; the same secret at the same place is one leak, in several outputs.
    fn add(&mut self, finding: Diagnostic, output: &str) {
        let same = |d: &Diagnostic| d.code == finding.code && d.file == finding.file && d.span == finding.span;
        match self.leaks.iter_mut().find(|l| same(&l.finding)) {
            Some(leak) if leak.outputs.last().map(String::as_str) != Some(output) => leak.outputs.push(output.to_string()),
            Some(_) => {}
            None => self.leaks.push(Leak { finding, outputs: vec![output.to_string()] }),
        }
    }
}

/// Where a secret at `span` of the output comes from: the first source file that holds it. The
/// secret is looked for with what follows it to the end of the next line first, so that a
/// private key (found by its `BEGIN` line, which every key shares) is matched by its body.
fn origin<'s>(text: &str, span: Range<usize>, sources: &'s Sources) -> Option<(&'s str, &'s SharedText, Range<usize>)> {
    let next_line_end = |from: usize| text[from..].find('\n').map_or(text.len(), |i| from + i);
    let with_context = &text[span.start..next_line_end((next_line_end(span.end) + 1).min(text.len()))];
    let secret = &text[span];
    [with_context, secret].into_iter().find_map(|needle| {
        sources.iter_shared().find_map(|(file, source)| source.find(needle).map(|at| (file, source, at..at + secret.len())))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_is_located_in_the_source_that_holds_it_key_body_first() {
        let mut sources = Sources::default();
        sources.insert("a.md", "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n");
        sources.insert("b.md", "intro\n-----BEGIN RSA PRIVATE KEY-----\nBBBB\n");
        let text = "x -----BEGIN RSA PRIVATE KEY-----\nBBBB\nrest";
        let found = |text: &str, span: Range<usize>| origin(text, span, &sources).map(|(file, _, at)| (file.to_string(), at));
        assert_eq!(found(text, 2..33), Some(("b.md".to_string(), 6..37)));
        let other = "-----BEGIN RSA PRIVATE KEY-----\nCCCC";
        assert_eq!(found(other, 0..31), Some(("a.md".to_string(), 0..31)), "falls back to the secret alone");
        assert_eq!(found("no such -----BEGIN DSA PRIVATE KEY-----", 8..39), None);
    }
}
