//! The pipeline driver. A [`Session`] is one run of ctxc over a project: it holds what every
//! agent of the run shares (the manifest overrides, the token counter and the [`Cache`] of work
//! memoized by content) and takes each agent through the stages once — load → resolve and
//! render every selected mode × scenario → measure — for every command and for library users.
//! The checks and the reports work on what it returns. Dropping the session drops its caches, so
//! a long-lived library user holds only what its live sessions hold.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::codes::Code;
use crate::diagnostic::{Diagnostic, Failure};
use crate::manifest::{self, Loaded};
use crate::measure::Measured;
use crate::memo::Cache;
use crate::models::ModelProfile;
use crate::project::Stamp;
use crate::project::{ProjectRoot, RunState};
use crate::render::Rendered;
use crate::tokenizer_files::discover::{self, Discovery, Places};
use crate::tokenizer_files::{TokenizerFile, MAX_TOKENIZER_BYTES};
use crate::tokens::TokenCounter;

/// Which modes and scenarios to render: all of them, or only the named one of each.
#[derive(Debug, Clone, Copy, Default)]
pub struct Only<'a> {
    pub mode: Option<&'a str>,
    pub scenario: Option<&'a str>,
}

/// One mode in one scenario: the rendered prompt and its measurement.
#[derive(Debug, Clone)]
pub struct Run {
    pub rendered: Rendered,
    pub measured: Measured,
}

/// One agent loaded, with every selected mode × scenario rendered and measured.
#[derive(Debug)]
pub struct AgentRuns {
    pub loaded: Loaded,
    /// Each mode × scenario that rendered, in manifest order.
    pub runs: Vec<Run>,
    /// Why the others could not be rendered (and names in [`Only`] that match nothing).
    pub problems: Vec<Diagnostic>,
}

#[derive(Default)]
pub struct Session {
    overrides: Vec<String>,
    counter: TokenCounter,
    /// The editor's unsaved texts and the cache, handed to every root the session opens.
    run: RunState,
    /// Where to look for a model's tokenizer file when none is named; `None`: nowhere.
    places: Option<Places>,
    /// The tokenizer files of this run, by path: each read and parsed once, whichever agent asks
    /// first, and again when the file on disk is no longer the one read ([`Stamp`]); one version
    /// per path.
    tokenizer_files: Mutex<HashMap<FileKey, (Stamp, Arc<LoadedFile>)>>,
    /// Time spent in each [`Stage`], summed over the threads (nanoseconds).
    stage_nanos: [AtomicU64; Stage::ALL.len()],
    /// Time spent in each lint rule, summed over the agents and threads ([`Session::rule_times`]).
    rule_times: RuleTimes,
}

/// The time each lint rule took, summed over every run of it: handed by the caller of the lint
/// stage ([`crate::lint::lint`]) so that people tuning a run see which rules cost what
/// (`CTXC_TIMINGS=rules`). Timing never changes a result.
#[derive(Debug, Default)]
pub struct RuleTimes {
    /// Each rule's summed time and how many times it ran.
    took: Mutex<BTreeMap<Code, (Duration, usize)>>,
}

impl RuleTimes {
    /// Adds each rule's time of one lint run (one lock for the run, not one per rule). A rule
    /// whose findings were taken from an earlier check did not run, and is not in `times`.
    pub fn add(&self, times: &[(Code, Duration)]) {
        let mut took = self.took.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        for &(code, time) in times {
            let (sum, runs) = took.entry(code).or_default();
            *sum += time;
            *runs += 1;
        }
    }

    /// How many times the rule `code` ran.
    pub fn runs(&self, code: Code) -> usize {
        let took = self.took.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        took.get(&code).map_or(0, |&(_, runs)| runs)
    }

    /// Each rule that ran and its summed time, the slowest first (ties in code order).
    pub fn sorted(&self) -> Vec<(Code, Duration)> {
        let took = self.took.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut times: Vec<(Code, Duration)> = took.iter().map(|(&code, &(time, _))| (code, time)).collect();
        times.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        times
    }
}

/// The stages a session times ([`Session::stage_times`]): what a run spends where, for people
/// tuning it (`CTXC_TIMINGS=1`). Timing never changes a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Manifest parsed and validated, its files read and parsed (tool files, skills).
    Load,
    /// Every mode × scenario resolved and rendered.
    Render,
    /// Sections, tool lists and requests counted.
    Measure,
    /// Budgets, workloads and the reference systems' settings checked against the counts.
    Checks,
    /// The lint rules over an agent's files and renders.
    Lint,
    /// Agent files no agent loads, found and linted.
    Files,
}

impl Stage {
    pub const ALL: [Stage; 6] = [Stage::Load, Stage::Render, Stage::Measure, Stage::Checks, Stage::Lint, Stage::Files];

    pub fn name(self) -> &'static str {
        match self {
            Stage::Load => "load",
            Stage::Render => "resolve and render",
            Stage::Measure => "measure",
            Stage::Checks => "checks",
            Stage::Lint => "lint rules",
            Stage::Files => "agent files",
        }
    }
}

/// A tokenizer file's path and the SHA-256 (hex) it must have, if any: one file read with and
/// without a digest to check is two loads.
type FileKey = (PathBuf, Option<&'static str>);

/// A tokenizer file being loaded, or loaded (or why it could not be).
#[derive(Default)]
struct LoadedFile {
    file: OnceLock<Result<Arc<TokenizerFile>, String>>,
    /// Whether a thread of its own was started to load it ([`Session::start_loading`]).
    started: AtomicBool,
}

/// One agent loaded ([`Session::prepare`]), the tokenizer file it names perhaps still loading;
/// [`Session::complete`] renders and measures it.
pub struct Prepared {
    loaded: Loaded,
    /// The tokenizer file the agent names, loading on a thread of its own: it is used (and its
    /// warnings or error given) by [`Session::complete`], when it has loaded.
    pending: Option<Arc<LoadedFile>>,
}

impl Prepared {
    /// Whether [`Session::complete`] would not wait: the agent names no tokenizer file, or the
    /// one it names has loaded (or failed to).
    pub fn ready(&self) -> bool {
        self.pending.as_ref().is_none_or(|slot| slot.file.get().is_some())
    }
}

impl Session {
    /// A session whose agents get these `KEY=VALUE` overrides, laid over each manifest in order.
    pub fn new(overrides: Vec<String>) -> Self {
        Session { overrides, ..Session::default() }
    }

    /// This session, keeping the files it reads and the folders it walks while the disk shows
    /// them unchanged (see [`crate::project::DiskMemory`]; [`Session::look_again`] before each
    /// check): for a long-lived run whose agents are checked again and again (the editor).
    pub fn with_file_memory(mut self) -> Self {
        self.run.disk = Some(Arc::default());
        self
    }

    /// The disk may have changed since the session last looked: what it kept of the disk is
    /// checked (once) before it is used again; `forget`: read and walked again.
    pub fn look_again(&self, forget: bool) {
        match &self.run.disk {
            Some(disk) if forget => disk.clear(),
            Some(disk) => disk.look_again(),
            None => {}
        }
    }

    /// Every change under `folder` is reported from now on ([`Session::reported_change`]): what
    /// the session kept of the disk there holds until the next report, when it keeps it
    /// ([`Session::with_file_memory`]; see [`crate::project::DiskMemory::trust_reports`]).
    pub fn trust_reports(&self, folder: PathBuf) {
        if let Some(disk) = &self.run.disk {
            disk.trust_reports(folder);
        }
    }

    /// Something under the watched folder changed, or may have (see [`Session::trust_reports`]).
    pub fn reported_change(&self) {
        if let Some(disk) = &self.run.disk {
            disk.reported_change();
        }
    }

    /// How many files this session read from the disk, folders it walked and stamps it took to
    /// check what it kept, when it keeps them ([`Session::with_file_memory`]).
    pub fn file_work(&self) -> Option<(usize, usize, usize)> {
        self.run.disk.as_ref().map(|disk| disk.work())
    }

    /// This session, looking for models' tokenizer files in `places` when an agent names none.
    pub fn with_discovery(mut self, places: Places) -> Self {
        self.places = Some(places);
        self
    }

    /// Where this session looks for tokenizer files, when it does.
    pub fn places(&self) -> Option<&Places> {
        self.places.as_ref()
    }

    /// The tokenizer file at `path` (links resolved), read and parsed on the first call of the
    /// run, and again when the file changed on disk since.
    pub fn tokenizer_file(&self, path: &Path, shown: &str) -> Result<Arc<TokenizerFile>, String> {
        self.load_tokenizer_file(path, shown, None)
    }

    /// [`Session::tokenizer_file`], refused unless the bytes read have the SHA-256 (hex) `sha256`
    /// when one is given.
    fn load_tokenizer_file(&self, path: &Path, shown: &str, sha256: Option<&'static str>) -> Result<Arc<TokenizerFile>, String> {
        self.file_slot(path, sha256).file.get_or_init(|| read_tokenizer_file(path, shown, sha256)).clone()
    }

    /// Where the tokenizer file at `path` (checked against `sha256`) is loaded once for the run.
    fn file_slot(&self, path: &Path, sha256: Option<&'static str>) -> Arc<LoadedFile> {
        let key = (path.to_path_buf(), sha256);
        let stamp = Stamp::of(path);
        let mut files = self.tokenizer_files.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let (seen, slot) = files.entry(key).or_insert_with(|| (stamp.clone(), Arc::default()));
        // Another file at the path now (or a file where there was none): read it, in place
        // of the one read before.
        if *seen != stamp {
            *seen = stamp;
            *slot = Arc::default();
        }
        slot.clone()
    }

    /// Starts loading the tokenizer file at `path` on a thread of its own, unless it is loaded
    /// or loading already: the agents' files are read and rendered beside it, and only their
    /// counts wait for it ([`Session::load_tokenizer_file`] then takes what it loaded, or the
    /// error, as it would have loaded it). A thread the system refuses leaves the load to them.
    fn start_loading(&self, path: &Path, shown: &str) -> Arc<LoadedFile> {
        let slot = self.file_slot(path, None);
        if slot.file.get().is_none() && !slot.started.swap(true, Ordering::Relaxed) {
            let (loading, path, shown) = (slot.clone(), path.to_path_buf(), shown.to_string());
            let load = move || {
                loading.file.get_or_init(|| read_tokenizer_file(&path, &shown, None));
            };
            if std::thread::Builder::new().name("tokenizer file".into()).spawn(load).is_err() {
                slot.started.store(false, Ordering::Relaxed);
            }
        }
        slot
    }

    /// Counts `loaded`'s agent with its model's own tokenizer file: the one it names (an error
    /// when that file cannot be used), else the one discovery finds (a warning when that one
    /// cannot be used: the counts stay estimates), with the chat template found beside it when
    /// the agent names none.
    fn use_tokenizer_file(&self, loaded: &mut Loaded) -> Result<(), Failure> {
        let agent = &mut loaded.agent;
        let mut discovered = None;
        let (path, shown, found, origin) = match &agent.tokenizer_file {
            Some(named) => {
                let found = if named.from_command_line { "given by --tokenizer" } else { "named by the manifest's `tokenizer`" };
                (named.path.clone(), named.shown.clone(), found.to_string(), Some(named.origin.clone()))
            }
            None if agent.profile.tokenizer == crate::models::Tokenizer::Estimate => {
                let Some(Discovery::Found(found)) = self.places.as_ref().map(|p| discover::find(&agent.profile.model, p)) else {
                    return Ok(());
                };
                let shown = found.path.display().to_string();
                match crate::project::locate_path(&found.path, &shown, MAX_TOKENIZER_BYTES) {
                    Ok(path) => {
                        let how = format!("found in the {}", found.place);
                        discovered = Some(found);
                        (path, shown, how, None)
                    }
                    Err(e) => {
                        loaded.warnings.push(Diagnostic::warning(format!(
                            "tokenizer file {}: {}; counts stay estimates",
                            found.place,
                            e.message()
                        )));
                        return Ok(());
                    }
                }
            }
            None => return Ok(()),
        };
        let sha256 = discovered.as_ref().and_then(|found: &discover::Found| found.sha256);
        match self.count_with_file(&mut agent.profile, &path, &shown, found.clone(), sha256) {
            Ok(()) => {
                loaded.warnings.extend(file_warnings(&agent.profile, &shown));
                if let Some(found) = discovered {
                    self.use_found_template(loaded, &found);
                }
                Ok(())
            }
            Err(message) => match origin {
                Some(origin) => {
                    let d = Diagnostic::error(format!("tokenizer file: {message}"))
                        .in_file(&origin.file)
                        .at(origin.span)
                        .code(crate::codes::Code::MAN010)
                        .help("give the model's own tokenizer file, or leave `tokenizer` out to count a labelled estimate");
                    Err(Failure { diagnostics: vec![d], sources: loaded.sources.clone() })
                }
                None => {
                    loaded.warnings.push(Diagnostic::warning(format!("tokenizer file {found}: {message}; counts stay estimates")));
                    Ok(())
                }
            },
        }
    }

    /// Counts `profile`'s model with the tokenizer file at `path` (located, links resolved;
    /// `shown` as the user knows it; `found`: how it was chosen; `sha256`: the digest it must
    /// have, if any) from now on, when it loads and is the model's; `Err` says why not, for people.
    pub fn count_with_file(
        &self,
        profile: &mut ModelProfile,
        path: &Path,
        shown: &str,
        found: String,
        sha256: Option<&'static str>,
    ) -> Result<(), String> {
        let file = self.load_tokenizer_file(path, shown, sha256)?;
        crate::tokenizer_files::check_fits(&file, shown, profile)?;
        let vocabulary = file.vocabulary;
        // A file ctxc does not know counts under a name of its own, never as the vocabulary's.
        self.counter.add_file(file.name, file.clone(), file.cuts());
        profile.tokenizer = crate::models::Tokenizer::Own(file.name);
        profile.tokenizer_file = Some(crate::models::TokenizerFileUsed {
            path: shown.to_string(),
            format: file.format.name(),
            vocabulary: vocabulary.name,
            description: vocabulary.description,
            fingerprint: file.fingerprint.clone(),
            sha256: file.sha256.clone(),
            known: file.is_known(),
            model_tokenizer: crate::models::own_tokenizer(&profile.model).filter(|own| file.is_known() && *own != vocabulary.name),
            release: file.release.map(|r| format!("{} {}, as {} ships it", r.family, r.release, r.source)),
            found,
            tokenizer_config: None,
            chat_template: None,
        });
        Ok(())
    }

    /// The model's chat template found beside its tokenizer file (`chat_template.jinja`, else the
    /// `chat_template` of `tokenizer_config.json`, as transformers loads a folder): the agent's
    /// request is rendered through it unless the agent names one. The files are named in
    /// `model.tokenizer_file`; one that cannot be read or compiled is a warning and the request
    /// keeps the provider's rendering.
    fn use_found_template(&self, loaded: &mut Loaded, found: &discover::Found) {
        let read = |path: &Option<PathBuf>| -> Result<Option<(String, crate::memo::SharedText)>, Diagnostic> {
            let Some(path) = path else { return Ok(None) };
            let shown = path.display().to_string();
            crate::project::read_outside(path, &shown).map(|text| Some((shown, text))).map_err(|e| e.into_diagnostic())
        };
        let agent = &mut loaded.agent;
        if let Some(used) = agent.profile.tokenizer_file.as_mut() {
            let text = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
            used.tokenizer_config = text(&found.tokenizer_config);
            used.chat_template = text(&found.chat_template);
        }
        if agent.chat_template.is_some() {
            return;
        }
        let files = read(&found.tokenizer_config).and_then(|config| Ok((config, read(&found.chat_template)?)));
        let compiled = files.and_then(|(config, jinja)| {
            for (shown, text) in config.iter().chain(&jinja) {
                loaded.sources.insert_shared(shown, text.clone());
            }
            fn as_pair((shown, text): &(String, crate::memo::SharedText)) -> (&str, &str) {
                (shown, text)
            }
            crate::providers::chat_template::ChatTemplate::from_files(config.as_ref().map(as_pair), jinja.as_ref().map(as_pair))
        });
        match compiled {
            Ok(Some(template)) => {
                let how = format!("found beside the tokenizer file in the {}", found.place);
                agent.chat_template = Some(Arc::new(template.found(&how)));
            }
            Ok(None) => {}
            Err(d) => {
                let message = format!(
                    "chat template beside the tokenizer file ({}): {}; the request keeps the provider's rendering",
                    found.place, d.message
                );
                loaded.warnings.push(Diagnostic::warning(message));
            }
        }
    }

    pub fn counter(&self) -> &TokenCounter {
        &self.counter
    }

    /// `work`, its time added to `stage`'s.
    pub fn timed<T>(&self, stage: Stage, work: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let result = work();
        let nanos = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.stage_nanos[stage as usize].fetch_add(nanos, Ordering::Relaxed);
        result
    }

    /// Where the lint rules of this session add their times ([`crate::lint::lint`]).
    pub fn rule_times(&self) -> &RuleTimes {
        &self.rule_times
    }

    /// The time each stage took in this session so far, summed over the threads that ran it.
    pub fn stage_times(&self) -> Vec<(Stage, Duration)> {
        Stage::ALL.iter().map(|&stage| (stage, Duration::from_nanos(self.stage_nanos[stage as usize].load(Ordering::Relaxed)))).collect()
    }

    pub fn overrides(&self) -> &[String] {
        &self.overrides
    }

    /// Makes `text` stand in for the file at `path` (canonical) when this session reads it, or
    /// (`None`) the file on disk count again: an editor's unsaved buffer. The file must still be
    /// inside the project root of the agent reading it.
    pub fn overlay(&self, path: PathBuf, text: Option<&str>) {
        self.run.overlay.set(path, text.map(crate::memo::SharedText::new));
    }

    /// The project of the manifest directory `dir`, read as this session sees it (its unsaved
    /// texts), memoizing in the session's cache.
    pub fn project_root(&self, dir: &Path) -> Result<ProjectRoot, crate::project::ReadError> {
        ProjectRoot::in_run(dir, self.run.clone())
    }

    /// The cache of work memoized by content in this run: kept for (and only for) this session.
    pub fn cache(&self) -> &Arc<Cache> {
        &self.run.cache
    }

    /// Work from now on is `generation`'s: the memoized values and counts it uses are marked
    /// used by it (a long-lived session's; see [`Cache::begin`]).
    pub fn begin(&self, generation: u32) {
        self.run.cache.begin(generation);
        self.counter.begin(generation);
    }

    /// Drops the memoized values and counts no `live` generation used; returns how many are left.
    pub fn keep(&self, live: impl Fn(u32) -> bool) -> usize {
        self.run.cache.keep(&live) + self.counter.keep(&live)
    }

    /// Loads one agent (parse, overlay the preset and the overrides, validate, read its files).
    pub fn load(&self, manifest: &Path) -> Result<Loaded, Failure> {
        self.timed(Stage::Load, || {
            let mut loaded = manifest::load_with(manifest, &self.overrides, &self.run)?;
            self.use_tokenizer_file(&mut loaded)?;
            warn_template_settings(&mut loaded);
            crate::tokens::warm_up(loaded.agent.profile.tokenizer);
            Ok(loaded)
        })
    }

    /// Resolves and renders one mode of a loaded agent (the default scenario when `None`).
    pub fn render(&self, loaded: &Loaded, mode: &str, scenario: Option<&str>) -> Result<Rendered, Vec<Diagnostic>> {
        self.timed(Stage::Render, || {
            let resolved = crate::resolve::resolve(&loaded.agent, mode, scenario)?;
            crate::render::render(resolved, &loaded.root)
        })
    }

    /// Renders and measures every selected mode × scenario of a loaded agent.
    pub fn measure(&self, loaded: Loaded, only: Only) -> AgentRuns {
        let agent = &loaded.agent;
        let mut problems = Vec::new();
        let modes: Vec<&str> = agent.modes.keys().map(String::as_str).collect();
        let scenarios: Vec<&str> = agent.scenarios.keys().map(String::as_str).collect();
        for (what, wanted, known) in [("mode", only.mode, modes), ("scenario", only.scenario, scenarios)] {
            if let Some(name) = wanted.filter(|n| !known.contains(n)) {
                problems.push(crate::resolve::unknown_name(&agent.name, what, name, known));
            }
        }
        let mut runs = Vec::new();
        for mode in agent.modes.keys().filter(|m| only.mode.is_none_or(|want| want == *m)) {
            for scenario in agent.scenarios.keys().filter(|s| only.scenario.is_none_or(|want| want == *s)) {
                match self.render(&loaded, mode, Some(scenario)) {
                    Ok(rendered) => {
                        let measured = self.measure_render(&loaded, &rendered);
                        runs.push(Run { rendered, measured });
                    }
                    // A file every mode or scenario fails in is reported once.
                    Err(d) => d.into_iter().for_each(|d| crate::diagnostic::push_once(&mut problems, d)),
                }
            }
        }
        if let Some(failure) = self.file_failure(&loaded) {
            crate::diagnostic::push_once(&mut problems, failure);
        }
        AgentRuns { loaded, runs, problems }
    }

    /// The error of a tokenizer file whose engine panicked on a text of the run (each such
    /// text counted one token per byte), at the manifest line that names the file, if any.
    pub fn file_failure(&self, loaded: &Loaded) -> Option<Diagnostic> {
        let profile = &loaded.agent.profile;
        let message = self.counter.failure(profile.tokenizer)?;
        let shown = profile.tokenizer_file.as_ref().map_or("", |f| f.path.as_str());
        let mut d = Diagnostic::error(format!(
            "tokenizer file `{shown}`: its engine failed on a text of this run ({message}); that text was counted as one token \
             per byte, not as {} counts it",
            profile.model
        ))
        .code(crate::codes::Code::MAN010);
        if let Some(origin) = loaded.agent.tokenizer_file.as_ref().map(|f| &f.origin) {
            d = d.in_file(&origin.file).at(origin.span.clone());
        }
        Some(d)
    }

    /// Measures one render of a loaded agent, with the counts recorded beside its manifest.
    pub fn measure_render(&self, loaded: &Loaded, rendered: &Rendered) -> Measured {
        self.timed(Stage::Measure, || {
            crate::measure::measure_with(&loaded.agent, rendered, &self.counter, loaded.recorded.as_deref(), self.cache())
        })
    }

    /// Loads one agent, then renders and measures every selected mode × scenario.
    pub fn run(&self, manifest: &Path, only: Only) -> Result<AgentRuns, Failure> {
        self.complete(self.prepare(manifest)?, only)
    }

    /// [`Session::run`] for each agent on worker threads, `then` applied to each result on the
    /// worker; the results in the order of `manifests`. An agent whose tokenizer file is still
    /// loading is set aside, loaded, while its worker loads the next agents (see
    /// [`crate::parallel::map_in_two_steps`]): the file's load runs beside theirs.
    pub fn each_run<T: Send>(&self, manifests: &[PathBuf], only: Only, then: impl Fn(Result<AgentRuns, Failure>) -> T + Sync) -> Vec<T> {
        crate::parallel::map_in_two_steps(
            manifests,
            |manifest| self.prepare(manifest),
            |prepared| prepared.as_ref().ok().is_none_or(Prepared::ready),
            |prepared| then(prepared.and_then(|prepared| self.complete(prepared, only))),
        )
    }

    /// The first half of [`Session::run`]: loads one agent. A tokenizer file the agent names is
    /// loaded on a thread of its own meanwhile, used by [`Session::complete`]; one found by
    /// discovery (whose chat template may change the renders) is used here, as
    /// [`Session::load`] uses it.
    pub fn prepare(&self, manifest: &Path) -> Result<Prepared, Failure> {
        self.timed(Stage::Load, || {
            let mut loaded = manifest::load_with(manifest, &self.overrides, &self.run)?;
            let pending = match &loaded.agent.tokenizer_file {
                Some(named) => Some(self.start_loading(&named.path, &named.shown)),
                None => {
                    self.use_tokenizer_file(&mut loaded)?;
                    warn_template_settings(&mut loaded);
                    None
                }
            };
            // Before the file's load ends: a model counted with its own file has the same proxy.
            crate::tokens::warm_up(loaded.agent.profile.tokenizer);
            Ok(Prepared { loaded, pending })
        })
    }

    /// The second half of [`Session::run`]: the tokenizer file the agent names used (its
    /// warnings, or its error, as [`Session::load`] gives them), then every selected mode ×
    /// scenario rendered and measured.
    pub fn complete(&self, prepared: Prepared, only: Only) -> Result<AgentRuns, Failure> {
        let Prepared { mut loaded, pending } = prepared;
        if pending.is_some() {
            self.timed(Stage::Load, || {
                self.use_tokenizer_file(&mut loaded)?;
                warn_template_settings(&mut loaded);
                Ok::<(), Failure>(())
            })?;
        }
        Ok(self.measure(loaded, only))
    }

    /// Costs bare tool files (no manifest) for `model`, counted with this session's counter (and
    /// with a tokenizer file [`Session::count_with_file`] set on the profile).
    pub fn cost_tool_files(&self, files: &crate::measure::ToolFiles, model: ModelProfile) -> crate::measure::ToolFilesCost {
        crate::measure::cost_tool_files(files, model, &self.counter, self.cache())
    }

    /// `work` for each agent on worker threads; the results in the order of `manifests`.
    pub fn each<T: Send>(&self, manifests: &[PathBuf], work: impl Fn(&Path) -> T + Sync) -> Vec<T> {
        crate::parallel::map_in_order(manifests, |manifest| work(manifest))
    }
}

/// The tokenizer file at `path` read (refused unless its bytes have the SHA-256 `sha256`, when
/// one is given) and loaded; `Err` says why not, with the file as `shown`.
fn read_tokenizer_file(path: &Path, shown: &str, sha256: Option<&'static str>) -> Result<Arc<TokenizerFile>, String> {
    let bytes = crate::project::read_bytes(path, shown, MAX_TOKENIZER_BYTES).map_err(|e| e.message())?;
    // The bytes checked are the bytes parsed: nothing can change the file in between.
    if let Some(expected) = sha256 {
        discover::check_sha256(&bytes, expected, shown)?;
    }
    TokenizerFile::load(&bytes).map(Arc::new).map_err(|e| format!("`{shown}` is {e}"))
}

/// MAN016: a setting only a chat template renders, on an agent whose request is rendered
/// without one (none named, none found beside its tokenizer file), changes no count as meant.
fn warn_template_settings(loaded: &mut Loaded) {
    if loaded.agent.chat_template.is_some() {
        return;
    }
    for (setting, origin) in &loaded.agent.template_settings {
        let instead = match *setting {
            "new_message" => "its system messages are counted as one prompt, joined without a separator where the new one starts",
            _ => "an empty tool list adds nothing",
        };
        let d = Diagnostic::warning(format!(
            "`{setting}` takes effect only through a chat template, and this agent's request is rendered without one: {instead}"
        ))
        .in_file(&origin.file)
        .at(origin.span.clone())
        .code(crate::codes::Code::MAN016)
        .help("name the model's template with `[agent] chat_template` (or give its tokenizer file, beside which one is found), or remove the setting");
        loaded.warnings.push(d);
    }
}

/// What every command warns of when `profile`'s model is counted with a tokenizer file (`shown`
/// as the user knows it) whose counts may not be the model's: a file of no release ctxc knows, or
/// a known release other than the model's own.
pub fn file_warnings(profile: &ModelProfile, shown: &str) -> Vec<Diagnostic> {
    let Some(used) = &profile.tokenizer_file else { return Vec::new() };
    let mut warnings = Vec::new();
    if !used.known {
        let what = match used.vocabulary == crate::models::UNKNOWN_VOCABULARY_NAME {
            true => {
                format!("holds a vocabulary ctxc does not know (content fingerprint {}): it counts with its own rules", used.fingerprint)
            }
            false => format!(
                "holds the {} vocabulary but is not a release ctxc knows (content fingerprint {}): another normalizer, \
                 pre-tokenizer, added token or merge may count otherwise",
                used.vocabulary, used.fingerprint
            ),
        };
        warnings.push(Diagnostic::warning(format!(
            "tokenizer file `{shown}` {what}, so its counts are this file's ({}), not necessarily {}'s",
            profile.tokenizer.name(),
            profile.model
        )));
    }
    if used.known && profile.of_no_family() {
        warnings.push(Diagnostic::warning(format!(
            "tokenizer file `{shown}` is the {} tokenizer ({}), but nothing tells which tokenizer {} uses: its counts are \
             this file's, not necessarily {}'s",
            used.vocabulary,
            used.release.as_deref().unwrap_or(used.format),
            profile.model,
            profile.model
        )));
    }
    if let Some(own) = used.model_tokenizer {
        warnings.push(Diagnostic::warning(format!(
            "tokenizer file `{shown}` is the {} tokenizer ({}), but {} uses the {own} release, which counts some texts \
             otherwise: its counts are this file's, not {}'s",
            used.vocabulary,
            used.release.as_deref().unwrap_or(used.format),
            profile.model,
            profile.model
        )));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_roots_of_a_session_share_its_cache_and_a_root_alone_has_its_own() {
        let dir = tempfile::tempdir().expect("tempdir");
        let session = Session::default();
        let a = session.project_root(dir.path()).expect("root");
        let b = session.project_root(dir.path()).expect("root");
        assert!(Arc::ptr_eq(a.cache(), session.cache()) && Arc::ptr_eq(b.cache(), session.cache()));
        let alone = ProjectRoot::new(dir.path()).expect("root");
        assert!(!Arc::ptr_eq(alone.cache(), session.cache()), "no ambient cache: a root alone memoizes for itself");
    }

    /// A long-lived session (the editor) sees a tokenizer file as it is on disk now: one created
    /// after it was found missing, and one replaced by another, are read again.
    #[test]
    fn a_tokenizer_file_created_or_replaced_is_read_again() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("tokenizer.json");
        let session = Session::default();
        let read = || session.tokenizer_file(&path, "tokenizer.json").map(|f| f.sha256.clone());
        let missing = read().expect_err("no file yet");
        std::fs::write(&path, "{\"a\": 1}").expect("write");
        let created = read().expect_err("not a tokenizer");
        assert_ne!(created, missing, "created: read again");
        assert!(created.contains("neither a tokenizer.json"), "{created}");
        let hostile = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/tokenizer-normalizer-doubling/tokenizer.json");
        std::fs::copy(hostile, &path).expect("copy");
        let replaced = read().expect_err("a normalizer that grows texts");
        assert!(replaced.contains("times longer"), "replaced: read again: {replaced}");
        assert_eq!(read().expect_err("unchanged"), replaced);
        assert_eq!(session.tokenizer_files.lock().map(|files| files.len()).unwrap_or_default(), 1, "one version per path");
    }

    /// An agent that names a tokenizer file ctxc cannot use: its load runs on a thread of its own
    /// ([`Session::prepare`] succeeds), and [`Session::complete`] gives the error
    /// [`Session::load`] gives, at the manifest's line.
    #[test]
    fn a_file_loading_beside_the_agent_gives_the_error_of_a_load_before_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let manifest = dir.path().join("ctxc.toml");
        let text = "[agent]\nname = \"a\"\nmodel = \"qwen/qwen3-32b\"\ntokenizer = \"tokenizer.json\"\n[pipeline]\n\
                    steps = [{ id = \"role\", kind = \"module\" }]\n[modules]\nrole = { source = \"role.md\" }\n";
        std::fs::write(&manifest, text).expect("write");
        std::fs::write(dir.path().join("role.md"), "You are careful.\n").expect("write");
        let hostile = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/tokenizer-normalizer-doubling/tokenizer.json");
        std::fs::copy(hostile, dir.path().join("tokenizer.json")).expect("copy");
        let loaded = Session::default().load(&manifest).expect_err("a normalizer that grows texts");
        let session = Session::default();
        let prepared = session.prepare(&manifest).expect("loads before the file is used");
        assert!(prepared.pending.is_some());
        let completed = session.complete(prepared, Only::default()).expect_err("the file's error");
        let shown = |failure: &Failure| format!("{:?}", failure.diagnostics);
        assert_eq!(shown(&completed), shown(&loaded));
        assert!(shown(&completed).contains("times longer") && shown(&completed).contains("MAN010"), "{}", shown(&completed));
        assert_eq!(shown(&session.run(&manifest, Only::default()).expect_err("again")), shown(&loaded));
    }

    /// A file rewritten in place with as many bytes and its modification time set back (`cp -p`,
    /// `touch -r`) is still told from the one read before.
    #[test]
    fn a_file_rewritten_with_its_old_size_and_time_has_a_new_stamp() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("tokenizer.json");
        std::fs::write(&path, "{\"a\": 1}").expect("write");
        let modified = std::fs::metadata(&path).and_then(|m| m.modified()).expect("modified");
        let before = Stamp::of(&path);
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&path, "{\"b\": 2}").expect("rewrite");
        std::fs::File::options().write(true).open(&path).and_then(|f| f.set_modified(modified)).expect("set the time back");
        let after = Stamp::of(&path);
        assert_eq!(std::fs::metadata(&path).and_then(|m| m.modified()).ok(), Some(modified));
        assert_ne!(before, after);
    }
}
