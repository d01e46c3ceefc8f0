//! The files a manifest names, read through its project root into the run's sources: module
//! and connector texts (with their template roots, or a key of a structured file), skills, memory files, the project-context files found walking up, the
//! chat template and tokenizer file, `ctxc.counts`, MCP tool records, and the snapshot folder. Each problem is
//! reported to the manifest's [`Provenance`], at the value that names the file.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;

use indexmap::IndexMap;

use super::model::*;
use super::raw::*;
use super::span::Spanned;
use super::DEFAULT_SNAPSHOT_DIR;
use crate::codes::Code;
use crate::diagnostic::{Diagnostic, Sources};
use crate::memo::{content_hash, Kind, SharedText};
use crate::project::{ProjectRoot, ReadError};
use crate::provenance::Provenance;
use crate::skills::{parse_skill, Skill, SkillBody};
use crate::templates::TemplateRoot;

/// What [`Files::skills`] read and found, kept while the disk under the root is unchanged.
struct SkillsRead {
    skills: Arc<[Skill]>,
    /// Every skill body, by SKILL.md path (the step fills `Files::skill_bodies` alone).
    bodies: Vec<(String, SkillBody)>,
    /// The files the step added to the sources.
    sources: Vec<(String, SharedText)>,
    diagnostics: Vec<Diagnostic>,
}

/// The project the manifest is in, and every file read from it.
pub(super) struct Files {
    pub root: ProjectRoot,
    pub sources: Sources,
    /// Skill bodies by SKILL.md path, filled while reading skills.
    pub skill_bodies: BTreeMap<String, SkillBody>,
    /// Files read for what they say about a file the agent reads, not as the agent's own (the
    /// configuration a recorded MCP server's hash is taken from), by display path: the lint of
    /// the files no agent loads still lints them, and an edit of one checks the agent again.
    pub consulted: BTreeSet<String>,
}

impl Files {
    /// The counts of `ctxc.counts` beside the manifest: `None` when there is none; a file that
    /// does not parse is an error at its line and column.
    pub(super) fn recorded_counts(&mut self, prov: &mut Provenance) -> Option<std::sync::Arc<crate::counts::Recorded>> {
        let file = match self.root.read(crate::counts::FILE_NAME) {
            Ok(file) => file,
            Err(ReadError::Missing(_)) => return None,
            Err(e) => {
                let shown = self.root.display_path(crate::counts::FILE_NAME);
                prov.diagnostics.push(e.into_diagnostic().in_file(&shown));
                return None;
            }
        };
        match crate::counts::Recorded::parse(&file.text) {
            Ok(recorded) => Some(std::sync::Arc::new(recorded)),
            Err(e) => {
                let at = crate::diagnostic::offset_of(&file.text, e.line, e.column);
                self.sources.insert_shared(&file.display, file.text.clone());
                let d = Diagnostic::error(format!("{}: {}", crate::counts::FILE_NAME, e.message))
                    .code(Code::MAN001)
                    .in_file(&file.display)
                    .at(Some(at..at))
                    .label("here")
                    .help("the file is written by `ctxc counts sync`: run it again, or resolve the merge line by line");
                prov.diagnostics.push(d);
                None
            }
        }
    }

    /// Reads a referenced file; `template` is `None` to decide by the `.j2` extension.
    pub(super) fn read(&mut self, prov: &mut Provenance, reference: &Spanned<String>, template: Option<bool>) -> Option<TextFile> {
        match self.root.read(&reference.value) {
            Ok(file) => {
                self.sources.insert_shared(&file.display, file.text.clone());
                let template = template.unwrap_or(file.rel.ends_with(".j2"));
                Some(TextFile { path: file.rel, text: file.text, template, template_root: Default::default() })
            }
            Err(e) => {
                prov.read_error(e, prov.span(reference, &reference.value));
                None
            }
        }
    }

    /// The agent's `chat_template`, read and compiled: a tokenizer configuration's template, or a
    /// `.jinja` file with the special tokens of the `tokenizer_config.json` beside it (as
    /// transformers loads a tokenizer folder). One named in the manifest is read inside the
    /// project; one set by `--chat-template` (or `--set`, a `CTXC_` variable) anywhere, links
    /// followed, under the same rules otherwise (a regular UTF-8 file under the size limit).
    pub(super) fn chat_template(
        &mut self,
        prov: &mut Provenance,
        reference: &Spanned<String>,
    ) -> Option<Arc<crate::providers::chat_template::ChatTemplate>> {
        use crate::providers::chat_template::ChatTemplate;
        let from_command_line = prov.overridden("agent.chat_template");
        let span = if from_command_line { None } else { prov.span(reference, &reference.value) };
        let read = |this: &Self, reference: &str| match from_command_line {
            true => crate::project::read_outside(Path::new(reference), reference).map(|text| (reference.to_string(), text)),
            false => this.root.read(reference).map(|file| (file.display, file.text)),
        };
        let (display, text) = match read(self, &reference.value) {
            Ok(file) => file,
            Err(e) => {
                prov.read_error(e, span);
                return None;
            }
        };
        self.sources.insert_shared(&display, text.clone());
        let loaded = if reference.value.ends_with(".json") {
            ChatTemplate::from_files(Some((&display, &text)), None)
        } else {
            let beside = match (from_command_line, reference.value.rsplit_once('/')) {
                (true, _) => Path::new(&reference.value).with_file_name("tokenizer_config.json").display().to_string(),
                (false, Some((dir, _))) => format!("{dir}/tokenizer_config.json"),
                (false, None) => "tokenizer_config.json".to_string(),
            };
            let config = match read(self, &beside) {
                Ok(config) => Some(config),
                Err(ReadError::Missing(_)) => None,
                Err(e) => {
                    prov.read_error(e, span);
                    return None;
                }
            };
            if let Some((config_display, config_text)) = &config {
                self.sources.insert_shared(config_display, config_text.clone());
            }
            ChatTemplate::from_files(config.as_ref().map(|(d, t)| (d.as_str(), &**t)), Some((&display, &text)))
        };
        let loaded = loaded.and_then(|t| {
            t.ok_or_else(|| {
                Diagnostic::error(format!("{display} has no `chat_template`"))
                    .code(Code::MAN010)
                    .in_file(&prov.file)
                    .at(span.clone())
                    .help("name the model's `chat_template.jinja`, or a tokenizer_config.json that holds its chat template")
            })
        });
        let found = match from_command_line {
            true => "given by --chat-template",
            false => "named by the manifest's `chat_template`",
        };
        match loaded {
            Ok(template) => Some(Arc::new(template.found(found))),
            Err(d) => {
                prov.diagnostics.push(d);
                None
            }
        }
    }

    /// The tokenizer file `tokenizer` names, checked where it is: one named in the manifest
    /// through the project's reader (inside the project, a regular file, no link out); one set by
    /// `--tokenizer` (or `--set`, a `CTXC_` variable) relative to the current folder, anywhere.
    /// Either way a regular file of at most [`MAX_TOKENIZER_BYTES`]; it is read once per run by
    /// the session.
    pub(super) fn tokenizer_file(&mut self, prov: &mut Provenance, tokenizer: &Spanned<String>) -> Option<TokenizerFileRef> {
        use crate::tokenizer_files::MAX_TOKENIZER_BYTES;
        let from_command_line = prov.overridden("agent.tokenizer");
        let located = match from_command_line {
            true => {
                let path = std::path::Path::new(&tokenizer.value);
                crate::project::locate_path(path, &tokenizer.value, MAX_TOKENIZER_BYTES)
            }
            false => self.root.locate(&tokenizer.value, MAX_TOKENIZER_BYTES),
        };
        let span = if from_command_line { None } else { prov.span(tokenizer, &tokenizer.value) };
        match located {
            Ok(path) => Some(TokenizerFileRef {
                path,
                shown: tokenizer.value.clone(),
                from_command_line,
                origin: Origin { file: prov.file.clone(), span },
            }),
            Err(e) => {
                let what = if from_command_line { "--tokenizer" } else { "`tokenizer`" };
                let mut d = prov.coded(e.code(), format!("tokenizer file ({what}): {}", e.message()), span);
                d.help = Some("name a model's tokenizer.json, tiktoken rank file or Tekken JSON".into());
                None
            }
        }
    }

    /// `[snapshot] dir`, normalised (it must stay inside the project root), and where the
    /// manifest sets it: a folder from `--dir`, `--set` or a `CTXC_` variable has no line.
    pub(super) fn snapshot_dir(&mut self, prov: &mut Provenance, dir: Option<&Spanned<String>>) -> (String, Option<Origin>) {
        let Some(dir) = dir else { return (DEFAULT_SNAPSHOT_DIR.to_string(), None) };
        let origin = (!prov.overridden("snapshot.dir")).then(|| prov.origin(dir, &dir.value));
        let span = origin.as_ref().and_then(|o| o.span.clone());
        match self.root.normalize(&dir.value) {
            Ok(rel) if !rel.is_empty() => (rel, origin),
            Ok(_) => {
                prov.error("[snapshot] dir must name a folder below the manifest's directory", span).help =
                    Some(format!("the default is `{DEFAULT_SNAPSHOT_DIR}`"));
                (DEFAULT_SNAPSHOT_DIR.to_string(), None)
            }
            Err(e) => {
                prov.read_error(e, span);
                (DEFAULT_SNAPSHOT_DIR.to_string(), None)
            }
        }
    }

    /// The skill folders the manifest lists, normalized, and (under the Deep Agents preset, which
    /// skips them) those that do not exist.
    pub(super) fn skill_locations(&self, skills: Option<&RawSkills>, skip_missing: bool) -> (Vec<String>, Vec<String>) {
        let locations: Vec<String> =
            skills.iter().flat_map(|s| &s.dirs).map(|d| self.root.normalize(&d.value).unwrap_or_else(|_| d.value.clone())).collect();
        let missing = match skip_missing {
            true => locations.iter().filter(|d| matches!(self.root.resolve(d), Err(ReadError::Missing(_)))).cloned().collect(),
            false => Vec::new(),
        };
        (locations, missing)
    }

    /// The static memory files, read; a missing one is MEM001. Deep Agents' MemoryMiddleware skips
    /// a memory file that does not exist (memory.py, 0.4.12 and 0.7.32): under its preset
    /// (`skip_missing`) a missing file is left out, not an error.
    pub(super) fn memory_files(&mut self, prov: &mut Provenance, memory: Option<&RawMemory>, skip_missing: bool) -> Vec<TextFile> {
        let Some(memory) = memory else { return Vec::new() };
        let before = prov.diagnostics.len();
        let present: Vec<_> =
            memory.files.iter().filter(|f| !(skip_missing && matches!(self.root.resolve(&f.value), Err(ReadError::Missing(_))))).collect();
        let files = present.into_iter().filter_map(|f| self.read(prov, f, Some(false))).collect();
        prov.diagnostics[before..].iter_mut().filter(|d| d.code == Some(Code::MAN002)).for_each(|d| d.code = Some(Code::MEM001));
        files
    }

    /// The skills of every folder, a later folder's skill replacing an earlier one of its name
    /// in place. With `skip_missing`, a folder that does not exist holds no skills.
    ///
    /// While every change of the disk under the root is reported (an editor's file watcher), what
    /// the folders hold is the same until the next report: the step is kept, with what it adds
    /// to the sources, the skill bodies and the manifest's diagnostics, so an edit of a module
    /// every agent reads does not read each agent's skills again.
    pub(super) fn skills(&mut self, prov: &mut Provenance, raw: Option<&RawSkills>, skip_missing: bool) -> Arc<[Skill]> {
        let Some(generation) = self.root.reported_generation() else { return self.read_skills(prov, raw, skip_missing).into() };
        let mut key = xxhash_rust::xxh3::Xxh3::new();
        key.update(&generation.to_le_bytes());
        key.update(self.root.canonical().as_os_str().as_encoded_bytes());
        key.update(&(self.root.depth() as u64).to_le_bytes());
        key.update(self.root.display().as_os_str().as_encoded_bytes());
        // The manifest decides the folders, and where its diagnostics point.
        key.update(&prov.text_hash().to_le_bytes());
        key.update(prov.file.as_bytes());
        key.update(&[u8::from(skip_missing)]);
        let key = key.digest128();
        let cache = Arc::clone(self.root.cache());
        if let Some(kept) = cache.get::<Arc<SkillsRead>>(Kind::SkillsRead, key) {
            for (display, text) in &kept.sources {
                self.sources.insert_shared(display, text.clone());
            }
            self.skill_bodies.extend(kept.bodies.iter().cloned());
            prov.diagnostics.extend(kept.diagnostics.iter().cloned());
            return kept.skills.clone();
        }
        let diagnostics = prov.diagnostics.len();
        let known: BTreeSet<String> = self.sources.iter_shared().map(|(path, _)| path.to_string()).collect();
        let skills: Arc<[Skill]> = self.read_skills(prov, raw, skip_missing).into();
        let kept = SkillsRead {
            skills: skills.clone(),
            bodies: self.skill_bodies.iter().map(|(path, body)| (path.clone(), body.clone())).collect(),
            sources: self
                .sources
                .iter_shared()
                .filter(|(path, _)| !known.contains(*path))
                .map(|(p, t)| (p.to_string(), t.clone()))
                .collect(),
            diagnostics: prov.diagnostics[diagnostics..].to_vec(),
        };
        cache.set(Kind::SkillsRead, key, Arc::new(kept));
        skills
    }

    fn read_skills(&mut self, prov: &mut Provenance, raw: Option<&RawSkills>, skip_missing: bool) -> Vec<Skill> {
        let mut skills: Vec<Skill> = Vec::new();
        let mut by_name: HashMap<String, usize> = HashMap::new();
        for dir in raw.iter().flat_map(|s| &s.dirs) {
            let span = prov.span(dir, &dir.value);
            let found = match self.root.find_files(&dir.value, "SKILL.md") {
                Ok(found) => found,
                Err(ReadError::Missing(_)) if skip_missing => continue,
                Err(e) => {
                    prov.read_error(e, span);
                    continue;
                }
            };
            for path in found {
                // A file the walk found is located at the folder that led to it.
                let path = match path {
                    Ok(path) => path,
                    Err(e) => {
                        prov.read_error(e, span.clone());
                        continue;
                    }
                };
                let Some(file) = self.read(prov, &Spanned { value: path, span: span.clone() }, Some(false)) else { continue };
                // Skills are often shared by many agents of a project: parse each one once.
                let key = content_hash(&file.path).rotate_left(64) ^ file.text.hash();
                match self.root.cache().get_or_insert(Kind::Skill, key, || parse_skill(&file.path, &file.text)) {
                    Ok(skill) => {
                        self.skill_bodies.insert(file.path.clone(), SkillBody::new(file.text.clone(), skill.body_offset));
                        match by_name.get(&skill.name) {
                            Some(&at) => skills[at] = skill,
                            None => {
                                by_name.insert(skill.name.clone(), skills.len());
                                skills.push(skill);
                            }
                        }
                    }
                    Err(e) => {
                        let display = self.root.display_path(&file.path);
                        prov.diagnostics.push(
                            Diagnostic::error(e.message).code(e.code).in_file(display).at(e.offset.map(|o| o..o)).label("in this skill"),
                        );
                    }
                }
            }
        }
        skills
    }

    /// Each module's files, read (templates rooted where the module or `[templates]` says).
    pub(super) fn modules(
        &mut self,
        prov: &mut Provenance,
        raw: &IndexMap<String, RawModule>,
        template_root: &crate::templates::TemplateRoot,
    ) -> IndexMap<String, ModuleFiles> {
        let mut modules = IndexMap::new();
        for (id, module) in raw {
            let files = match (&module.source, module.variants.is_empty()) {
                (Some(source), true) => self.read(prov, source, module.template).map(ModuleFiles::Single),
                (None, false) => {
                    let variants: IndexMap<String, TextFile> = module
                        .variants
                        .iter()
                        .filter_map(|(name, path)| Some((name.clone(), self.read(prov, path, module.template)?)))
                        .collect();
                    (variants.len() == module.variants.len()).then_some(ModuleFiles::Variants(variants))
                }
                _ => {
                    let span = prov.locate(id);
                    prov.error(format!("module `{id}` needs either `source` or `variants` (exactly one)"), span);
                    None
                }
            };
            if let Some(files) = files.and_then(|files| self.module_files(prov, module, files, template_root)) {
                modules.insert(id.clone(), files);
            }
        }
        modules
    }

    /// Files named in `[memory] walk_up`, looked for in each directory from the project root down
    /// to the manifest's directory (root first). Missing files are skipped; files that escape the
    /// root (symlinks out) are refused.
    pub(super) fn walk_up(&mut self, prov: &mut Provenance, names: &[Spanned<String>]) -> Vec<TextFile> {
        let mut found = Vec::new();
        let mut valid = Vec::new();
        for name in names {
            let bad = name.value.is_empty() || name.value.starts_with('/') || name.value.split(['/', '\\']).any(|part| part == "..");
            if bad {
                let span = prov.span(name, &name.value);
                prov.error(format!("walk_up name `{}` must be a relative path inside a directory, without `..`", name.value), span);
            } else {
                valid.push(name);
            }
        }
        // An invalid name is reported once, above, and never looked for.
        for dir in self.root.dirs_from_root() {
            for name in &valid {
                let reference = if dir == "." { name.value.clone() } else { format!("{dir}/{}", name.value) };
                match self.root.read(&reference) {
                    Ok(file) => {
                        self.sources.insert_shared(&file.display, file.text.clone());
                        found.push(TextFile { path: file.rel, text: file.text, template: false, template_root: Default::default() });
                    }
                    Err(ReadError::Missing(_) | ReadError::NotAFile(_)) => {}
                    Err(e) => {
                        let span = prov.span(name, &name.value);
                        prov.read_error(e, span);
                    }
                }
            }
        }
        found
    }

    /// The tools of MCP server `server` as `ctxc mcp record` recorded them in the record `path`,
    /// and the record's path. A record that is missing or lacks the server is a warning (MCP022:
    /// nothing to count, as in the host view); one recorded from another configuration than the
    /// one written now is counted as recorded, with a warning.
    pub(super) fn recorded_tools(
        &mut self,
        prov: &mut Provenance,
        path: &str,
        server: Option<&str>,
        config: Option<&str>,
    ) -> Option<(String, Vec<crate::tools::Tool>)> {
        use crate::mcp_record::{configured_hash, Record, RECORD_FILE};
        let span = prov.locate(path);
        let Some(server) = server else {
            prov.coded(Code::MAN010, format!("`{path}` records the tools of every MCP server: name the one these tools come from"), span)
                .help = Some(format!("write `{{ path = \"{path}\", server = \"NAME\" }}`"));
            return None;
        };
        let server_span = prov.locate(server).or(span.clone());
        let help = "run `ctxc mcp record` (it starts the configured servers: it asks first) and commit the record";
        let warn = |this: &mut Provenance, message: String| {
            let d = Diagnostic::warning(message).in_file(&this.file).at(server_span.clone()).help(help).code(Code::MCP022);
            this.diagnostics.push(d);
        };
        let file = match self.root.read(path) {
            Ok(file) => file,
            Err(crate::project::ReadError::Missing(_)) => {
                warn(prov, format!("there is no MCP tool record `{path}`: the tools of MCP server `{server}` are not counted"));
                return None;
            }
            Err(e) => {
                prov.read_error(e, span);
                return None;
            }
        };
        self.sources.insert_shared(&file.display, file.text.clone());
        let record = match Record::parse(&file.text) {
            Ok(record) => record,
            Err(e) => {
                prov.coded(Code::TOOL001, format!("{} is not an MCP tool record ctxc reads: {e}", file.display), span).help =
                    Some(format!("write it again with `ctxc mcp record`; it is `{RECORD_FILE}` as that command writes it"));
                return None;
            }
        };
        let mut entries: Vec<_> = record.servers.iter().filter(|s| s.server == server && config.is_none_or(|c| s.file == c)).collect();
        let entry = match entries.len() {
            0 => {
                warn(prov, format!("MCP server `{server}` has no record in {}: its tools are not counted", file.display));
                return None;
            }
            1 => entries.remove(0),
            _ => {
                let files: Vec<&str> = entries.iter().map(|e| e.file.as_str()).collect();
                prov.coded(
                    Code::MAN010,
                    format!("MCP server `{server}` is recorded from several configurations: {}", files.join(", ")),
                    server_span,
                )
                .help = Some(format!("name the one these tools come from: `config = \"{}\"`", files[0]));
                return None;
            }
        };
        // The record's files are relative to its folder.
        let folder = file.rel.rsplit_once('/').map_or("", |(folder, _)| folder);
        let (shown, hash) = configured_hash(&self.root, folder, &entry.file, server);
        // Not the agent's file (the lint of the files no agent loads lints it), but what its
        // record is checked against: an edit of it, or its creation, checks the agent again.
        self.consulted.insert(shown.clone());
        match hash {
            Ok(Some(hash)) if hash == entry.config => {}
            Ok(Some(_)) => warn(
                prov,
                format!("the record of MCP server `{server}` in {} is older than its configuration in {shown}: its tools are counted as recorded", file.display),
            ),
            Ok(None) => warn(prov, format!("MCP server `{server}` is recorded but no longer configured in {shown}: its tools are counted as recorded")),
            Err(e) => warn(prov, format!("the configuration of MCP server `{server}` cannot be read ({e}): its recorded tools are counted")),
        }
        match entry.tool_list() {
            Ok(tools) => Some((file.rel.clone(), tools)),
            Err(e) => {
                prov.coded(Code::TOOL001, format!("{}: a tool of MCP server `{server}` is invalid: {e}", file.display), span);
                None
            }
        }
    }

    /// `[templates] root`, normalised (the manifest's directory when unset).
    pub(super) fn template_root(&mut self, prov: &mut Provenance, raw: Option<&RawTemplates>) -> TemplateRoot {
        self.root_setting(prov, raw.and_then(|t| t.root.as_ref())).unwrap_or_default()
    }

    /// A template root as written: inside the project and a folder.
    pub(super) fn root_setting(&mut self, prov: &mut Provenance, root: Option<&Spanned<String>>) -> Option<TemplateRoot> {
        let root = root?;
        let span = prov.span(root, &root.value);
        match self.root.normalize(&root.value).and_then(|rel| self.root.resolve(&rel).map(|path| (rel, path))) {
            Ok((rel, path)) if path.is_dir() => Some(TemplateRoot(rel)),
            Ok(_) => {
                let mut d = prov.coded(Code::MAN002, format!("template root `{}` is not a folder", root.value), span);
                d.label = Some("not a folder".into());
                d.help = Some("name the folder your templates' include and import names start from, like Jinja2's FileSystemLoader".into());
                None
            }
            Err(e) => {
                prov.read_error(e, span);
                None
            }
        }
    }

    /// A module's files, each knowing its template root; with `key`, the text is that key's
    /// string in the (YAML, TOML or JSON) file.
    pub(super) fn module_files(
        &mut self,
        prov: &mut Provenance,
        module: &RawModule,
        files: ModuleFiles,
        default_root: &TemplateRoot,
    ) -> Option<ModuleFiles> {
        let root = self.root_setting(prov, module.root.as_ref()).unwrap_or_else(|| default_root.clone());
        let mut each = |file: TextFile| -> Option<TextFile> {
            let mut file = match &module.key {
                Some(key) => self.keyed_text(prov, file, key)?,
                None => file,
            };
            file.template_root = root.clone();
            Some(file)
        };
        match files {
            ModuleFiles::Single(file) => each(file).map(ModuleFiles::Single),
            ModuleFiles::Variants(files) => {
                let count = files.len();
                let files: IndexMap<String, TextFile> = files.into_iter().filter_map(|(name, f)| Some((name, each(f)?))).collect();
                (files.len() == count).then_some(ModuleFiles::Variants(files))
            }
        }
    }

    /// The string at the dotted `key` of a structured file, as a file of its own named
    /// `path#key` (so diagnostics point into that text).
    pub(super) fn keyed_text(&mut self, prov: &mut Provenance, file: TextFile, key: &Spanned<String>) -> Option<TextFile> {
        let span = prov.span(key, &key.value);
        let parsed: Result<serde_json::Value, String> = match file.path.rsplit_once('.').map(|(_, ext)| ext) {
            Some("yaml" | "yml") => crate::yaml::from_str(&file.text).map_err(|e| e.message),
            Some("toml") => toml::from_str(&file.text).map_err(|e| e.message().to_string()),
            Some("json") => serde_json::from_str(&file.text).map_err(|e| e.to_string()),
            _ => Err("`key` needs a `.yaml`, `.yml`, `.toml` or `.json` file".to_string()),
        };
        let value = match parsed {
            Ok(value) => value,
            Err(message) => {
                prov.error(format!("cannot read key `{}` of {}: {message}", key.value, file.path), span).label =
                    Some("key of this file".into());
                return None;
            }
        };
        let found = key.value.split('.').try_fold(&value, |v, part| v.get(part));
        let Some(text) = found.and_then(|v| v.as_str()) else {
            let what = if found.is_some() { "is not a string" } else { "does not exist" };
            let mut d = prov.error(format!("key `{}` of {} {what}", key.value, file.path), span);
            d.label = Some(format!("{what} in {}", file.path));
            d.help = Some("name a string value, with dots between nested keys (`agent.templates.system_template`)".into());
            return None;
        };
        let path = format!("{}#{}", file.path, key.value);
        let text = SharedText::new(text);
        self.sources.insert_shared(self.root.display_path(&path), text.clone());
        Some(TextFile { template: file.template, path, text, template_root: file.template_root })
    }
}
