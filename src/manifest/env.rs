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
//! Zeph's own variables for the settings ctxc models ([`ZEPH_VARS`]) are read too, and apply
//! only to agents on the `zeph` preset: their overrides carry the mark `@zeph ` (see
//! [`only_under`]), which the loader drops for other agents.

/// The prefix of every manifest override.
pub const ENV_PREFIX: &str = "CTXC_";

/// Whether a variable is shaped like a manifest override: [`ENV_PREFIX`], then a `__` somewhere.
pub fn is_override(name: &str) -> bool {
    name.strip_prefix(ENV_PREFIX).is_some_and(|rest| rest.contains("__"))
}

/// zeph-config 0.22.4 `src/env.rs` `apply_env_overrides_core_1`: the variables Zeph reads for the
/// settings ctxc models, and the manifest key each sets. `ZEPH_MEMORY_COMPACTION_THRESHOLD` sets
/// the hard threshold (Zeph's `hard_compaction_threshold`).
pub const ZEPH_VARS: [(&str, &str); 6] = [
    ("ZEPH_MEMORY_AUTO_BUDGET", "zeph.auto_budget"),
    ("ZEPH_MEMORY_COMPACTION_PRESERVE_TAIL", "zeph.compaction_preserve_tail"),
    ("ZEPH_MEMORY_COMPACTION_THRESHOLD", "zeph.compaction_threshold"),
    ("ZEPH_MEMORY_CONTEXT_BUDGET_TOKENS", "zeph.context_budget_tokens"),
    ("ZEPH_MEMORY_PRUNE_PROTECT_TOKENS", "zeph.prune_protect_tokens"),
    ("ZEPH_MEMORY_SOFT_COMPACTION_THRESHOLD", "zeph.soft_compaction_threshold"),
];

/// The mark of an override that applies only to agents on the `zeph` preset.
const ZEPH_ONLY: &str = "@zeph ";

/// Whether a variable is one of Zeph's that ctxc reads.
pub fn is_zeph_var(name: &str) -> bool {
    ZEPH_VARS.iter().any(|(var, _)| *var == name)
}

/// An override's preset condition and its `KEY=VALUE`: `(Some("zeph"), "zeph.x=1")` for one from
/// a Zeph variable, `(None, arg)` for any other.
pub fn only_under(arg: &str) -> (Option<&'static str>, &str) {
    match arg.strip_prefix(ZEPH_ONLY) {
        Some(rest) => (Some("zeph"), rest),
        None => (None, arg),
    }
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
/// `@zeph ` for Zeph's variables), sorted by variable name so the result does not depend on the environment's order.
pub fn env_overrides(vars: impl IntoIterator<Item = (String, String)>) -> Result<Vec<(String, String)>, String> {
    let mut found = Vec::new();
    for (name, value) in vars {
        if let Some((_, key)) = ZEPH_VARS.iter().find(|(var, _)| *var == name) {
            found.push((name, format!("{ZEPH_ONLY}{key}={value}")));
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
        assert!(is_zeph_var("ZEPH_MEMORY_PRUNE_PROTECT_TOKENS") && !is_zeph_var("ZEPH_LLM_MODEL"));
        for (_, key) in ZEPH_VARS {
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
