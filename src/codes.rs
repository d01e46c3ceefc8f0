//! Every rule code, in one table. The table is expanded twice: here into [`Code`], the typed
//! code every diagnostic carries, and in [`crate::rules`] into the rule modules (one file per
//! rule, `src/rules/<family>/<module>.rs`) and the list of all rules. Adding a rule is one line
//! here and its file; a code is never reused, and a renamed code keeps working through
//! [`REDIRECTS`].

use std::fmt;

use serde::{Serialize, Serializer};

/// Calls `$callback!` with the whole table, in code order: `family Variant { CODE module, … } …`.
/// A family is a module (`src/rules/<family>/mod.rs`) and a [`crate::rules::Family`] variant; a
/// rule's module is its code in lowercase and its name in snake case (`skill004_name_invalid`
/// is SKILL004, `name-invalid`), so code, name and family are written here and nowhere else.
/// A rule in preview is marked after its module, `CODE module (Preview)`: it runs only when
/// preview is on (`ctxc check --preview`, `[lint] preview = true`); a new rule can ship so and
/// become stable by deleting the mark.
macro_rules! rule_table {
    ($callback:ident) => {
        $callback! {
            manifest Manifest {
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
                MAN015 man015_internal_error,
                MAN016 man016_setting_without_chat_template,
            }
            tools Tools {
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
            skills Skills {
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
                SKILL017 skill017_bundled_file_missing,
                SKILL018 skill018_bundled_file_unreferenced,
                SKILL019 skill019_nested_reference,
                SKILL020 skill020_bundled_document_too_large,
                SKILL021 skill021_reference_outside_skill,
                SKILL022 skill022_backslash_path_mention,
                SKILL023 skill023_long_reference_without_contents,
                SKILL024 skill024_interpreter_mismatch,
                SKILL025 skill025_description_xml_tag,
                SKILL026 skill026_claude_listing_over_budget,
                SKILL027 skill027_codex_listing_over_budget,
                SKILL030 skill030_file_name_case,
                SKILL031 skill031_flat_skill_file,
            }
            memory Memory {
                MEM001 mem001_missing_memory_file,
                MEM002 mem002_memory_too_large,
                MEM003 mem003_unresolved_import,
            }
            templates Templates {
                TPL001 tpl001_template_error,
                TPL002 tpl002_undeclared_variable,
                TPL003 tpl003_leftover_placeholder,
                TPL004 tpl004_template_limits,
            }
            cache Cache {
                CACHE001 cache001_dynamic_before_static,
            }
            content Content {
                SEC001 sec001_openai_key,
                SEC002 sec002_anthropic_key,
                SEC003 sec003_github_token,
                SEC004 sec004_aws_key,
                SEC005 sec005_private_key,
                SEC006 sec006_generic_secret,
                SEC007 sec007_repeated_paragraph,
            }
            budgets Budgets {
                BUDGET001 budget001_over_budget,
                BUDGET002 budget002_near_budget,
                BUDGET003 budget003_summarization_on_first_turn,
                BUDGET004 budget004_no_room_for_response,
                BUDGET005 budget005_count_not_recorded,
                BUDGET006 budget006_workload_over_policy,
                BUDGET007 budget007_implausible_count,
                BUDGET008 budget008_host_over_budget,
                BUDGET009 budget009_listing_entries_left_out (Preview),
            }
            settings Settings {
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
            claude Claude {
                CLAUDE001 claude001_agent_frontmatter_missing,
                CLAUDE002 claude002_frontmatter_yaml_invalid,
                CLAUDE003 claude003_agent_name_missing,
                CLAUDE004 claude004_agent_name_invalid,
                CLAUDE005 claude005_agent_description_missing,
                CLAUDE007 claude007_agent_model_unknown,
                CLAUDE008 claude008_agent_permission_mode_invalid,
                CLAUDE009 claude009_agent_bypass_permissions,
                CLAUDE010 claude010_agent_tool_case,
                CLAUDE011 claude011_agent_tools_format,
                CLAUDE012 claude012_agent_tool_allowed_and_disallowed,
                CLAUDE013 claude013_agent_color_invalid,
                CLAUDE014 claude014_agent_memory_invalid,
                CLAUDE015 claude015_agent_max_turns_invalid,
                CLAUDE016 claude016_agent_unknown_field,
                CLAUDE017 claude017_agent_prompt_empty,
                CLAUDE018 claude018_agent_prompt_too_long,
                CLAUDE019 claude019_agent_name_duplicate,
                CLAUDE020 claude020_command_arguments_in_bash,
                CLAUDE021 claude021_command_bash_not_allowed,
                CLAUDE022 claude022_command_argument_hint_missing,
                CLAUDE023 claude023_command_allowed_tools_format,
                CLAUDE024 claude024_command_tool_case,
                CLAUDE025 claude025_command_model_unknown,
                CLAUDE026 claude026_command_unknown_field,
                CLAUDE027 claude027_command_body_empty,
                CLAUDE028 claude028_json_invalid,
                CLAUDE029 claude029_settings_unknown_key,
                CLAUDE030 claude030_hook_event_unknown,
                CLAUDE031 claude031_hook_matcher_ignored,
                CLAUDE032 claude032_hook_structure_invalid,
                CLAUDE033 claude033_hook_type_invalid,
                CLAUDE034 claude034_hook_command_missing,
                CLAUDE035 claude035_hook_timeout_invalid,
                CLAUDE036 claude036_hook_timeout_milliseconds,
                CLAUDE037 claude037_hook_unquoted_expansion,
                CLAUDE038 claude038_permission_rule_invalid,
                CLAUDE039 claude039_permission_rule_conflict,
                CLAUDE040 claude040_permission_rule_duplicate,
                CLAUDE041 claude041_permission_allow_all,
                CLAUDE042 claude042_permission_mode_invalid,
                CLAUDE043 claude043_permission_bypass_committed,
                CLAUDE044 claude044_permission_tool_case,
                CLAUDE045 claude045_settings_model_unknown,
                CLAUDE046 claude046_settings_env_secret,
                CLAUDE047 claude047_plugin_name_missing,
                CLAUDE048 claude048_plugin_name_invalid,
                CLAUDE049 claude049_plugin_version_invalid,
                CLAUDE050 claude050_plugin_path_invalid,
                CLAUDE051 claude051_plugin_unknown_field,
                CLAUDE052 claude052_marketplace_field_missing,
                CLAUDE053 claude053_marketplace_source_missing,
                CLAUDE054 claude054_marketplace_plugin_duplicate,
                CLAUDE055 claude055_memory_import_too_deep,
                CLAUDE056 claude056_memory_import_in_code,
                CLAUDE057 claude057_tool_removed,
                CLAUDE058 claude058_hook_variable_never_set,
                CLAUDE059 claude059_plugin_path_missing,
            }
            mcp Mcp {
                MCP001 mcp001_config_json_invalid,
                MCP002 mcp002_servers_missing,
                MCP003 mcp003_server_command_missing,
                MCP004 mcp004_server_url_missing,
                MCP005 mcp005_server_command_and_url,
                MCP006 mcp006_server_type_unknown,
                MCP007 mcp007_server_sse_deprecated,
                MCP008 mcp008_server_args_not_strings,
                MCP009 mcp009_server_env_not_strings,
                MCP010 mcp010_variable_without_default,
                MCP011 mcp011_variable_unbraced,
                MCP012 mcp012_literal_secret,
                MCP013 mcp013_remote_url_not_https,
                MCP014 mcp014_command_with_arguments,
                MCP015 mcp015_server_url_invalid,
                MCP016 mcp016_tool_name_invalid,
                MCP017 mcp017_tool_name_duplicate,
                MCP018 mcp018_tool_schema_not_object,
                MCP019 mcp019_tool_description_missing,
                MCP020 mcp020_tool_annotations_contradict,
                MCP021 mcp021_tool_annotation_invalid,
                MCP022 mcp022_record_outdated,
            }
            cursor Cursor {
                CURSOR001 cursor001_frontmatter_missing,
                CURSOR002 cursor002_frontmatter_unterminated,
                CURSOR003 cursor003_unknown_field,
                CURSOR004 cursor004_always_apply_not_boolean,
                CURSOR005 cursor005_always_apply_with_globs,
                CURSOR006 cursor006_globs_space_separated,
                CURSOR007 cursor007_glob_quoted,
                CURSOR008 cursor008_glob_invalid,
                CURSOR009 cursor009_glob_anchored,
                CURSOR010 cursor010_glob_empty_entry,
                CURSOR012 cursor012_empty_body,
                CURSOR013 cursor013_rule_too_long,
                CURSOR014 cursor014_legacy_cursorrules,
                CURSOR015 cursor015_cursorrules_beside_rules,
                CURSOR016 cursor016_cursorrules_empty,
                CURSOR017 cursor017_duplicate_field,
                CURSOR018 cursor018_cursorrules_inside_cursor_folder,
                CURSOR019 cursor019_hooks_invalid_json,
                CURSOR020 cursor020_hooks_shape_invalid,
                CURSOR021 cursor021_hook_event_unknown,
                CURSOR022 cursor022_hook_definition_invalid,
                CURSOR023 cursor023_hook_script_wrong_base,
            }
            copilot Copilot {
                COPILOT001 copilot001_instructions_empty,
                COPILOT002 copilot002_instructions_frontmatter,
                COPILOT003 copilot003_invalid_frontmatter,
                COPILOT004 copilot004_apply_to_missing,
                COPILOT005 copilot005_apply_to_not_string,
                COPILOT006 copilot006_apply_to_invalid_glob,
                COPILOT007 copilot007_exclude_agent_invalid,
                COPILOT008 copilot008_instructions_unknown_field,
                COPILOT009 copilot009_empty_body,
                COPILOT010 copilot010_prompt_mode_deprecated,
                COPILOT011 copilot011_prompt_agent_unknown,
                COPILOT012 copilot012_prompt_unknown_field,
                COPILOT013 copilot013_input_variable_malformed,
                COPILOT014 copilot014_tools_not_list,
                COPILOT015 copilot015_tools_duplicate,
                COPILOT016 copilot016_agent_description_missing,
                COPILOT017 copilot017_agent_unknown_field,
                COPILOT018 copilot018_agent_target_invalid,
                COPILOT019 copilot019_agent_body_too_long,
                COPILOT020 copilot020_chatmode_legacy,
                COPILOT021 copilot021_agent_infer_deprecated,
                COPILOT022 copilot022_agent_flag_not_boolean,
                COPILOT023 copilot023_handoff_invalid,
                COPILOT024 copilot024_github_target_unsupported,
                COPILOT025 copilot025_model_list_in_string,
            }
            gemini Gemini {
                GEMINI001 gemini001_settings_invalid_json,
                GEMINI002 gemini002_settings_unknown_key,
                GEMINI003 gemini003_context_filename_invalid,
                GEMINI004 gemini004_import_format_invalid,
                GEMINI005 gemini005_mcp_server_no_transport,
                GEMINI006 gemini006_mcp_server_several_transports,
                GEMINI007 gemini007_mcp_alias_underscore,
                GEMINI008 gemini008_mcp_timeout_not_milliseconds,
                GEMINI009 gemini009_mcp_tool_included_and_excluded,
                GEMINI010 gemini010_mcp_args_not_strings,
                GEMINI011 gemini011_gemini_md_empty,
                GEMINI012 gemini012_import_too_deep,
                GEMINI013 gemini013_extension_json_invalid,
                GEMINI014 gemini014_extension_name_invalid,
                GEMINI015 gemini015_extension_context_file_missing,
            }
            openhands OpenHands {
                OPENHANDS001 openhands001_invalid_frontmatter,
                OPENHANDS002 openhands002_type_invalid,
                OPENHANDS003 openhands003_knowledge_not_triggered,
                OPENHANDS004 openhands004_repo_not_always_on,
                OPENHANDS005 openhands005_task_without_inputs,
                OPENHANDS006 openhands006_input_invalid,
                OPENHANDS007 openhands007_variable_undeclared,
                OPENHANDS008 openhands008_input_unused,
                OPENHANDS009 openhands009_triggers_not_list,
                OPENHANDS010 openhands010_trigger_too_generic,
                OPENHANDS011 openhands011_duplicate_trigger,
                OPENHANDS012 openhands012_mcp_tools_no_stdio,
                OPENHANDS013 openhands013_unknown_field,
                OPENHANDS014 openhands014_empty_body,
                OPENHANDS015 openhands015_readme_not_loaded,
            }
            codex Codex {
                CODEX001 codex001_chain_over_budget,
                CODEX002 codex002_override_shadows,
                CODEX003 codex003_empty_agents_md,
                CODEX004 codex004_config_invalid_toml,
                CODEX005 codex005_config_unknown_key,
                CODEX006 codex006_config_value_invalid,
                CODEX007 codex007_mcp_server_transport,
                CODEX008 codex008_profile_undefined,
                CODEX009 codex009_agent_role_description_missing,
                CODEX010 codex010_agent_role_file_missing,
                CODEX011 codex011_agent_file_invalid,
            }
            kiro Kiro {
                KIRO001 kiro001_inclusion_invalid,
                KIRO002 kiro002_inclusion_field_missing,
                KIRO003 kiro003_unknown_field,
                KIRO004 kiro004_pattern_ignored,
                KIRO005 kiro005_file_match_pattern_invalid,
                KIRO006 kiro006_empty_body,
                KIRO007 kiro007_frontmatter_invalid,
                KIRO008 kiro008_hooks_invalid,
                KIRO009 kiro009_hook_trigger_unknown,
            }
            cline Cline {
                CLINE001 cline001_rule_empty,
                CLINE002 cline002_paths_invalid,
                CLINE003 cline003_unknown_field,
                CLINE004 cline004_frontmatter_invalid,
            }
            opencode Opencode {
                OPENCODE001 opencode001_agent_value_invalid,
                OPENCODE002 opencode002_agent_unknown_field,
                OPENCODE003 opencode003_field_replaced,
                OPENCODE004 opencode004_command_unknown_field,
                OPENCODE005 opencode005_frontmatter_invalid,
                OPENCODE006 opencode006_config_invalid_jsonc,
                OPENCODE007 opencode007_config_unknown_key,
            }
            windsurf Windsurf {
                WINDSURF001 windsurf001_trigger_invalid,
                WINDSURF002 windsurf002_trigger_field_missing,
                WINDSURF003 windsurf003_unknown_field,
                WINDSURF004 windsurf004_frontmatter_invalid,
                WINDSURF005 windsurf005_workflow_too_long,
                WINDSURF006 windsurf006_hook_event_unknown,
            }
            links Links {
                LINK001 link001_broken_link,
                LINK002 link002_link_outside_project,
                LINK003 link003_machine_specific_path,
                LINK004 link004_broken_anchor,
                LINK005 link005_import_cycle,
                LINK006 link006_link_case_mismatch,
                LINK007 link007_backslash_path,
                LINK008 link008_empty_link,
            }
            instructions Instructions {
                INSTR001 instr001_description_too_short,
                INSTR002 instr002_placeholder_description,
                INSTR003 instr003_description_repeats_name,
                INSTR004 instr004_description_point_of_view,
                INSTR005 instr005_duplicate_description,
                INSTR006 instr006_contradictory_directives,
                INSTR007 instr007_conflicting_tool_choice,
                INSTR008 instr008_duplicated_instructions,
                INSTR009 instr009_link_stub,
                INSTR010 instr010_leftover_todo,
                INSTR011 instr011_generic_filler,
            }
        }
    };
}
pub(crate) use rule_table;

macro_rules! define_codes {
    ($($family:ident $variant:ident { $($code:ident $module:ident $(($lifecycle:ident))?),* $(,)? })*) => {
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
