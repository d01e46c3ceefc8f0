//! Manifest overrides from environment variables, the way Zeph lets every config key be set
//! from the environment. The naming rule: `CTXC_` then the dotted key in upper case with each
//! `.` written as `__` (a single `_` stays part of the key). So
//! `CTXC_BUDGETS__SYSTEM_PROMPT=3000` sets `budgets.system_prompt = 3000` and
//! `CTXC_ZEPH__SHARES__RECENT_HISTORY=0.5` sets `zeph.shares.recent_history`. Keys are lower
//! case. Values are read like `--set` values: a TOML value, or else a plain string. The CLI
//! reads the environment; this module only maps names.
//!
//! Every manifest key has a section and a name, so an override always holds a `__`. Other
//! `CTXC_…` variables (`CTXC_VERSION`, set by some other tool) are not ctxc's and are ignored.
//!
//! A runtime's own variables for the settings ctxc models (its `settings.rs`'s `ENV_VARS`, the
//! table's `env` row: Zeph's `ZEPH_MEMORY_…`) are read too, and apply only to agents on its
//! preset: their overrides carry the mark `@<preset> ` (see [`only_under`]), which the loader
//! drops for other agents.

use crate::runtimes::{runtime_table, Runtime};

/// The prefix of every manifest override.
pub const ENV_PREFIX: &str = "CTXC_";

/// Whether a variable is shaped like a manifest override: [`ENV_PREFIX`], then a `__` somewhere.
pub fn is_override(name: &str) -> bool {
    name.strip_prefix(ENV_PREFIX).is_some_and(|rest| rest.contains("__"))
}

macro_rules! runtime_vars {
    ($($id:ident $runtime:ident),* $(,)?) => {
        /// Each runtime that reads variables of its own (the table's `env` row): its variables
        /// and the manifest key each sets, and what to do when a value does not fit.
        const RUNTIME_VARS: &[(Runtime, &[(&str, &str)], &str)] =
            &[$((Runtime::$id, &crate::runtimes::$runtime::settings::ENV_VARS, crate::runtimes::$runtime::settings::ENV_HELP),)*];
    };
}
runtime_table!(env runtime_vars);

/// The runtime a variable of its own belongs to, and the manifest key it sets.
fn runtime_var(name: &str) -> Option<(Runtime, &'static str)> {
    RUNTIME_VARS.iter().find_map(|(runtime, vars, _)| vars.iter().find(|(var, _)| *var == name).map(|(_, key)| (*runtime, *key)))
}

/// Whether a variable is one a runtime reads for a setting ctxc models (`ZEPH_MEMORY_…`).
pub fn is_runtime_var(name: &str) -> bool {
    runtime_var(name).is_some()
}

/// An override's preset condition and its `KEY=VALUE`: `(Some("zeph"), "zeph.x=1")` for one from
/// a variable of the runtime of the `zeph` preset (marked `@zeph `), `(None, arg)` for any other.
pub fn only_under(arg: &str) -> (Option<&'static str>, &str) {
    let marked = |preset: &str| arg.strip_prefix('@')?.strip_prefix(preset)?.strip_prefix(' ');
    RUNTIME_VARS
        .iter()
        .find_map(|(runtime, _, _)| marked(runtime.preset()).map(|rest| (Some(runtime.preset()), rest)))
        .unwrap_or((None, arg))
}

/// What to do when a variable of the runtime of `preset` holds a value that does not fit.
pub fn runtime_var_help(preset: &str) -> Option<&'static str> {
    RUNTIME_VARS.iter().find(|(runtime, _, _)| runtime.preset() == preset).map(|(_, _, help)| *help)
}

/// The dotted manifest key a variable name stands for: `None` when the name is not shaped like
/// an override (see [`is_override`]), an error when it is but is malformed. Whether the key
/// exists is left to [`super::parse_override`], which suggests the nearest one.
pub fn env_key(name: &str) -> Option<Result<String, String>> {
    if !is_override(name) {
        return None;
    }
    let rest = &name[ENV_PREFIX.len()..];
    let segments: Vec<String> = rest.split("__").map(str::to_lowercase).collect();
    if segments.iter().any(|s| s.is_empty() || s.starts_with('_') || s.ends_with('_')) {
        return Some(Err(format!(
            "`{name}` does not name a manifest key: write CTXC_ then the key's segments in upper case, separated by `__` (e.g. CTXC_BUDGETS__SYSTEM_PROMPT for budgets.system_prompt)"
        )));
    }
    Some(Ok(segments.join(".")))
}

/// The `KEY=VALUE` overrides that environment variables give, as `(variable, KEY=VALUE)` (marked
/// `@<preset> ` for a runtime's own variables), sorted by variable name so the result does not depend on the environment's order.
pub fn env_overrides(vars: impl IntoIterator<Item = (String, String)>) -> Result<Vec<(String, String)>, String> {
    let mut found = Vec::new();
    for (name, value) in vars {
        if let Some((runtime, key)) = runtime_var(&name) {
            found.push((name, format!("@{} {key}={value}", runtime.preset())));
            continue;
        }
        match env_key(&name) {
            None => {}
            Some(Ok(key)) => found.push((name, format!("{key}={value}"))),
            Some(Err(message)) => return Err(message),
        }
    }
    found.sort();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_underscores_separate_segments_and_single_ones_stay() {
        assert_eq!(env_key("CTXC_BUDGETS__SYSTEM_PROMPT"), Some(Ok("budgets.system_prompt".to_string())));
        assert_eq!(env_key("CTXC_ZEPH__SHARES__RECENT_HISTORY"), Some(Ok("zeph.shares.recent_history".to_string())));
        assert_eq!(env_key("CTXC_AGENTSCOPE__TRIGGER_RATIO"), Some(Ok("agentscope.trigger_ratio".to_string())));
        assert_eq!(env_key("PATH"), None);
        assert!(matches!(env_key("CTXC_BUDGETS___SYSTEM_PROMPT"), Some(Err(_))));
        assert!(matches!(env_key("CTXC___BUDGETS"), Some(Err(_))));
        assert!(matches!(env_key("CTXC_BUDGETS__"), Some(Err(_))));
    }

    #[test]
    fn only_names_with_a_section_separator_are_overrides() {
        for unrelated in
            ["CTXC_", "CTXC_VERSION", "CTXC_BUDGETS_SYSTEM_PROMPT", "CTXC_X", "XCTXC_BUDGETS__SYSTEM_PROMPT", "ctxc_budgets__system_prompt"]
        {
            assert!(!is_override(unrelated), "{unrelated}");
            assert_eq!(env_key(unrelated), None, "{unrelated}");
        }
        for shaped in ["CTXC_BUDGETS__SYSTEM_PROMPT", "CTXC_BUDGET__SYSTEM_PROMPT", "CTXC_A__B", "CTXC___"] {
            assert!(is_override(shaped), "{shaped}");
        }
        // A near miss of a real key is still read, so that parse_override can name the real one.
        assert_eq!(env_key("CTXC_BUDGET__SYSTEM_PROMPT"), Some(Ok("budget.system_prompt".to_string())));
        let message = super::super::parse_override("budget.system_prompt=10").expect_err("no such section");
        assert!(message.contains("did you mean `budgets`?"), "{message}");
    }

    #[test]
    fn unrelated_variables_do_not_stop_the_run() {
        let vars =
            [("CTXC_VERSION", "1.2"), ("CTXC_", "x"), ("CTXC_BUDGETS__SYSTEM_PROMPT", "3000")].map(|(k, v)| (k.to_string(), v.to_string()));
        assert_eq!(env_overrides(vars), Ok(vec![("CTXC_BUDGETS__SYSTEM_PROMPT".to_string(), "budgets.system_prompt=3000".to_string())]));
    }

    #[test]
    fn overrides_are_sorted_and_round_trip_through_parse_override() {
        let vars = [("CTXC_ZEPH__COMPACTION_THRESHOLD", "0.7"), ("HOME", "/root"), ("CTXC_BUDGETS__SYSTEM_PROMPT", "3000")]
            .map(|(k, v)| (k.to_string(), v.to_string()));
        let found = env_overrides(vars).expect("valid");
        assert_eq!(
            found,
            [
                ("CTXC_BUDGETS__SYSTEM_PROMPT".to_string(), "budgets.system_prompt=3000".to_string()),
                ("CTXC_ZEPH__COMPACTION_THRESHOLD".to_string(), "zeph.compaction_threshold=0.7".to_string()),
            ]
        );
        let fragment = super::super::parse_override(&found[0].1).expect("parses");
        assert_eq!(fragment.budgets.and_then(|b| b.system_prompt).map(|b| b.value), Some(3000));
    }

    #[test]
    fn zeph_variables_map_to_zeph_keys_and_apply_only_under_the_preset() {
        let vars = [("ZEPH_MEMORY_COMPACTION_THRESHOLD", "0.5"), ("ZEPH_LLM_MODEL", "x"), ("ZEPH_MEMORY_AUTO_BUDGET", "false")]
            .map(|(k, v)| (k.to_string(), v.to_string()));
        let found = env_overrides(vars).expect("valid");
        assert_eq!(
            found,
            [
                ("ZEPH_MEMORY_AUTO_BUDGET".to_string(), "@zeph zeph.auto_budget=false".to_string()),
                ("ZEPH_MEMORY_COMPACTION_THRESHOLD".to_string(), "@zeph zeph.compaction_threshold=0.5".to_string()),
            ]
        );
        assert_eq!(only_under(&found[1].1), (Some("zeph"), "zeph.compaction_threshold=0.5"));
        assert_eq!(only_under("budgets.system_prompt=1"), (None, "budgets.system_prompt=1"));
        assert!(is_runtime_var("ZEPH_MEMORY_PRUNE_PROTECT_TOKENS") && !is_runtime_var("ZEPH_LLM_MODEL"));
        assert!(runtime_var_help("zeph").is_some_and(|h| h.contains("[zeph]")) && runtime_var_help("deepagents").is_none());
        for (_, key) in RUNTIME_VARS.iter().flat_map(|(_, vars, _)| vars.iter()) {
            super::super::parse_override(&format!("{key}=1"))
                .map(drop)
                .or_else(|e| {
                    // A boolean key refuses 1: the key itself exists.
                    if e.contains("expected a boolean") {
                        Ok(())
                    } else {
                        Err(e)
                    }
                })
                .expect("every mapped key is a manifest key");
        }
    }
}
