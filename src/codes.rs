//! Every rule code, in one table. The table is expanded twice: here into [`Code`], the typed
//! code every diagnostic carries, and in [`crate::rules`] into the rule modules (one file per
//! rule, `src/rules/<family>/<module>.rs`) and the list of all rules. Adding a rule is one line
//! here and its file; a code is never reused, and a renamed code keeps working through
//! [`REDIRECTS`].

use std::fmt;

use serde::{Serialize, Serializer};

/// Calls `$callback!` with the whole table: `family { CODE module, … } …`, in code order.
macro_rules! rule_table {
    ($callback:ident) => {
        $callback! {
            manifest {
                MAN001 man001_manifest_syntax,
                MAN002 man002_missing_file,
                MAN003 man003_path_outside_root,
                MAN004 man004_unreachable_step,
                MAN005 man005_unknown_flag,
                MAN006 man006_invalid_condition,
                MAN007 man007_unknown_variant,
                MAN008 man008_duplicate_id,
                MAN009 man009_unknown_name,
                MAN010 man010_invalid_value,
                MAN011 man011_unknown_model,
                MAN012 man012_unknown_rule_code,
                MAN013 man013_invalid_suppression,
                MAN014 man014_requires_newer_ctxc,
            }
            tools {
                TOOL001 tool001_invalid_tool_file,
                TOOL002 tool002_invalid_name,
                TOOL003 tool003_duplicate_name,
                TOOL004 tool004_empty_description,
                TOOL005 tool005_long_description,
                TOOL006 tool006_schema_not_object,
                TOOL007 tool007_required_not_in_properties,
                TOOL008 tool008_invalid_schema_type,
                TOOL009 tool009_writer_in_read_only_mode,
                TOOL010 tool010_not_a_tool_file,
            }
            skills {
                SKILL001 skill001_missing_frontmatter,
                SKILL002 skill002_invalid_yaml,
                SKILL003 skill003_name_missing,
                SKILL004 skill004_name_invalid,
                SKILL005 skill005_name_folder_mismatch,
                SKILL006 skill006_description_missing,
                SKILL007 skill007_description_too_long,
                SKILL008 skill008_compatibility_invalid,
                SKILL009 skill009_metadata_not_strings,
                SKILL010 skill010_field_type,
                SKILL011 skill011_unknown_field,
                SKILL012 skill012_case_variant_keys,
                SKILL013 skill013_body_too_many_lines,
                SKILL014 skill014_body_too_many_tokens,
                SKILL015 skill015_catalogue_entry_too_long,
                SKILL016 skill016_duplicate_name,
            }
            memory {
                MEM001 mem001_missing_memory_file,
                MEM002 mem002_memory_too_large,
                MEM003 mem003_unresolved_import,
            }
            templates {
                TPL001 tpl001_template_error,
                TPL002 tpl002_undeclared_variable,
                TPL003 tpl003_leftover_placeholder,
                TPL004 tpl004_template_limits,
            }
            cache {
                CACHE001 cache001_dynamic_before_static,
            }
            content {
                SEC001 sec001_openai_key,
                SEC002 sec002_anthropic_key,
                SEC003 sec003_github_token,
                SEC004 sec004_aws_key,
                SEC005 sec005_private_key,
                SEC006 sec006_generic_secret,
                SEC007 sec007_repeated_paragraph,
            }
            budgets {
                BUDGET001 budget001_over_budget,
                BUDGET002 budget002_near_budget,
                BUDGET003 budget003_summarization_on_first_turn,
                BUDGET004 budget004_no_room_for_response,
            }
            settings {
                SET001 set001_deepagents_trigger_out_of_range,
                SET002 set002_deepagents_keep_not_below_trigger,
                SET003 set003_fixed_context_reaches_trigger,
                SET004 set004_deepagents_offload_threshold,
                SET005 set005_zeph_shares_sum,
                SET006 set006_zeph_fixed_outgrows_history,
                SET007 set007_zeph_compaction_threshold,
                SET008 set008_zeph_preserve_tail,
                SET009 set009_zeph_prune_protect_too_large,
                SET010 set010_zeph_tool_output_limit,
                SET011 set011_zeph_budget_exceeds_window,
                SET012 set012_zeph_reserve_out_of_range,
                SET013 set013_agentscope_trigger_out_of_range,
                SET014 set014_agentscope_reserve_not_below_trigger,
                SET015 set015_agentscope_tool_result_limit,
                SET101 set101_trigger_out_of_range,
                SET102 set102_reserve_overlaps_trigger,
                SET103 set103_weights_sum,
                SET104 set104_keep_exceeds_history,
                SET105 set105_retrieval_bound_zero,
            }
            claude {
            }
            mcp {
            }
            cursor {
            }
            copilot {
            }
            gemini {
            }
            openhands {
            }
            codex {
            }
            links {
            }
            instructions {
            }
        }
    };
}
pub(crate) use rule_table;

macro_rules! define_codes {
    ($($family:ident { $($code:ident $module:ident),* $(,)? })*) => {
        /// A rule's stable code: its family prefix and three digits.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $($($code,)*)*
        }

        impl Code {
            /// Every code, in code order.
            pub const ALL: &'static [Code] = &[$($(Code::$code,)*)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($(Code::$code => stringify!($code),)*)*
                }
            }
        }
    };
}
rule_table!(define_codes);

/// Codes that were renamed, and what they are now: old configurations, suppression comments and
/// `--select` lists keep working. Empty until a code is first renamed.
pub const REDIRECTS: &[(&str, Code)] = &[];

impl Code {
    /// The code this text names, case-insensitively; a renamed code gives its new code.
    pub fn parse(text: &str) -> Option<Code> {
        parse_with(text, REDIRECTS)
    }
}

fn parse_with(text: &str, redirects: &[(&str, Code)]) -> Option<Code> {
    let found = Code::ALL.iter().copied().find(|c| c.as_str().eq_ignore_ascii_case(text));
    found.or_else(|| redirects.iter().find(|(old, _)| old.eq_ignore_ascii_case(text)).map(|(_, new)| *new))
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_parse_case_insensitively_and_through_redirects() {
        assert_eq!(Code::parse("skill004"), Some(Code::SKILL004));
        assert_eq!(Code::parse("SKILL999"), None);
        let renamed = [("TOOL100", Code::TOOL002)];
        assert_eq!(parse_with("tool100", &renamed), Some(Code::TOOL002));
        assert_eq!(parse_with("TOOL002", &renamed), Some(Code::TOOL002));
    }

    #[test]
    fn codes_are_unique_sorted_and_well_formed() {
        let names: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        let mut sorted = names.clone();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "unique");
        assert!(names.iter().all(|n| n.len() > 3 && n[n.len() - 3..].bytes().all(|b| b.is_ascii_digit())));
        for (old, new) in REDIRECTS {
            assert!(Code::ALL.iter().all(|c| !c.as_str().eq_ignore_ascii_case(old)), "{old} is retired, not live");
            assert_ne!(Code::parse(old), None, "{old} redirects to {new}");
        }
    }
}
