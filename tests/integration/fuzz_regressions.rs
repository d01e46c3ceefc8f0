//! Inputs the fuzz targets found (see docs/fuzzing.md), minimised, each kept as a test of the
//! library function its target calls.

/// `lock`: a lock whose first line is `version = 0` (no header comment before it) gave the
/// version mismatch no location: the line was looked for after a newline.
#[test]
fn lock_version_on_the_first_line_is_located() {
    let failure = ctxc::review::lock::parse("version = 0\n\n", "ctxc.lock").expect_err("version 0 is not read");
    let d = &failure.diagnostics[0];
    assert!(d.message.contains("format version 0"), "{}", d.message);
    assert_eq!(d.span, Some(10..11), "at the value: {d:?}");
}

/// `skill_frontmatter`: lines broken by a bare `\r` (a YAML line break) hid the `name` key from
/// the search that locates "`name` must be a string".
#[test]
fn skill_key_after_bare_carriage_returns_is_located() {
    let text = "---\n\r\r\rname: ####&#ch.\n- &iltr__nttion\n---\nbody\n";
    let e = ctxc::skills::parse_skill("skills/x/SKILL.md", text).expect_err("name is not a string");
    assert_eq!(e.code, ctxc::codes::Code::SKILL003);
    assert_eq!(e.offset, Some(7), "{e:?}");
}

/// `template` (found by a generator of hostile arguments run against the patched engine, the
/// target's own input): a backwards slice of an empty list or string indexed its first item and
/// panicked; `'a'.count('')` never returned.
#[test]
fn template_backwards_slice_of_nothing_and_count_of_nothing() {
    let render = |source| ctxc::templates::render_template_str("prompts/intro.md.j2", source, ());
    assert_eq!(render("{{ [][true:0:-1]|list }}{{ ''[::-1] }}").expect("renders"), "[]");
    assert_eq!(render("{{ 'a'.count('') }}").expect("renders"), "2");
}

/// `template`: `{% import … as -m %}` (an expression, not a name, after `as`) reached
/// `unreachable!()` in minijinja's code generator.
#[test]
fn template_import_as_an_expression_is_a_syntax_error() {
    let source = "{% import 'macros.j2' as- m %}";
    let d = ctxc::templates::render_template_str("prompts/intro.md.j2", source, ()).expect_err("not a name");
    assert!(d.message.contains("syntax error") && d.span.is_some(), "{d:?}");
}

/// `template`: a non-ASCII character inside a `[key]` of a `str.format()` field was stepped over
/// byte by byte, and the key sliced inside the character.
#[test]
fn template_format_key_with_a_non_ascii_character() {
    let source = "{{ '{a[\u{5a4}]}'.format(a={'\u{5a4}': 'x'}) }}";
    let text = ctxc::templates::render_template_str("prompts/intro.md.j2", source, ());
    assert_eq!(text.expect("renders"), "x");
}

/// `template`: an empty sequence repeated a huge number of times (the artifact's
/// `0*() * 2999 * 999999 * 9999999999 * …`) stepped through nothing that many times, charged
/// nothing, and never ended.
#[test]
fn template_empty_sequence_repeated_endlessly() {
    let render = |source| ctxc::templates::render_template_str("prompts/intro.md.j2", source, ());
    let artifact = "{} {{  4 *0*() * 2999*999999*9999999999*999*99999999*999999999999*999*4* 2}}";
    assert_eq!(render(artifact).expect("renders"), "{} []");
    assert_eq!(render("{{ ([] * 99999999999999)|length }}{{ ([1] * 0)|list }}").expect("renders"), "0[]");
}

/// `check_tree`: SKILL023 (a long reference without contents) pointed at offset 0 of a bundled
/// file whose text the run does not keep, so no report could show where: it is a finding about
/// the whole file now, as SKILL020's. Every located finding of the tree is shown.
#[test]
fn check_tree_long_reference_is_a_whole_file_finding() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let skill = dir.path().join("skills/fuzz");
    std::fs::create_dir_all(skill.join("references")).expect("folders");
    std::fs::create_dir_all(dir.path().join(".git")).expect("a repository's top");
    let skill_md = "---\nname: fuzz\ndescription: Checks things. Use when asked.\n---\nRead [the guide](references/guide.md).\n";
    std::fs::write(skill.join("SKILL.md"), skill_md).expect("SKILL.md");
    std::fs::write(skill.join("references/guide.md"), "A line.\n".repeat(120)).expect("guide.md");
    let report = ctxc::lint::check(dir.path(), &ctxc::lint::Options::default(), &ctxc::Session::default());
    let long = report.diagnostics.iter().find(|d| d.code == Some(ctxc::codes::Code::SKILL023)).expect("SKILL023");
    assert_eq!(long.span, None, "{long:?}");
    for d in &report.diagnostics {
        if let (Some(_), Some(file)) = (&d.span, &d.file) {
            assert!(report.sources.get(file).is_some(), "a span into `{file}`, whose text was not kept: {d:?}");
        }
    }
}

/// `tokenizer_file`: a Tekken file whose ranks lack a byte (here all but 0x00–0x04) made
/// tiktoken-rs panic on the first text holding that byte (then a probe text every file was given): it is refused,
/// naming the byte. A rank file of a known rank count would have done the same.
#[test]
fn tokenizer_file_without_a_token_for_every_byte_is_refused() {
    use base64::Engine as _;
    let vocab: Vec<serde_json::Value> = (0..5u8)
        .map(|b| serde_json::json!({"rank": b, "token_bytes": base64::engine::general_purpose::STANDARD.encode([b]), "token_str": null}))
        .collect();
    let tekken = serde_json::json!({
        "config": {"pattern": "\\w+|\\s+|.", "default_vocab_size": 8, "default_num_special_tokens": 3, "version": "v3"},
        "vocab": vocab,
    });
    let message = ctxc::tokenizer_files::TokenizerFile::load(tekken.to_string().as_bytes()).expect_err("refused");
    assert!(message.contains("token for the byte 0x05"), "{message}");
}

/// Found by the `tokenizer_file` target: a tokenizer.json whose BPE merge joins into a token
/// longer than any of its vocabulary panicked the `tokenizers` crate while it built its merge map
/// (it slices a buffer of the longest entry's length). Such a merge is refused before the crate
/// sees it, as is one whose second part lacks the continuing-subword prefix (which the crate cuts
/// off unchecked before an `unsafe` UTF-8 read).
#[test]
fn a_bpe_merge_the_tokenizers_crate_cannot_build_is_refused_before_it() {
    for name in ["tokenizer-json-merge-longer-than-its-vocabulary.json", "tokenizer-json-merge-longer-than-its-vocabulary-2.json"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fuzz").join(name);
        let data = std::fs::read(&path).expect("fixture");
        let Err(message) = ctxc::tokenizer_files::TokenizerFile::load(&data) else { panic!("{name}: not refused") };
        assert!(!message.is_empty(), "{name}");
    }
    let model = |prefix: &str, merge: &str| {
        let mut json: serde_json::Value = serde_json::from_slice(
            &std::fs::read(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("tests/fixtures/fuzz/tokenizer-json-merge-longer-than-its-vocabulary-2.json"),
            )
            .expect("fixture"),
        )
        .expect("JSON");
        json["model"]["continuing_subword_prefix"] = prefix.into();
        json["model"]["merges"] = serde_json::json!([merge]);
        ctxc::tokenizer_files::TokenizerFile::load(json.to_string().as_bytes()).err().unwrap_or_default()
    };
    assert!(model("é", "a b").contains("continuing-subword prefix `é`"));
    let longest = model("", "abcdefghijklmnopqrstuvwxyz abcdefghijklmnopqrstuvwxyz");
    assert!(longest.contains("joins into a token longer than any of its vocabulary"), "{longest}");
}
