//! The hostile-input suite (issue 12): what a pull request can put in front of ctxc in CI. Each
//! folder under tests/hostile/ is one case: its files are a scratch project, copied verbatim, and
//! its `case.toml` adds what git cannot hold (links, FIFOs, generated big or deep files, hostile
//! commits for `diff --base`), then lists the command lines and what they must give
//! (tests/hostile/README.md has the format). Every case runs in a private scratch folder beside a
//! canary; every run is checked for its exit code and diagnostics, for CPU time and peak memory
//! (from `wait4`, so a loaded machine does not make it flaky), for being killed if it hangs, and
//! for having read or written nothing outside the project: the canary unchanged and never
//! printed, nothing new beside it, no temporary file left, and only the declared project files
//! changed.
// The harness measures its children with libc (wait4, getrusage, mkfifo, kill): unsafe calls
// with plain data, each marked where it is made.
#![allow(unsafe_code)]
#![cfg(unix)]

use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Deserialize;

/// What the canary holds: a tool list, so that a read of it as a tool file, a lock, a manifest or
/// a prompt would show its mark.
const CANARY: &str = r#"[{"type":"function","function":{"name":"canary_7f3a","description":"CANARY-7f3a: never read","parameters":{"type":"object","properties":{}}}}]"#;
/// The canary's mark as its name and its description hold it (either case): no output may hold
/// it. (The bare `7f3a` also turns up in commit ids, which some outputs name.)
const MARKS: [&str; 2] = ["canary_7f3a", "canary-7f3a"];
/// CPU time (user + system, ctxc and the git it waited for) a run may take unless its case says
/// otherwise: every case is well under a second of work, so only super-linear work reaches it.
const CPU_SECONDS: f64 = 5.0;
/// Peak resident memory a run may reach unless its case says otherwise (`check` with its
/// tokenizers takes about 110 MiB).
const MAX_RSS_MIB: u64 = 384;
/// Wall-clock time after which a run is killed: only a hang (a blocked read) reaches it, and it
/// turns into a failure.
const KILL_AFTER: Duration = Duration::from_secs(20);
/// Address space and CPU time the kernel allows a run: a blow-up fails that case instead of
/// taking the machine down with it.
const ADDRESS_SPACE_LIMIT: u64 = 1 << 30;
const CPU_LIMIT_SECONDS: u64 = 10;
/// The suite's size, as issue 12 asks.
const MIN_CASES: usize = 60;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    /// The attack, in one line.
    about: String,
    /// What makes the project's folder the top of a repository: an empty `.git` folder
    /// (`marker`, as in a checkout), a real repository (`git`, implied by `commit`), or `none`.
    #[serde(default)]
    repo: RepoKind,
    /// Files beside the canary, outside the project.
    #[serde(default)]
    outside: Vec<Outside>,
    /// Commits made with git's plumbing, in order, each the next `HEAD` and named `{name}` in
    /// every string below.
    #[serde(default)]
    commit: Vec<Commit>,
    #[serde(default)]
    generate: Vec<Generate>,
    /// ctxc runs that must succeed before the hostile parts below are put in place.
    #[serde(default)]
    prepare: Vec<Vec<String>>,
    #[serde(default)]
    link: Vec<Link>,
    #[serde(default)]
    fifo: Vec<String>,
    /// Empty folders (where a file is expected).
    #[serde(default)]
    dir: Vec<String>,
    run: Vec<Run>,
}

#[derive(Deserialize, Default, PartialEq, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum RepoKind {
    #[default]
    Marker,
    Git,
    None,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Outside {
    path: String,
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Commit {
    name: String,
    files: Vec<Entry>,
}

/// One entry of a committed tree: a file (`text`, `repeat` × `times`, or the content of a
/// project file `from`) or a link; `count` entries when the path holds `{n}`. Git accepts a link
/// and a folder of the same name in one tree, and so does this.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    path: String,
    text: Option<String>,
    from: Option<String>,
    link: Option<String>,
    repeat: Option<String>,
    #[serde(default)]
    times: usize,
    count: Option<usize>,
}

/// A generated file, written after the `prepare` runs: `head`, `repeat` × `times` (`{n}` in it
/// the repetition's number), `tail`; or an empty file of `size` bytes (sparse: it takes no space).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Generate {
    path: String,
    #[serde(default)]
    head: String,
    #[serde(default)]
    repeat: String,
    #[serde(default)]
    times: usize,
    #[serde(default)]
    tail: String,
    size: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Link {
    path: String,
    target: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Run {
    args: Vec<String>,
    /// The folder ctxc starts in, relative to the project.
    cwd: Option<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    /// Variables whose values are not UTF-8, as bytes.
    #[serde(default)]
    env_bytes: BTreeMap<String, Vec<u8>>,
    exit: i32,
    /// Fragments stderr must hold, compared with runs of white space (and miette's `│` gutter)
    /// made one space, so that line wrapping does not matter.
    #[serde(default)]
    stderr: Vec<String>,
    /// Stderr exactly.
    stderr_is: Option<String>,
    #[serde(default)]
    stdout: Vec<String>,
    stdout_is: Option<String>,
    stdout_starts: Option<String>,
    /// Regular expressions stderr must match (as it is, not unwrapped).
    #[serde(default)]
    stderr_regex: Vec<String>,
    /// Fragments project files must hold after the run.
    #[serde(default)]
    contains: BTreeMap<String, Vec<String>>,
    /// Fragments stderr may not hold (stdout may).
    #[serde(default)]
    stderr_lacks: Vec<String>,
    /// Fragments neither stream may hold.
    #[serde(default)]
    absent: Vec<String>,
    /// Regular expressions neither stream may match (as it is).
    #[serde(default)]
    absent_regex: Vec<String>,
    /// Neither stream holds anything a terminal or a CI log would act on: no control character
    /// but line breaks and tabs (no ESC, BEL or lone CR), no line whose first characters after
    /// white space are `::` and none holding `##[` (GitHub's workflow commands).
    #[serde(default)]
    inert: bool,
    /// Fragments project files may not hold after the run.
    #[serde(default)]
    lacks: BTreeMap<String, Vec<String>>,
    /// Project paths this run may and must create, change or remove (each with what is below it).
    #[serde(default)]
    changes: Vec<String>,
    /// Why a failing run's diagnostic names no file:line:col (every other one must expect one).
    unlocated: Option<String>,
    /// What stdout is connected to.
    #[serde(default)]
    pipe: Pipe,
    /// How many times to run it (for races such as a closed pipe).
    #[serde(default = "once")]
    repeat: usize,
    cpu_seconds: Option<f64>,
    max_rss_mib: Option<u64>,
}

fn once() -> usize {
    1
}

#[derive(Deserialize, Default, PartialEq, Clone, Copy, Debug)]
#[serde(rename_all = "kebab-case")]
enum Pipe {
    /// Both streams read to the end.
    #[default]
    Read,
    /// Stdout read up to its first line, then closed (`| head -1`).
    FirstLine,
    /// Stdout closed before ctxc writes anything.
    Closed,
    /// Stdout to nowhere, stderr closed before ctxc writes anything (`2>&1 | head -0`).
    ClosedStderr,
    /// Stdout is /dev/full: every write fails with "no space left".
    Full,
}

/// A scratch folder, private to one case: `project/` (the case's files), `canary/secret.json`
/// and the case's outside files beside it, and `tmp/` for ctxc's temporary folders.
struct Scratch {
    dir: tempfile::TempDir,
    /// Names for `{…}` in the case's strings.
    vars: Vec<(String, String)>,
    /// Every file outside the project and `tmp/` with its content: what must stay as it is.
    outside: BTreeMap<PathBuf, Node>,
}

/// What a path is, enough to tell a change.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    File { len: u64, hash: u64 },
    Dir,
    Link(PathBuf),
    Fifo,
    Other,
}

impl Scratch {
    fn project(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    fn canary(&self) -> PathBuf {
        self.dir.path().join("canary/secret.json")
    }

    /// `{name}` replaced by the scratch's paths and the commits' ids.
    fn expand(&self, text: &str) -> String {
        self.vars.iter().fold(text.to_string(), |text, (name, value)| text.replace(&format!("{{{name}}}"), value))
    }

    /// Makes room for a generated or special file, where the case's files may hold an ordinary one.
    fn replace(&self, rel: &str) -> PathBuf {
        let path = self.project().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(&path).expect("remove"),
            Ok(_) => std::fs::remove_file(&path).expect("remove"),
            Err(_) => {}
        }
        path
    }

    fn git(&self, args: &[&str], input: Option<&[u8]>) -> String {
        let mut command = Command::new("git");
        command
            .args(["-c", "user.name=ctxc tests", "-c", "user.email=tests@ctxc.invalid", "-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(self.project())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command.spawn().expect("git runs");
        let mut stdin = child.stdin.take().expect("stdin");
        let input = input.unwrap_or_default().to_vec();
        let writer = std::thread::spawn(move || stdin.write_all(&input));
        let out = child.wait_with_output().expect("git runs");
        writer.join().expect("writer").expect("git reads its input");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }
}

/// Every path below `dir` (not following links) and what it is, keyed relative to `dir`.
fn tree(dir: &Path, skip: &[&str]) -> BTreeMap<PathBuf, Node> {
    let mut found = BTreeMap::new();
    let walk = walkdir::WalkDir::new(dir).min_depth(1).follow_links(false).sort_by_file_name();
    for entry in walk.into_iter().filter_entry(|e| !skip.iter().any(|s| e.path() == dir.join(s))) {
        let entry = entry.expect("walk");
        let rel = entry.path().strip_prefix(dir).expect("inside").to_path_buf();
        let kind = entry.file_type();
        let node = if kind.is_dir() {
            Node::Dir
        } else if kind.is_symlink() {
            Node::Link(std::fs::read_link(entry.path()).expect("read link"))
        } else if kind.is_file() {
            let bytes = std::fs::read(entry.path()).expect("read");
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            bytes.hash(&mut hasher);
            Node::File { len: bytes.len() as u64, hash: hasher.finish() }
        } else if std::os::unix::fs::FileTypeExt::is_fifo(&kind) {
            Node::Fifo
        } else {
            Node::Other
        };
        found.insert(rel, node);
    }
    found
}

/// The paths that differ between two trees.
fn changed(before: &BTreeMap<PathBuf, Node>, after: &BTreeMap<PathBuf, Node>) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = before.keys().chain(after.keys()).filter(|p| before.get(*p) != after.get(*p)).cloned().collect();
    paths.sort();
    paths.dedup();
    paths
}

fn set_up(case: &Case, folder: &Path) -> Scratch {
    let dir = tempfile::Builder::new().prefix("ctxc-hostile-").tempdir().expect("tempdir");
    std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o700)).expect("private");
    for sub in ["project", "canary", "tmp"] {
        std::fs::create_dir(dir.path().join(sub)).expect("mkdir");
    }
    std::fs::write(dir.path().join("canary/secret.json"), CANARY).expect("write");
    let path_of = |p: PathBuf| p.to_str().expect("UTF-8 temporary path").to_string();
    let vars = vec![
        ("canary".to_string(), path_of(dir.path().join("canary/secret.json"))),
        ("canary_dir".to_string(), path_of(dir.path().join("canary"))),
        ("scratch".to_string(), path_of(dir.path().to_path_buf())),
        ("project".to_string(), path_of(dir.path().join("project"))),
    ];
    let mut s = Scratch { dir, vars, outside: BTreeMap::new() };
    copy_case(folder, &s.project());
    match (case.repo, case.commit.is_empty()) {
        (RepoKind::Git, _) | (_, false) => {
            s.git(&["init", "-q", "."], None);
        }
        (RepoKind::Marker, true) => std::fs::create_dir(s.project().join(".git")).expect("mkdir"),
        (RepoKind::None, true) => {}
    }
    let mut head = None;
    for commit in &case.commit {
        let id = commit_tree(&s, commit, head.as_deref());
        s.vars.push((commit.name.clone(), id.clone()));
        head = Some(id);
    }
    if head.is_some() {
        // Packed, as in a clone: git reads 100,000 loose objects slowly.
        s.git(&["repack", "-a", "-d", "-q"], None);
    }
    for file in &case.outside {
        let path = s.dir.path().join(&file.path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, s.expand(&file.text)).expect("write");
    }
    for args in &case.prepare {
        let args: Vec<String> = args.iter().map(|a| s.expand(a)).collect();
        let out = ctxc(&s, &args, None, &[], Pipe::Read);
        assert_eq!(out.code, Some(0), "prepare: ctxc {args:?}\nstdout:\n{}\nstderr:\n{}", out.stdout, out.stderr);
    }
    for g in &case.generate {
        let path = s.replace(&g.path);
        match g.size {
            Some(size) => std::fs::File::create(&path).and_then(|f| f.set_len(size)).expect("sparse file"),
            None => {
                let mut text = String::with_capacity(g.head.len() + g.repeat.len() * g.times + g.tail.len());
                text.push_str(&g.head);
                for n in 0..g.times {
                    text.push_str(&g.repeat.replace("{n}", &n.to_string()));
                }
                text.push_str(&g.tail);
                std::fs::write(&path, text).expect("write");
            }
        }
    }
    for link in &case.link {
        std::os::unix::fs::symlink(s.expand(&link.target), s.replace(&link.path)).expect("symlink");
    }
    for fifo in &case.fifo {
        let path = s.replace(fifo);
        let c = std::ffi::CString::new(path.into_os_string().into_encoded_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo {fifo}");
    }
    for dir in &case.dir {
        std::fs::create_dir(s.replace(dir)).expect("mkdir");
    }
    s.outside = tree(s.dir.path(), &["project", "tmp"]);
    s
}

/// The case's folder without its `case.toml`, into the project.
fn copy_case(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from).min_depth(1).sort_by_file_name() {
        let entry = entry.expect("walk");
        let rel = entry.path().strip_prefix(from).expect("inside");
        if rel == Path::new("case.toml") {
            continue;
        }
        let target = to.join(rel);
        let kind = entry.file_type();
        assert!(
            kind.is_dir() || kind.is_file(),
            "{}: only files and folders are committed; declare links in case.toml",
            entry.path().display()
        );
        match kind.is_dir() {
            true => std::fs::create_dir(&target).expect("mkdir"),
            false => {
                std::fs::copy(entry.path(), &target).expect("copy");
            }
        }
    }
}

/// Writes the commit's tree with git's plumbing (so that it may hold what `git add` never
/// would) on top of `parent` and makes it `HEAD`; its id.
fn commit_tree(s: &Scratch, commit: &Commit, parent: Option<&str>) -> String {
    let mut blobs: HashMap<(bool, Vec<u8>), String> = HashMap::new();
    let mut listed: Vec<TreeEntry> = Vec::new();
    for entry in &commit.files {
        let (is_link, content) = match (&entry.text, &entry.from, &entry.link, &entry.repeat) {
            (Some(text), None, None, None) => (false, s.expand(text).into_bytes()),
            (None, Some(from), None, None) => (false, std::fs::read(s.project().join(from)).expect("`from` names a project file")),
            (None, None, Some(target), None) => (true, s.expand(target).into_bytes()),
            (None, None, None, Some(repeat)) => (false, repeat.repeat(entry.times).into_bytes()),
            _ => panic!("commit {}: `{}` needs exactly one of text, from, link, repeat", commit.name, entry.path),
        };
        let blob = blobs
            .entry((is_link, content))
            .or_insert_with_key(|(_, content)| s.git(&["hash-object", "-w", "--stdin"], Some(content)))
            .clone();
        let mode = if is_link { "120000" } else { "100644" };
        let count = entry.count.unwrap_or(1);
        let width = (count.max(2) - 1).to_string().len();
        for n in 0..count {
            let path = entry.path.replace("{n}", &format!("{n:0width$}"));
            listed.push((path.split('/').map(str::to_string).collect(), mode, blob.clone()));
        }
    }
    let tree = make_tree(s, &listed);
    let mut args = vec!["commit-tree", &tree, "-m", &commit.name];
    args.extend(parent.iter().flat_map(|p| ["-p", p]));
    let id = s.git(&args, None);
    s.git(&["update-ref", "HEAD", &id], None);
    id
}

/// A tree entry: its path as parts, its mode and its object id.
type TreeEntry = (Vec<String>, &'static str, String);

/// A tree of the entries (paths as parts), written as a raw object: `git mktree` checks every
/// entry's object and takes seconds for a tree of 100,000 entries. A name may be both a file or
/// link and a folder, as git's tree format allows.
fn make_tree(s: &Scratch, entries: &[TreeEntry]) -> String {
    let mut listed: Vec<(String, &str, String)> = Vec::new();
    let mut folders: BTreeMap<&str, Vec<TreeEntry>> = BTreeMap::new();
    for (parts, mode, blob) in entries {
        match parts.as_slice() {
            [name] => listed.push((name.clone(), mode, blob.clone())),
            [folder, rest @ ..] => folders.entry(folder.as_str()).or_default().push((rest.to_vec(), mode, blob.clone())),
            [] => panic!("an empty path"),
        }
    }
    for (folder, inner) in folders {
        listed.push((folder.to_string(), "40000", make_tree(s, &inner)));
    }
    // Git's order: by name, a folder's name read with a `/` after it.
    listed.sort_by_cached_key(|(name, mode, _)| format!("{name}{}", if *mode == "40000" { "/" } else { "" }));
    let mut object = Vec::new();
    for (name, mode, id) in listed {
        object.extend(format!("{mode} {name}\0").into_bytes());
        object.extend((0..id.len()).step_by(2).map(|i| u8::from_str_radix(&id[i..i + 2], 16).expect("hex object id")));
    }
    s.git(&["hash-object", "-t", "tree", "-w", "--literally", "--stdin"], Some(&object))
}

/// How a run ended, with the resources it used.
struct Outcome {
    code: Option<i32>,
    signal: Option<i32>,
    stdout: String,
    stderr: String,
    cpu: Duration,
    max_rss_kib: u64,
    killed: bool,
}

/// Runs the built ctxc in the project with a clean environment (PATH and HOME kept), in a process
/// group of its own under kernel limits, killed (with whatever it started) after [`KILL_AFTER`].
// The child is reaped by `wait4` below (for its CPU time and peak memory), which clippy cannot see.
#[allow(clippy::zombie_processes)]
fn ctxc(s: &Scratch, args: &[String], run: Option<&Run>, env_bytes: &[(String, Vec<u8>)], pipe: Pipe) -> Outcome {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ctxc"));
    let cwd = run.and_then(|r| r.cwd.as_deref()).unwrap_or(".");
    command.args(args).current_dir(s.project().join(cwd)).env_clear();
    for name in ["PATH", "HOME"] {
        if let Some(value) = std::env::var_os(name) {
            command.env(name, value);
        }
    }
    command.env("NO_COLOR", "1").env("TMPDIR", s.dir.path().join("tmp"));
    for (name, value) in run.map(|r| &r.env).into_iter().flatten() {
        command.env(name, s.expand(value));
    }
    for (name, value) in env_bytes {
        command.env(name, <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(value));
    }
    command.stdin(Stdio::null()).process_group(0);
    match pipe {
        Pipe::Read | Pipe::FirstLine | Pipe::Closed => command.stdout(Stdio::piped()).stderr(Stdio::piped()),
        Pipe::ClosedStderr => command.stdout(Stdio::null()).stderr(Stdio::piped()),
        Pipe::Full => command.stdout(std::fs::File::create("/dev/full").expect("/dev/full")).stderr(Stdio::piped()),
    };
    // SAFETY: only setrlimit, which is async-signal-safe, between fork and exec.
    unsafe {
        command.pre_exec(|| {
            for (resource, limit) in [(libc::RLIMIT_AS, ADDRESS_SPACE_LIMIT), (libc::RLIMIT_CPU, CPU_LIMIT_SECONDS)] {
                let limit = libc::rlimit { rlim_cur: limit, rlim_max: limit };
                if libc::setrlimit(resource, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let mut child = command.spawn().expect("ctxc starts");
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                pipe.read_to_end(&mut bytes).expect("read output");
            }
            bytes
        })
    };
    let stdout = child.stdout.take();
    let stdout = match pipe {
        Pipe::FirstLine => {
            let mut line = String::new();
            BufReader::new(stdout.expect("piped stdout")).read_line(&mut line).expect("first line");
            assert!(!line.is_empty(), "ctxc {args:?} printed nothing");
            drain(None)
        }
        Pipe::Closed => {
            drop(stdout);
            drain(None)
        }
        _ => drain(stdout.map(|p| Box::new(p) as Box<dyn Read + Send>)),
    };
    let stderr = child.stderr.take();
    let stderr = match pipe {
        Pipe::ClosedStderr => {
            drop(stderr);
            drain(None)
        }
        _ => drain(stderr.map(|p| Box::new(p) as Box<dyn Read + Send>)),
    };
    let crate::Ended { status, usage, killed } = crate::wait_measured(&mut child, KILL_AFTER);
    let time = |t: libc::timeval| Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64);
    let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
    Outcome {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
        stdout: text(stdout.join().expect("stdout")),
        stderr: text(stderr.join().expect("stderr")),
        cpu: time(usage.ru_utime) + time(usage.ru_stime),
        max_rss_kib: usage.ru_maxrss as u64,
        killed,
    }
}

/// White space runs (and miette's `│` gutter) as one space.
fn unwrap(text: &str) -> String {
    text.replace('│', " ").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A place in a file as diagnostics write it: `name:line:column`.
fn is_located(fragment: &str) -> bool {
    static PLACE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    PLACE.get_or_init(|| regex::Regex::new(r"[^\s:\[]+:\d+:\d+").expect("regex")).is_match(fragment)
}

/// Runs one case; every failed expectation, or an empty list.
fn run_case(folder: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(folder.join("case.toml")).expect("case.toml");
    let case: Case = match toml::from_str(&text) {
        Ok(case) => case,
        Err(e) => return vec![format!("case.toml: {e}")],
    };
    assert!(!case.about.trim().is_empty(), "say what the attack is");
    let s = set_up(&case, folder);
    let links: Vec<(PathBuf, PathBuf)> =
        case.link.iter().map(|l| (s.project().join(&l.path), PathBuf::from(s.expand(&l.target)))).collect();
    let mut failures = Vec::new();
    for (i, run) in case.run.iter().enumerate() {
        let args: Vec<String> = run.args.iter().map(|a| s.expand(a)).collect();
        let env_bytes: Vec<(String, Vec<u8>)> = run.env_bytes.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        for attempt in 0..run.repeat {
            let before = tree(&s.project(), &[]);
            let out = ctxc(&s, &args, Some(run), &env_bytes, run.pipe);
            let after = tree(&s.project(), &[]);
            let mut problems = check_run(&s, run, &out);
            problems.extend(check_confinement(&s, run, &out, &before, &after, &links));
            if !problems.is_empty() {
                failures.push(format!(
                    "run {} `ctxc {}`{}: {}\n--- exit {:?} (signal {:?}), {:.2} s CPU, {} MiB\n--- stdout:\n{}\n--- stderr:\n{}",
                    i + 1,
                    args.join(" "),
                    if run.repeat > 1 { format!(" (attempt {})", attempt + 1) } else { String::new() },
                    problems.join("; "),
                    out.code,
                    out.signal,
                    out.cpu.as_secs_f64(),
                    out.max_rss_kib / 1024,
                    truncate(&out.stdout),
                    truncate(&out.stderr),
                ));
                break;
            }
        }
    }
    failures
}

fn truncate(text: &str) -> &str {
    let end = (0..=text.len().min(3000)).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    &text[..end]
}

/// The run's own expectations: exit code, output, located diagnostics, CPU time and memory.
fn check_run(s: &Scratch, run: &Run, out: &Outcome) -> Vec<String> {
    let mut problems = Vec::new();
    if out.killed {
        problems.push(format!("killed after {KILL_AFTER:?}: it hung"));
    }
    if out.code != Some(run.exit) {
        problems.push(format!("exit {:?}, expected {}", out.code, run.exit));
    }
    if out.stderr.contains("panicked") || out.code == Some(101) {
        problems.push("it panicked".to_string());
    }
    let (stdout, stderr) = (unwrap(&out.stdout), unwrap(&out.stderr));
    for fragment in &run.stderr {
        if !stderr.contains(&unwrap(&s.expand(fragment))) {
            problems.push(format!("stderr lacks `{fragment}`"));
        }
    }
    for fragment in &run.stdout {
        if !stdout.contains(&unwrap(&s.expand(fragment))) {
            problems.push(format!("stdout lacks `{fragment}`"));
        }
    }
    for pattern in &run.stderr_regex {
        if !regex::Regex::new(pattern).expect("stderr_regex").is_match(&out.stderr) {
            problems.push(format!("stderr does not match `{pattern}`"));
        }
    }
    for (file, fragments) in &run.contains {
        let text = std::fs::read_to_string(s.project().join(file)).unwrap_or_default();
        for fragment in fragments.iter().filter(|f| !text.contains(&s.expand(f))) {
            problems.push(format!("`{file}` lacks `{fragment}`"));
        }
    }
    if let Some(exact) = &run.stderr_is {
        if out.stderr != s.expand(exact) {
            problems.push("stderr is not exactly as expected".to_string());
        }
    }
    if let Some(exact) = &run.stdout_is {
        if out.stdout != s.expand(exact) {
            problems.push("stdout is not exactly as expected".to_string());
        }
    }
    if let Some(start) = &run.stdout_starts {
        if !out.stdout.starts_with(&s.expand(start)) {
            problems.push(format!("stdout does not start with `{start}`"));
        }
    }
    let expects_stdout = !run.stdout.is_empty() || run.stdout_is.is_some() || run.stdout_starts.is_some();
    if run.exit == 2 && !expects_stdout && run.pipe == Pipe::Read && !out.stdout.is_empty() {
        problems.push("partial output on stdout".to_string());
    }
    for fragment in &run.stderr_lacks {
        if out.stderr.contains(&s.expand(fragment)) {
            problems.push(format!("`{fragment}` was printed on stderr"));
        }
    }
    for fragment in &run.absent {
        let fragment = s.expand(fragment);
        if out.stdout.contains(&fragment) || out.stderr.contains(&fragment) {
            problems.push(format!("`{fragment}` was printed"));
        }
    }
    for pattern in &run.absent_regex {
        let re = regex::Regex::new(pattern).expect("absent_regex");
        if re.is_match(&out.stdout) || re.is_match(&out.stderr) {
            problems.push(format!("the output matches `{pattern}`"));
        }
    }
    if run.inert {
        for (name, stream) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            problems.extend(executable(stream).map(|why| format!("{name} holds {why}")));
        }
    }
    for (file, fragments) in &run.lacks {
        let text = std::fs::read_to_string(s.project().join(file)).unwrap_or_default();
        for fragment in fragments.iter().filter(|f| text.contains(&s.expand(f))) {
            problems.push(format!("`{file}` holds `{fragment}`"));
        }
    }
    let located = run.stderr.iter().chain(&run.stderr_is).chain(&run.stdout).any(|f| is_located(f))
        || run.stderr_regex.iter().any(|r| is_located(&r.replace(r"\d+", "1").replace('\\', "")));
    if run.exit != 0 && !located && run.unlocated.is_none() {
        problems.push("the case expects no file:line:col: expect one, or say in `unlocated` why there is none".to_string());
    }
    let cpu_bound = run.cpu_seconds.unwrap_or(CPU_SECONDS);
    if out.cpu.as_secs_f64() > cpu_bound {
        problems.push(format!("{:.2} s of CPU time, over {cpu_bound} s", out.cpu.as_secs_f64()));
    }
    let rss_bound = run.max_rss_mib.unwrap_or(MAX_RSS_MIB);
    if out.max_rss_kib > rss_bound * 1024 {
        problems.push(format!("{} MiB of memory, over {rss_bound} MiB", out.max_rss_kib / 1024));
    }
    problems
}

/// What in `text` a terminal or GitHub's runner would act on, if anything: a control character
/// other than a line break or a tab, or a line that reads as a workflow command (the runner
/// splits lines at `\n` and at a lone `\r`, trims them, and reads `::command` at the start or
/// `##[command]` anywhere).
fn executable(text: &str) -> Option<String> {
    if let Some((at, c)) = text.char_indices().find(|(_, c)| c.is_control() && !matches!(c, '\n' | '\t')) {
        return Some(format!("a raw {c:?} at byte {at}"));
    }
    let line = text.split('\n').find(|line| line.trim_start().starts_with("::") || line.contains("##["))?;
    Some(format!("a line that reads as a workflow command: {line:?}"))
}

/// Nothing read or written outside the project: the canary and the other outside files as they
/// were and nothing new beside them, nothing left in `tmp/`, no output holding the canary's mark,
/// links and FIFOs of the case still in place, and only the declared changes in the project.
fn check_confinement(
    s: &Scratch,
    run: &Run,
    out: &Outcome,
    before: &BTreeMap<PathBuf, Node>,
    after: &BTreeMap<PathBuf, Node>,
    links: &[(PathBuf, PathBuf)],
) -> Vec<String> {
    let mut problems = Vec::new();
    if std::fs::read_to_string(s.canary()).ok().as_deref() != Some(CANARY) {
        problems.push("the canary changed".to_string());
    }
    let outside = tree(s.dir.path(), &["project", "tmp"]);
    for path in changed(&s.outside, &outside) {
        problems.push(format!("outside the project, `{}` was written, changed or removed", path.display()));
    }
    let left: Vec<_> = tree(&s.dir.path().join("tmp"), &[]).into_keys().collect();
    if !left.is_empty() {
        problems.push(format!("left in the temporary folder: {left:?}"));
    }
    let printed = [&out.stdout, &out.stderr].map(|text| text.to_ascii_lowercase());
    if printed.iter().any(|text| MARKS.iter().any(|mark| text.contains(mark))) {
        problems.push("the canary was printed".to_string());
    }
    for (path, target) in links {
        if std::fs::read_link(path).ok().as_ref() != Some(target) {
            problems.push(format!("the link `{}` was replaced or written through", path.display()));
        }
    }
    let declared: Vec<PathBuf> = run.changes.iter().map(PathBuf::from).collect();
    let changes = changed(before, after);
    for path in &changes {
        if !declared.iter().any(|d| path.starts_with(d)) {
            problems.push(format!("`{}` in the project was written, changed or removed", path.display()));
        }
    }
    for d in &declared {
        if !changes.iter().any(|p| p.starts_with(d)) {
            problems.push(format!("`{}` was not written", d.display()));
        }
    }
    problems
}

fn case_folders() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
    let mut folders: Vec<PathBuf> =
        std::fs::read_dir(&root).expect("tests/hostile").map(|e| e.expect("entry").path()).filter(|p| p.is_dir()).collect();
    folders.sort();
    folders
}

/// Every case, run on as many threads as there are cores; reports every failing case by name.
/// `HOSTILE_CASES=name,…` runs only the cases whose names hold one of the words.
#[test]
fn hostile_inputs() {
    let folders = case_folders();
    assert!(folders.len() >= MIN_CASES, "{} cases, issue 12 asks for at least {MIN_CASES}", folders.len());
    for folder in &folders {
        assert!(folder.join("case.toml").is_file(), "{} has no case.toml", folder.display());
    }
    let only: Vec<String> = std::env::var("HOSTILE_CASES").map(|v| v.split(',').map(str::to_string).collect()).unwrap_or_default();
    let queue: Mutex<Vec<&PathBuf>> = Mutex::new(
        folders
            .iter()
            .filter(|f| only.is_empty() || only.iter().any(|o| f.file_name().is_some_and(|n| n.to_string_lossy().contains(o.as_str()))))
            .rev()
            .collect(),
    );
    let failures: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());
    let times: Mutex<Vec<(Duration, String)>> = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let Some(folder) = queue.lock().expect("queue").pop() else { break };
                let name = folder.file_name().expect("name").to_string_lossy().into_owned();
                let start = Instant::now();
                let result = std::panic::catch_unwind(|| run_case(folder));
                times.lock().expect("times").push((start.elapsed(), name.clone()));
                let messages = result.unwrap_or_else(|panic| {
                    let message = panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
                    vec![format!("the harness failed: {}", message.unwrap_or_default())]
                });
                failures.lock().expect("failures").extend(messages.into_iter().map(|m| (name.clone(), m)));
            });
        }
    });
    // The slowest cases, for `cargo test --test hostile cases:: -- --nocapture`.
    let mut times = times.into_inner().expect("times");
    times.sort();
    for (time, name) in times.iter().rev().take(10) {
        println!("{:>6.2} s  {name}", time.as_secs_f64());
    }
    let mut failures = failures.into_inner().expect("failures");
    failures.sort();
    let names: std::collections::BTreeSet<&str> = failures.iter().map(|(n, _)| n.as_str()).collect();
    let report: Vec<String> = failures.iter().map(|(name, message)| format!("=== {name}: {message}")).collect();
    assert!(
        failures.is_empty(),
        "{} failing case(s): {}\n\n{}",
        names.len(),
        names.into_iter().collect::<Vec<_>>().join(", "),
        report.join("\n\n")
    );
}
