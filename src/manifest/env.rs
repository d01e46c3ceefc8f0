//! Manifest overrides from environment variables, the way Zeph lets every config key be set
//! from the environment. The naming rule: `CTXC_` then the dotted key in upper case with each
//! `.` written as `__` (a single `_` stays part of the key). So
//! `CTXC_BUDGETS__SYSTEM_PROMPT=3000` sets `budgets.system_prompt = 3000` and
//! `CTXC_ZEPH__SHARES__RECENT_HISTORY=0.5` sets `zeph.shares.recent_history`. Keys are lower
//! case. Values are read like `--set` values: a TOML value, or else a plain string. The CLI
//! reads the environment; this module only maps names.

/// Every variable starting with this is a manifest override.
pub const ENV_PREFIX: &str = "CTXC_";

/// The dotted manifest key a variable name stands for: `None` when the name does not start
/// with [`ENV_PREFIX`], an error when it does but names no key.
pub fn env_key(name: &str) -> Option<Result<String, String>> {
    let rest = name.strip_prefix(ENV_PREFIX)?;
    let segments: Vec<String> = rest.split("__").map(str::to_lowercase).collect();
    if segments.iter().any(|s| s.is_empty() || s.starts_with('_') || s.ends_with('_')) {
        return Some(Err(format!(
            "`{name}` does not name a manifest key: write CTXC_ then the key's segments in upper case, separated by `__` (e.g. CTXC_BUDGETS__SYSTEM_PROMPT for budgets.system_prompt)"
        )));
    }
    Some(Ok(segments.join(".")))
}

/// The `KEY=VALUE` overrides that environment variables give, as `(variable, KEY=VALUE)`,
/// sorted by variable name so the result does not depend on the environment's order.
pub fn env_overrides(vars: impl IntoIterator<Item = (String, String)>) -> Result<Vec<(String, String)>, String> {
    let mut found = Vec::new();
    for (name, value) in vars {
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
        assert!(matches!(env_key("CTXC_"), Some(Err(_))));
        assert!(matches!(env_key("CTXC_BUDGETS___SYSTEM_PROMPT"), Some(Err(_))));
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
}
