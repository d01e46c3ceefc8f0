//! The template layer: the one minijinja environment every user template and enable condition
//! runs in, and its limits — an instruction budget (fuel), a memory budget for everything a
//! template makes (output, captures, concatenation, literals, filter results; a ctxc patch of
//! minijinja, see `vendor/minijinja/PATCHES.md`) and a cap on the output. Errors are located
//! TPL diagnostics, never a crash or a runaway.

use serde::Serialize;

use crate::codes::Code;
use crate::diagnostic::Diagnostic;
use crate::project::{ProjectRoot, ReadError};

/// Instruction budget for one template render: generous for real prompts, finite for loops.
pub const TEMPLATE_FUEL: u64 = 200_000;
/// Largest text one template may produce (1 MiB).
pub const MAX_TEMPLATE_OUTPUT: usize = 1024 * 1024;
/// Bytes one template render (or condition) may allocate in text and lists, counted as they are
/// made: output and captures, `~` / `+` / `*`, literals, slices and every filter's result. Fuel
/// alone bounds instructions, and one instruction can double a string.
pub const TEMPLATE_MEMORY: usize = 16 * 1024 * 1024;

/// The environment every user template and enable condition runs in: strict undefined
/// variables, no escaping, and the instruction limit. Run it only through [`within_limits`].
pub fn environment() -> minijinja::Environment<'static> {
    let mut env = minijinja::Environment::new();
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
    env.set_keep_trailing_newline(true);
    env.set_fuel(Some(TEMPLATE_FUEL));
    env
}

/// Runs `f` (compiling or evaluating templates of [`environment`]) with [`TEMPLATE_MEMORY`] to
/// spend; returns its result and whether it ran out.
pub fn within_limits<R>(f: impl FnOnce() -> R) -> (R, bool) {
    minijinja::budget::with_budget(TEMPLATE_MEMORY, f)
}

/// Renders one template with ctxc's environment and limits, as prompt files are rendered (without
/// includes, which need a project). For tools that drive the template layer directly (fuzzing).
pub fn render_template_str<S: Serialize>(name: &str, source: &str, context: S) -> Result<String, Diagnostic> {
    let env = environment();
    render_bounded(&env, name, source, minijinja::Value::from_serialize(context), &|path| path.to_string())
}

/// [`environment`] with includes and imports read through the project root.
pub fn project_environment(root: &ProjectRoot) -> minijinja::Environment<'static> {
    let mut env = environment();
    let root = root.clone();
    // Includes and imports resolve through the project root, so they cannot leave it.
    env.set_loader(move |name| match root.read(name) {
        Ok(file) => Ok(Some(file.text.to_string())),
        // minijinja words every "not found" its own way; other refusals keep their reason.
        Err(ReadError::Missing(_)) => Ok(None),
        Err(e) => Err(minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, e.message())),
    });
    env
}

/// Renders `source` (named `name`) within the limits; `display` turns a template name into the
/// path diagnostics show.
pub fn render_bounded(
    env: &minijinja::Environment<'static>,
    name: &str,
    source: &str,
    context: minijinja::Value,
    display: &dyn Fn(&str) -> String,
) -> Result<String, Diagnostic> {
    let (result, exhausted) = within_limits(|| env.render_named_str(name, source, context));
    match result {
        Ok(text) if text.len() > MAX_TEMPLATE_OUTPUT => {
            Err(Diagnostic::error(format!("template output is {} bytes, over the {MAX_TEMPLATE_OUTPUT}-byte limit", text.len()))
                .code(Code::TPL004)
                .in_file(display(name)))
        }
        // A spent budget fails the render even where the template caught the error.
        Ok(_) if exhausted => Err(out_of_memory().in_file(display(name))),
        Ok(text) => Ok(text),
        Err(e) => Err(template_error(name, source, &e, exhausted, display)),
    }
}

fn out_of_memory() -> Diagnostic {
    let mib = TEMPLATE_MEMORY / (1024 * 1024);
    Diagnostic::error(format!("template error: the template uses more than its {mib} MiB of memory")).code(Code::TPL004).help(format!(
        "a template may make at most {mib} MiB of text and lists (output, captures, concatenation, filter results); \
         look for a string or list that grows in a loop, or a large width or count"
    ))
}

fn template_error(name: &str, source: &str, e: &minijinja::Error, exhausted: bool, display: &dyn Fn(&str) -> String) -> Diagnostic {
    // Errors raised inside an included template name that template.
    let path = e.name().unwrap_or(name).to_string();
    let detail = e.detail().map(|d| format!(": {d}")).unwrap_or_default();
    let span = e.range().or_else(|| {
        let text = if path == name { Some(source) } else { None };
        e.line().zip(text).map(|(line, text)| {
            let start = crate::diagnostic::offset_of(text, line, 1);
            start..start
        })
    });
    if exhausted {
        return out_of_memory().in_file(display(&path)).at(span);
    }
    let code = match e.kind() {
        minijinja::ErrorKind::UndefinedError => Code::TPL002,
        minijinja::ErrorKind::OutOfFuel => Code::TPL004,
        _ => Code::TPL001,
    };
    let mut d = Diagnostic::error(format!("template error: {}{detail}", e.kind())).code(code).in_file(display(&path)).at(span);
    if e.kind() == minijinja::ErrorKind::UndefinedError {
        d = d.help(
            "templates can use agent.name, agent.description, agent.model, mode, scenario, flags, tools, tools_description and vars.NAME",
        );
    }
    if e.kind() == minijinja::ErrorKind::OutOfFuel {
        d = d.help(format!("a template may run at most {TEMPLATE_FUEL} instructions; look for a runaway loop"));
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_a_template_on_its_own() {
        let text = render_template_str("t.j2", "Hello {{ name }}{{ '!' * 3 }}", minijinja::context! { name => "Ada" });
        assert_eq!(text.expect("renders"), "Hello Ada!!!");
    }

    #[test]
    fn memory_over_the_budget_is_a_located_tpl004() {
        let source = "line one\n{% set ns = namespace(s='x' * 1000) %}{% for i in range(30) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}";
        let d = render_template_str("t.j2", source, ()).expect_err("over the budget");
        assert_eq!(d.code, Some(Code::TPL004));
        assert_eq!(d.file.as_deref(), Some("t.j2"));
        let at = d.span.clone().expect("located").start;
        assert_eq!(&source[at..at + 11], "ns.s ~ ns.s", "{d:?}");
    }

    #[test]
    fn growth_under_the_budget_is_fine() {
        let source =
            "{% set ns = namespace(s='x' * 1000) %}{% for i in range(10) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}";
        let text = render_template_str("t.j2", source, ());
        assert_eq!(text.expect("renders"), "1024000");
    }

    #[test]
    fn a_runaway_loop_is_out_of_fuel() {
        let d = render_template_str("t.j2", "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", ())
            .expect_err("out of fuel");
        assert_eq!(d.code, Some(Code::TPL004));
        assert!(d.message.contains("out of fuel"), "{d:?}");
    }

    #[test]
    fn the_budget_is_given_back_after_a_render() {
        render_template_str("t.j2", "{{ 'x' * 100000000 }}", ()).expect_err("over the budget");
        // Outside a render nothing is charged: the same value is made freely.
        let (value, exhausted) = within_limits(|| minijinja::budget::charge(1));
        assert!(value.is_ok() && !exhausted);
        assert!(minijinja::budget::charge(usize::MAX).is_ok(), "no budget outside a render");
    }
}
