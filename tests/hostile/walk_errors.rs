//! Walks never hide a failure (issue 27, D14): a part of the tree the walk cannot read is a
//! located problem, and the files it could read are still checked.
// The tree below is deeper than PATH_MAX, which only `mkdirat`/`openat` can build: plain libc
// calls with owned, NUL-terminated names.
#![allow(unsafe_code)]
#![cfg(unix)]

use std::ffi::CString;

use ctxc::lint::{check, Options};

/// Makes `levels` nested folders named `name` under `root`, and a file `AGENTS.md` at the bottom.
fn deep_tree(root: &std::path::Path, name: &str, levels: usize) {
    let c = |s: &str| CString::new(s).expect("no NUL");
    let (name, file) = (c(name), c("AGENTS.md"));
    let root = c(root.to_str().expect("UTF-8"));
    // SAFETY: every pointer is a live NUL-terminated string; each fd is checked and closed once.
    unsafe {
        let mut fd = libc::open(root.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY);
        assert!(fd >= 0, "open the root");
        for _ in 0..levels {
            assert_eq!(libc::mkdirat(fd, name.as_ptr(), 0o755), 0, "mkdirat");
            let next = libc::openat(fd, name.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY);
            assert!(next >= 0, "openat");
            libc::close(fd);
            fd = next;
        }
        let out = libc::openat(fd, file.as_ptr(), libc::O_WRONLY | libc::O_CREAT, 0o644);
        assert!(out >= 0, "create the file");
        let text = b"Build with make.\n";
        assert_eq!(libc::write(out, text.as_ptr().cast(), text.len()), text.len() as isize);
        libc::close(out);
        libc::close(fd);
    }
}

#[test]
fn a_folder_past_path_max_is_reported_not_skipped() {
    let project = tempfile::tempdir().expect("tempdir");
    std::fs::write(project.path().join("AGENTS.md"), "Notes.\n").expect("write");
    // 25 levels of 200 bytes: over 4096 bytes, past what a path given to the system may hold.
    deep_tree(project.path(), &"d".repeat(200), 25);
    let report = check(project.path(), &Options::default(), &ctxc::Session::default());
    assert!(report.unloadable, "a tree it did not read is not a clean tree: {:?}", report.diagnostics);
    let problems: Vec<&ctxc::Diagnostic> = report.diagnostics.iter().filter(|d| d.message.contains("were not checked")).collect();
    assert_eq!(problems.len(), 1, "{:?}", report.diagnostics);
    let file = problems[0].file.as_deref().unwrap_or_default();
    assert!(file.contains(&"d".repeat(200)), "located at the folder it could not read: {file}");
    assert!(report.files.iter().any(|f| f.ends_with("AGENTS.md")), "the rest is checked: {:?}", report.files);
}

#[test]
fn a_skill_folder_listed_by_a_manifest_reports_what_it_could_not_read() {
    // The project root itself lies deep, so a folder inside a skill crosses PATH_MAX while the
    // manifest, the skill and its SKILL.md stay readable.
    let base = tempfile::tempdir().expect("tempdir");
    deep_tree(base.path(), &"p".repeat(200), 18);
    let mut project = base.path().to_path_buf();
    for _ in 0..18 {
        project.push("p".repeat(200));
    }
    let write = |rel: &str, text: &str| {
        let path = project.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write(
        "ctxc.toml",
        "[agent]\nname = \"a\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [{ id = \"core\", kind = \"module\" }, { id = \"skills\", kind = \"skills\" }]\n\n[modules]\ncore = { source = \"core.md\" }\n\n[skills]\ndirs = [\"skills\"]\n",
    );
    write("core.md", "You help.\n");
    write(
        "skills/pdf/SKILL.md",
        "---\nname: pdf\ndescription: Read PDF files. Use when the user shares a PDF.\n---\nRun `python scripts/extract.py`.\n",
    );
    let room = 4096usize.saturating_sub(project.join("skills/pdf/scripts").as_os_str().len() + 2);
    deep_tree(&project.join("skills/pdf"), &"s".repeat(room.clamp(1, 255)), 2);
    let report = check(&project, &Options::default(), &ctxc::Session::default());
    let unread: Vec<&ctxc::Diagnostic> = report.diagnostics.iter().filter(|d| d.message.contains("were not checked")).collect();
    assert_eq!(unread.len(), 1, "the unread part is reported once: {:?}", report.diagnostics);
    assert!(unread[0].file.as_deref().unwrap_or_default().contains("skills/pdf/"), "{:?}", unread[0]);
}
