//! The git_tree target: the input becomes a commit, written as loose objects into a repository
//! made once per process, and ctxc checks that commit out as `ctxc diff --base` does.
//!
//! The input is records separated by NUL bytes. A record is a kind byte, a path, a newline and
//! the content. Kinds: `x` executable file, `l` symbolic link (the content is its target), `g`
//! submodule (a commit that does not exist), `d` a blob filed under the folder mode, anything
//! else a regular file. `/` separates the tree names of a path; a name can be anything else
//! (empty, `.`, `..`, `.git`, a newline) and names may repeat in one tree: a link `zz` next to
//! a folder `zz`, as in a hand-made commit. Trees keep the input's order (git would sort them).
//!
//! The invariant: nothing appears outside the checkout's own temporary folder (a canary folder
//! beside it stays as it was, the repository's work tree stays empty) and dropping the checkout
//! leaves nothing behind. A link to an absolute path outside the scratch folder would escape this
//! check, so scripts/fuzz.sh runs this target as an unprivileged user.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use ctxc::review::git;
use sha1::{Digest, Sha1};

/// Records beyond this many are ignored: every one costs a file written by ctxc.
const MAX_RECORDS: usize = 64;
const CANARY: &str = "canary: nothing may write here\n";

struct Setup {
    base: PathBuf,
    repo: git::Repo,
    tmp: PathBuf,
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let base = crate::scratch("git");
        let top = base.join("repo");
        fs::create_dir_all(&top).expect("create the repository folder");
        let status = Command::new("git").arg("init").arg("-q").arg(&top).status().expect("run git init");
        assert!(status.success(), "git init failed");
        fs::create_dir_all(base.join("outside")).expect("create the canary folder");
        fs::write(base.join("outside/canary"), CANARY).expect("write the canary");
        // ctxc makes its checkout folder under TMPDIR: inside the scratch folder, where the
        // canary can see a write that escapes it.
        let tmp = base.join("tmp");
        fs::create_dir_all(&tmp).expect("create the temporary folder");
        std::env::set_var("TMPDIR", &tmp);
        let repo = git::locate(&top).expect("locate the scratch repository");
        Setup { base, repo, tmp }
    })
}

enum Node {
    Blob { mode: &'static str, oid: [u8; 20] },
    Tree(Vec<(Vec<u8>, Node)>),
}

fn hex(oid: &[u8; 20]) -> String {
    oid.iter().map(|b| format!("{b:02x}")).collect()
}

fn object_id(kind: &str, content: &[u8]) -> [u8; 20] {
    let mut hasher = Sha1::new();
    hasher.update(format!("{kind} {}\0", content.len()).as_bytes());
    hasher.update(content);
    hasher.finalize().into()
}

/// Writes a loose object, as `git hash-object -w` would.
fn write_object(objects: &Path, kind: &str, content: &[u8]) -> [u8; 20] {
    let oid = object_id(kind, content);
    let name = hex(&oid);
    let path = objects.join(&name[..2]).join(&name[2..]);
    if !path.exists() {
        fs::create_dir_all(path.parent().expect("object folder")).expect("create an object folder");
        let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(format!("{kind} {}\0", content.len()).as_bytes()).expect("compress");
        encoder.write_all(content).expect("compress");
        fs::write(&path, encoder.finish().expect("compress")).expect("write an object");
    }
    oid
}

/// Files `leaf` under `names`, into the last folder of each name (a new one when there is none).
fn insert(tree: &mut Vec<(Vec<u8>, Node)>, names: &[&[u8]], leaf: Node) {
    let (last, folders) = names.split_last().expect("a path has a name");
    let mut tree = tree;
    for name in folders {
        let at = match tree.iter().rposition(|(n, node)| n == name && matches!(node, Node::Tree(_))) {
            Some(at) => at,
            None => {
                tree.push((name.to_vec(), Node::Tree(Vec::new())));
                tree.len() - 1
            }
        };
        let Node::Tree(children) = &mut tree[at].1 else { unreachable!("found as a tree") };
        tree = children;
    }
    tree.push((last.to_vec(), leaf));
}

fn write_tree(objects: &Path, entries: &[(Vec<u8>, Node)]) -> [u8; 20] {
    let mut content = Vec::new();
    for (name, node) in entries {
        let (mode, oid) = match node {
            Node::Blob { mode, oid } => (*mode, *oid),
            Node::Tree(children) => ("40000", write_tree(objects, children)),
        };
        content.extend_from_slice(mode.as_bytes());
        content.push(b' ');
        content.extend_from_slice(name);
        content.push(0);
        content.extend_from_slice(&oid);
    }
    write_object(objects, "tree", &content)
}

/// The commit the input describes, written into the repository; its id in hex.
fn commit(objects: &Path, data: &[u8]) -> String {
    let mut root = Vec::new();
    for record in data.split(|b| *b == 0).filter(|r| !r.is_empty()).take(MAX_RECORDS) {
        let (kind, rest) = record.split_first().expect("not empty");
        let (path, content) = match rest.iter().position(|b| *b == b'\n') {
            Some(at) => (&rest[..at], &rest[at + 1..]),
            None => (rest, &[][..]),
        };
        let leaf = match kind {
            b'x' => Node::Blob { mode: "100755", oid: write_object(objects, "blob", content) },
            b'l' => Node::Blob { mode: "120000", oid: write_object(objects, "blob", content) },
            b'g' => Node::Blob { mode: "160000", oid: object_id("commit", content) },
            b'd' => Node::Blob { mode: "40000", oid: write_object(objects, "blob", content) },
            _ => Node::Blob { mode: "100644", oid: write_object(objects, "blob", content) },
        };
        let names: Vec<&[u8]> = path.split(|b| *b == b'/').collect();
        insert(&mut root, &names, leaf);
    }
    let tree = hex(&write_tree(objects, &root));
    let commit = format!("tree {tree}\nauthor Fuzz <fuzz@example.com> 0 +0000\ncommitter Fuzz <fuzz@example.com> 0 +0000\n\nfuzz\n");
    hex(&write_object(objects, "commit", commit.as_bytes()))
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("`{}`: {e}", dir.display()))
        .map(|e| e.expect("read a folder").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Nothing beside the checkout changed: the scratch folder holds what setup made, the canary
/// is untouched, the work tree is empty and the temporary folder holds `checkouts` only.
fn check_outside(setup: &Setup, checkouts: &[String], data: &[u8]) {
    let input = String::from_utf8_lossy(data);
    assert_eq!(names(&setup.base), ["outside", "repo", "tmp"], "something was written into the scratch folder; input: {input:?}");
    assert_eq!(names(&setup.base.join("outside")), ["canary"], "something was written beside the canary; input: {input:?}");
    let canary = fs::read_to_string(setup.base.join("outside/canary")).expect("read the canary");
    assert_eq!(canary, CANARY, "the canary changed; input: {input:?}");
    assert_eq!(names(&setup.repo.top), [".git"], "something was written into the work tree; input: {input:?}");
    assert_eq!(names(&setup.tmp), checkouts, "something was left in the temporary folder; input: {input:?}");
}

pub fn run(data: &[u8]) {
    let setup = setup();
    // The commit's id, as `git::resolve` would give it: one git process fewer per input.
    let commit = commit(&setup.repo.top.join(".git/objects"), data);
    // Refusing a tree is fine; writing outside the checkout is not.
    if let Ok(checkout) = git::checkout(&setup.repo, &commit, &[]) {
        let folder = checkout.root().file_name().expect("a folder name").to_string_lossy().into_owned();
        check_outside(setup, &[folder], data);
    }
    check_outside(setup, &[], data);
}
