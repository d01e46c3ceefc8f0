//! The findings' fixes on disk, for `ctxc check --fix` and `--diff` and the MCP server's `fix`
//! tool: the folder fixes may write in, the texts they edit read back through the guarded
//! reader, and files written atomically inside that folder ([`crate::lint::fix`] plans them).

use std::path::Path;

use crate::diagnostic::Sources;
use crate::lint::{fix, CheckReport};
use crate::project::ProjectRoot;
use crate::rules::secrets;

/// The folder fixes may write in: PATH, or the folder of a file given as PATH.
pub fn fix_root(path: &Path) -> &Path {
    match path.is_dir() {
        true => path,
        false => path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")),
    }
}

/// The text of a file a fix edits, as `--fix` and `--diff` see it: read by the guarded reader
/// from inside the checked folder (after links), and only when it is the text the check read
/// (compared with secrets masked, as the report holds it). A display path can name another file
/// than the one checked (`[project] root` reached through a link): that file is neither read nor
/// written.
pub fn read_for_fix(root: Option<&ProjectRoot>, file: &str, checked: &Sources) -> Option<String> {
    let text = root?.read_named(Path::new(file)).ok()?.text;
    (checked.get(file)? == secrets::mask_with(&text, checked.secrets())).then(|| text.to_string())
}

/// Checks, fixes, writes and checks again ([`fix::fix`]) inside [`fix_root`] of `path`: what
/// `ctxc check --fix` does.
pub fn fix_in(path: &Path, unsafe_fixes: bool, check: impl FnMut() -> CheckReport) -> fix::Fixing {
    let root = fix_root(path);
    let reader = ProjectRoot::new(root).ok();
    let read = |file: &str, checked: &Sources| read_for_fix(reader.as_ref(), file, checked);
    let write = |file: &str, text: &str| super::atomic::replace_inside(root, Path::new(file), text.as_bytes()).map_err(|e| e.to_string());
    fix::fix(check, unsafe_fixes, read, write)
}
