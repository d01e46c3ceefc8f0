//! The templates of ctxc's HTML pages (`templates/*.html`, compiled in) and the one environment
//! that renders them: autoescape on, every printed value escaped by [`super::escape::html`].
//! The templates are ours and fixed; a project's templates never run here (see
//! [`crate::templates`] for those).

use base64::Engine as _;
use serde::Serialize;
use sha2::{Digest, Sha256};

/// A Content-Security-Policy source that allows exactly `text` as an inline `<style>` (or
/// `<script>`): `'sha256-…'` of its bytes, as the browser hashes the element's content. The pages
/// capture their style in a `{% set %}` block and print the same string they hash.
fn csp_hash(text: &str) -> String {
    format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(Sha256::digest(text.as_bytes())))
}

/// The report's templates: ours, compiled in, escaped as HTML (their names end in `.html`).
const TEMPLATES: [(&str, &str); 7] = [
    ("page.html", include_str!("templates/page.html")),
    ("bars.html", include_str!("templates/bars.html")),
    ("cost.html", include_str!("templates/cost.html")),
    ("tools.html", include_str!("templates/tools.html")),
    ("chart.html", include_str!("templates/chart.html")),
    ("simulate.html", include_str!("templates/simulate.html")),
    ("hosts.html", include_str!("templates/hosts.html")),
];

/// Renders one of the report's templates. Every value printed is escaped by
/// [`super::escape::html`] (markup characters as entities, control characters as visible escapes),
/// unless a macro of the templates made it.
pub(super) fn render<T: Serialize>(name: &str, view: &T) -> String {
    let mut env = minijinja::Environment::new();
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
    // A line holding only a block tag writes nothing: the pages' bytes are what the templates'
    // lines of markup say.
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    env.set_formatter(|out, state, value| {
        if state.auto_escape() == minijinja::AutoEscape::None || value.is_safe() {
            return minijinja::escape_formatter(out, state, value);
        }
        out.write_str(&super::escape::html(&value.to_string())).map_err(minijinja::Error::from)
    });
    // Safe: quotes, `sha256-` and base64 need no escaping.
    env.add_filter("csp_hash", |text: &str| minijinja::Value::from_safe_string(csp_hash(text)));
    for (template, source) in TEMPLATES {
        // ok: the templates are constants of this crate; a syntax error in one fails every report test.
        env.add_template(template, source).expect("the report's templates compile");
    }
    // The view models are plain data and the templates are checked by the report tests:
    // ok: a render error is a bug in this module, never something a project can cause.
    env.get_template(name).and_then(|t| t.render(view)).expect("the report's templates render")
}
