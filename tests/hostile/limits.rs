//! Hostile input that used to hang ctxc or blow up its memory: each case runs the binary on a
//! scratch project and asserts the exit code and a diagnostic with file, line and column. Work is
//! bounded by what the diagnostics show (where a limit stopped the input) and by the peak memory
//! of the children; a child that hangs is killed after a generous timeout and fails its case.

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Long enough for a debug build on a loaded machine; only a hang reaches it.
const KILL_AFTER: Duration = Duration::from_secs(120);
/// Peak resident memory each child may reach. The attacks below took from
/// 300 MB to over 10 GB before they were bounded.
const MAX_CHILD_RSS_MIB: i64 = 256;

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn ctxc(args: &[&str], project: &Path) -> Run {
    let out_path = project.join(".stdout");
    let err_path = project.join(".stderr");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(args)
        .arg(project)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).expect("stdout file"))
        .stderr(std::fs::File::create(&err_path).expect("stderr file"))
        .process_group(0)
        .spawn()
        .expect("ctxc runs");
    let ended = crate::wait_measured(&mut child, KILL_AFTER);
    assert!(!ended.killed, "ctxc {args:?} still ran after {KILL_AFTER:?}: killed");
    let mib = ended.usage.ru_maxrss / 1024;
    assert!(mib <= MAX_CHILD_RSS_MIB, "ctxc {args:?} peaked at {mib} MiB");
    let read = |p: &Path| std::fs::read_to_string(p).expect("output");
    Run { code: libc::WIFEXITED(ended.status).then(|| libc::WEXITSTATUS(ended.status)), stdout: read(&out_path), stderr: read(&err_path) }
}

/// A project whose only step is the module `intro.md.j2` with this text.
fn template_project(template: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let manifest = "[agent]\nname = \"a\"\n\n[pipeline]\nsteps = [{ id = \"intro\", kind = \"module\" }]\n\n[modules.intro]\nsource = \"intro.md.j2\"\n";
    std::fs::write(dir.path().join("ctxc.toml"), manifest).expect("manifest");
    std::fs::write(dir.path().join("intro.md.j2"), template).expect("template");
    dir
}

/// `render` refuses the template with TPL004 at `line:col` of intro.md.j2, and prints nothing.
fn assert_template_over_limit(template: &str, at: &str) {
    let project = template_project(template);
    let run = ctxc(&["render"], project.path());
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stdout.is_empty(), "no partial output: {}", run.stdout);
    assert!(run.stderr.contains("TPL004"), "{}", run.stderr);
    assert!(run.stderr.contains("more than its 16 MiB of memory"), "{}", run.stderr);
    assert!(run.stderr.contains(&format!("intro.md.j2:{at}]")), "expected intro.md.j2:{at}: {}", run.stderr);
}

/// A width is refused before anything of its size is made (issue 27, D3).
#[test]
fn a_huge_format_width_stops_at_the_filter() {
    let project = template_project("{{ '%999999999s' | format('x') }}\n");
    let run = ctxc(&["render"], project.path());
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stdout.is_empty(), "no partial output: {}", run.stdout);
    assert!(run.stderr.contains("width or precision 999999999") && run.stderr.contains("over the limit of 10000"), "{}", run.stderr);
    assert!(run.stderr.contains("intro.md.j2:1:20]"), "{}", run.stderr);
}

#[test]
fn doubling_a_string_in_a_loop_stops_at_the_concatenation() {
    assert_template_over_limit(
        "{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}\n",
        "1:71",
    );
}

#[test]
fn doubling_without_a_loop_stops_too() {
    let mut template = String::from("{% set s0 = 'x' * 1000 %}\n");
    for i in 1..40 {
        template.push_str(&format!("{{% set s{i} = s{} + s{} %}}\n", i - 1, i - 1));
    }
    template.push_str("{{ s39 }}\n");
    // 1000 bytes doubled 14 times is 16 MB, and the halves before it count too: line 15 spends
    // the budget.
    assert_template_over_limit(&template, "15:14");
}

#[test]
fn a_replace_amplification_stops_before_it_is_made() {
    assert_template_over_limit("{{ ('x' * 10000) | replace('x', 'x' * 10000) | length }}\n", "1:20");
}

#[test]
fn a_huge_indent_stops_before_it_is_made() {
    assert_template_over_limit("{{ 'a\nb\nc' | indent(100000000) | length }}\n", "3:6");
}

#[test]
fn string_repetition_is_charged() {
    assert_template_over_limit("{{ ('ab' * 49999999) | length }}\n", "1:5");
}

#[test]
fn a_list_holding_itself_cannot_grow_its_printed_size() {
    // Memory stays small (each level shares the one below), but printing it doubles per level.
    assert_template_over_limit(
        "{% set ns = namespace(l=['abcdefgh']) %}{% for i in range(40) %}{% set ns.l = [ns.l, ns.l] %}{% endfor %}{{ ns.l|upper }}\n",
        "1:1",
    );
}

#[test]
fn captured_output_is_charged() {
    let mut template = String::from("{% set a0 %}{{ 'x' * 100000 }}{% endset %}\n");
    for i in 1..20 {
        template.push_str(&format!("{{% set a{i} %}}{{{{ a{} }}}}{{{{ a{} }}}}{{% endset %}}\n", i - 1, i - 1));
    }
    template.push_str("{{ a19|length }}\n");
    // 100 kB doubled seven times, plus the captures before it, is over 16 MiB at `a7`.
    assert_template_over_limit(&template, "8:16");
}

#[test]
fn conditions_share_the_template_limits() {
    let dir = tempfile::tempdir().expect("tempdir");
    let manifest = "[agent]\nname = \"a\"\n\n[pipeline]\nsteps = [{ id = \"t\", kind = \"text\", text = \"hi\", when = \"('x' * 99999999) != ''\" }]\n";
    std::fs::write(dir.path().join("ctxc.toml"), manifest).expect("manifest");
    let run = ctxc(&["render"], dir.path());
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("MAN006") && run.stderr.contains("more than its 16 MiB of memory"), "{}", run.stderr);
    assert!(run.stderr.contains("ctxc.toml:5:"), "{}", run.stderr);
}

/// A project with one skill whose SKILL.md is `text`.
fn skill_project(text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let manifest =
        "[agent]\nname = \"a\"\n\n[pipeline]\nsteps = [{ id = \"skills\", kind = \"skills\" }]\n\n[skills]\ndirs = [\"skills\"]\n";
    std::fs::write(dir.path().join("ctxc.toml"), manifest).expect("manifest");
    std::fs::create_dir_all(dir.path().join("skills/x")).expect("skill dir");
    std::fs::write(dir.path().join("skills/x/SKILL.md"), text).expect("skill");
    dir
}

#[test]
fn frontmatter_nested_100k_levels_stops_at_the_depth_limit() {
    let project = skill_project(&format!("---\nname: x\ndescription: hi\na: {}\n---\nBody\n", "[".repeat(100_000)));
    let run = ctxc(&["check"], project.path());
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("SKILL002") && run.stderr.contains("nested more") && run.stderr.contains("than 128 levels"),
        "{}",
        run.stderr
    );
    // Column 4 + 128: the 129th bracket, where reading stopped.
    assert!(run.stderr.contains("SKILL.md:4:132"), "{}", run.stderr);
}

#[test]
fn billion_laughs_in_frontmatter_is_refused_with_a_place() {
    let mut text = String::from("---\nname: x\ndescription: hi\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        text.push_str(&format!("a{i}: &a{i} [{}]\n", vec![format!("*a{}", i - 1); 9].join(", ")));
    }
    text.push_str("---\nBody\n");
    let project = skill_project(&text);
    let run = ctxc(&["check"], project.path());
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("SKILL002"), "{}", run.stderr);
    assert!(run.stderr.contains("SKILL.md:"), "located: {}", run.stderr);
}

#[test]
fn a_wide_alias_expansion_is_refused() {
    // Few aliases, each to a large list: serde_yaml's own guard counts aliases, not values, and
    // let this expand to 3.8 million values (16 s, 800 MB).
    let mut text = format!("---\nname: x\ndescription: hi\nbig: &b [{}]\n", vec!["1"; 40_000].join(","));
    for i in 0..95 {
        text.push_str(&format!("r{i}: *b\n"));
    }
    text.push_str("---\nBody\n");
    let project = skill_project(&text);
    let run = ctxc(&["check"], project.path());
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("expand the document to too many values"), "{}", run.stderr);
    assert!(run.stderr.contains("SKILL.md:"), "located: {}", run.stderr);
}

#[test]
fn an_empty_agent_name_in_yaml_is_located() {
    let dir = tempfile::tempdir().expect("tempdir");
    let manifest = "agent:\n  name: \"\"\npipeline:\n  steps:\n    - id: t\n      kind: text\n      text: hi\n";
    std::fs::write(dir.path().join("ctxc.yaml"), manifest).expect("manifest");
    let run = ctxc(&["check"], dir.path());
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("MAN010") && run.stderr.contains("ctxc.yaml:2:9]"), "{}", run.stderr);
}

/// A protobuf varint.
fn varint(mut n: usize, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// A SentencePiece BPE model (a protobuf `ModelProto`) of an unknown piece and these pieces,
/// each (text, type): 4 for a user-defined symbol.
fn sentencepiece_model(pieces: impl Iterator<Item = (String, u8)>) -> Vec<u8> {
    let mut out = Vec::new();
    for (text, kind) in std::iter::once(("<unk>".to_string(), 2)).chain(pieces) {
        let mut piece = vec![0x0a];
        varint(text.len(), &mut piece);
        piece.extend(text.as_bytes());
        // Its score, -1.0 (a float, which makes the file binary), and its type.
        piece.extend([0x15, 0x00, 0x00, 0x80, 0xbf, 0x18, kind]);
        out.push(0x0a);
        varint(piece.len(), &mut out);
        out.extend(piece);
    }
    // A BPE model (trainer_spec.model_type 2) that keeps extra whitespace (normalizer_spec field 4).
    out.extend([0x12, 0x02, 0x18, 0x02, 0x1a, 0x04, 0x18, 0x01, 0x20, 0x00]);
    out
}

/// A 16 MB SentencePiece model of 130,000 user-defined symbols of 120 bytes, no two sharing much
/// of a prefix (issue 43: 500,000 in a 60 MB model took 3 GB to load, the symbols' automaton
/// holding some 50 bytes per byte of them). It is refused at the manifest's `tokenizer`, naming
/// the limit, within the children's memory bound.
#[test]
fn a_sentencepiece_model_of_many_user_defined_symbols_is_refused_within_the_memory_bound() {
    let dir = tempfile::tempdir().expect("tempdir");
    let symbols = (0..130_000).map(|i: u32| (format!("{:0>120}", i.wrapping_mul(2_654_435_761)).chars().rev().collect(), 4));
    std::fs::write(dir.path().join("hostile.model"), sentencepiece_model(symbols)).expect("model");
    let manifest = "[agent]\nname = \"a\"\nmodel = \"mistralai/mistral-7b-instruct-v0.3\"\ntokenizer = \"hostile.model\"\n\n[pipeline]\nsteps = [{ id = \"t\", kind = \"text\", text = \"hi\" }]\n";
    std::fs::write(dir.path().join("ctxc.toml"), manifest).expect("manifest");
    let run = ctxc(&["cost"], dir.path());
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    let stderr = run.stderr.split_whitespace().filter(|w| *w != "│").collect::<Vec<_>>().join(" ");
    assert!(stderr.contains("more than 1048576 bytes of user-defined symbols"), "{stderr}");
    assert!(stderr.contains("ctxc.toml:4:"), "located at the manifest's `tokenizer`: {stderr}");
}
