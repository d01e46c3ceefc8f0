//! `ctxc counts sync`: sends the requests every Claude and Gemini agent needs counted to the
//! provider's counting endpoint and records the answers in `ctxc.counts` beside each manifest
//! (docs/counting.md). The library builds the requests and parses the answers and the file
//! (`ctxc::counts`); this file does the HTTP, the retries and the atomic write.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};

use ctxc::checks::leaks::Leaks;
use ctxc::counts::{CountRequest, Entry, Provider, Recorded, Retry};
use ctxc::report::escape::Untrusted;
use ctxc::session::Only;
use ctxc::{Diagnostic, Session};

use super::report::Reporter;
use super::snapshot::TEST_PAUSE_VAR;
use super::{find_manifests, output, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK};

/// Testing aid: the date recorded instead of today's (UTC), so that a test's file is the same on
/// every day. (Not `CTXC_…`: those variables override manifest keys.)
const TEST_DATE_VAR: &str = "_CTXC_TEST_DATE";

/// How long one request may take before it counts as a timeout (and is retried).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, Args)]
pub struct CountsArgs {
    #[command(subcommand)]
    command: CountsCommand,
}

#[derive(Debug, Subcommand)]
enum CountsCommand {
    /// Record, from the providers' counting endpoints, the counts of every Claude and Gemini
    /// agent, mode and scenario not recorded yet, in ctxc.counts beside each manifest.
    Sync(SyncArgs),
}

#[derive(Debug, Args)]
struct SyncArgs {
    /// Agent directory, manifest file, or directory of agents.
    #[arg(default_value = ".")]
    path: PathBuf,
    #[command(flatten)]
    overrides: super::AgentOverrides,
    /// Say how many requests would be sent, and for which agents; send nothing.
    #[arg(long)]
    dry_run: bool,
    /// Drop the recorded counts no agent, mode or scenario uses any more.
    #[arg(long)]
    prune: bool,
    /// Send texts that hold a secret (SEC001–SEC006) too; by default they are never sent.
    #[arg(long)]
    allow_secrets: bool,
    /// Requests in flight at once.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: u16,
}

pub fn run(args: CountsArgs, reporter: &Reporter) -> u8 {
    match args.command {
        CountsCommand::Sync(args) => sync(args, reporter),
    }
}

/// One request a counts file needs, and the renders that use it (`agent · mode · scenario`).
struct Needed {
    request: CountRequest,
    uses: Vec<String>,
}

/// One `ctxc.counts` file: what it records and what its agents need.
#[derive(Default)]
struct CountsFile {
    recorded: Recorded,
    needed: BTreeMap<(Provider, String, String), Needed>,
    /// Agents whose model has no counting endpoint (counted offline already, or estimated).
    skipped: Vec<String>,
}

/// What one agent contributes to its counts file.
struct AgentPlan {
    dir: PathBuf,
    recorded: Option<Recorded>,
    requests: Vec<(CountRequest, String)>,
    skipped: Option<String>,
    /// Secrets in what would be sent; a render holding one is left out (unless allowed).
    leaks: Leaks,
}

fn sync(args: SyncArgs, reporter: &Reporter) -> u8 {
    let manifests = match find_manifests(&args.path, reporter) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let session = match args.overrides.session(reporter) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let plans = session.each(&manifests, |manifest| plan_agent(&session, manifest, args.allow_secrets));
    let mut files: BTreeMap<PathBuf, CountsFile> = BTreeMap::new();
    let mut code = EXIT_OK;
    for plan in plans {
        let plan = match plan {
            Ok(plan) => plan,
            Err((diagnostics, sources)) => {
                reporter.diagnostics(&diagnostics, &sources);
                code = EXIT_INPUT;
                continue;
            }
        };
        if !plan.leaks.leaks.is_empty() {
            let diagnostics: Vec<Diagnostic> = plan.leaks.leaks.iter().map(|leak| leak_diagnostic(leak, args.allow_secrets)).collect();
            reporter.diagnostics(&diagnostics, &plan.leaks.sources);
            if !args.allow_secrets {
                code = EXIT_FINDINGS;
            }
        }
        let file = files.entry(plan.dir.join(ctxc::counts::FILE_NAME)).or_default();
        if let Some(recorded) = plan.recorded {
            file.recorded = recorded;
        }
        file.skipped.extend(plan.skipped);
        for (request, label) in plan.requests {
            let key = (request.provider, request.model.clone(), request.hash.clone());
            file.needed.entry(key).or_insert_with(|| Needed { request, uses: Vec::new() }).uses.push(label);
        }
    }
    if code == EXIT_INPUT {
        return code;
    }
    let date = std::env::var(TEST_DATE_VAR).unwrap_or_else(|_| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        ctxc::counts::date_of(now)
    });
    let pause = std::env::var(TEST_PAUSE_VAR).ok().and_then(|ms| ms.parse().ok()).map(Duration::from_millis);
    for (path, file) in &mut files {
        let outcome = sync_file(path, file, &args, &date, pause);
        code = code.max(outcome.unwrap_or_else(|message| reporter.usage(message)));
    }
    code
}

/// The requests of one agent: for each mode × scenario of a model with a counting endpoint,
/// the plan's requests, unless its texts hold a secret (and `--allow-secrets` is not given).
fn plan_agent(session: &Session, manifest: &Path, allow_secrets: bool) -> Result<AgentPlan, (Vec<Diagnostic>, ctxc::Sources)> {
    let runs = session.run(manifest, Only::default()).map_err(|f| (f.diagnostics, f.sources))?;
    if !runs.problems.is_empty() {
        return Err((runs.problems, runs.loaded.sources));
    }
    let loaded = &runs.loaded;
    let agent = &loaded.agent;
    let dir = manifest.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
    let mut plan =
        AgentPlan { dir, recorded: loaded.recorded.as_deref().cloned(), requests: Vec::new(), skipped: None, leaks: Leaks::default() };
    let Some(provider) = Provider::of(&agent.profile) else {
        plan.skipped = Some(format!("{} ({})", agent.name, agent.profile.model));
        return Ok(plan);
    };
    for run in &runs.runs {
        let label = format!("{} · {} mode · scenario {}", agent.name, run.rendered.mode, run.rendered.scenario);
        let callable = ctxc::measure::callable_tools(agent, &run.rendered);
        let tools: Vec<&ctxc::tools::Tool> = callable.iter().map(|(t, _)| t.tool.as_ref()).collect();
        // What would be sent: the prompt and the tool definitions.
        let mut sent = run.rendered.prompt();
        for tool in &tools {
            sent.push_str("\n\n");
            sent.push_str(&ctxc::providers::anthropic::tool_text(tool));
        }
        let output = format!("the {} request of {label}", provider.endpoint());
        plan.leaks.scan(&output, &sent, loaded);
        // A secret found before in another render is the same leak, with this output added.
        if !allow_secrets && plan.leaks.leaks.iter().any(|leak| leak.outputs.contains(&output)) {
            continue;
        }
        let count_plan = ctxc::measure::count_plan(provider, &agent.profile.model, &run.rendered, &tools);
        plan.requests.extend(count_plan.requests().map(|r| (r.clone(), label.clone())));
    }
    Ok(plan)
}

/// A secret in a request as `counts sync` reports it: an error (the render's requests are not
/// sent), or with `--allow-secrets` a warning.
fn leak_diagnostic(leak: &ctxc::checks::leaks::Leak, allowed: bool) -> Diagnostic {
    super::secret_leak(
        leak.finding.clone(),
        allowed,
        &format!("sent in {}", leak.outputs.join("; ")),
        "the text goes to the provider's endpoint: remove the secret from the prompt sources and rotate it",
        "nothing of that render was sent: remove the secret from the prompt sources and rotate it, or pass --allow-secrets",
    )
}

/// Sends what one counts file lacks and writes it; the exit code, or a message for a usage
/// error (a missing key).
fn sync_file(path: &Path, file: &mut CountsFile, args: &SyncArgs, date: &str, pause: Option<Duration>) -> Result<u8, String> {
    let shown = path.display().to_string();
    let missing: Vec<&Needed> = file.needed.values().filter(|n| file.recorded.get(&n.request).is_none()).collect();
    let mut out = String::new();
    for skipped in &file.skipped {
        out.push_str(&format!("{}: no counting endpoint for this model; nothing to record\n", Untrusted(skipped)));
    }
    // Agents none of whose models have an endpoint: no file to speak of.
    if file.needed.is_empty() && file.recorded.is_empty() {
        output::print(&out);
        return Ok(EXIT_OK);
    }
    if args.dry_run {
        out.push_str(&dry_run_summary(&shown, file, &missing));
        output::print(&out);
        return Ok(EXIT_OK);
    }
    let keys = provider_keys(&shown, &missing)?;
    let started = Instant::now();
    let answers = send_all(&missing, &keys, args.jobs.into());
    let mut failures = Vec::new();
    let mut sent = 0;
    for (needed, answer) in missing.iter().zip(answers) {
        match answer {
            Ok(tokens) => {
                file.recorded.insert(&needed.request, Entry { tokens, date: date.to_string() });
                sent += 1;
            }
            Err(reason) => failures.push((needed, reason)),
        }
    }
    let pruned = if args.prune { file.recorded.retain_used(file.needed.values().map(|n| &n.request)) } else { 0 };
    let text = file.recorded.to_text();
    // The file as read (through the project's reader) lacked what was sent or held what was
    // pruned: written only then.
    if sent > 0 || pruned > 0 {
        remove_stale_temps(path);
        ctxc::review::atomic::write(path, text.as_bytes(), pause).map_err(|e| format!("{shown}: cannot write: {e}"))?;
    }
    out.push_str(&format!(
        "{}: {sent} counts recorded ({} requests sent in {:.1} s), {} recorded already{}; {} entries, {} bytes\n",
        Untrusted(&shown),
        missing.len(),
        started.elapsed().as_secs_f64(),
        file.needed.len() - missing.len(),
        if args.prune { format!(", {pruned} pruned") } else { String::new() },
        file.recorded.len(),
        text.len()
    ));
    out.push_str(&failure_lines(&failures, &keys));
    output::print(&out);
    Ok(if failures.is_empty() { EXIT_OK } else { EXIT_FINDINGS })
}

/// What `--dry-run` prints for one file: the requests to send, in all and per agent.
fn dry_run_summary(shown: &str, file: &CountsFile, missing: &[&Needed]) -> String {
    let mut out = format!(
        "{}: {} of {} requests to send ({} recorded already)\n",
        Untrusted(shown),
        missing.len(),
        file.needed.len(),
        file.needed.len() - missing.len()
    );
    let mut per_agent: BTreeMap<&str, usize> = BTreeMap::new();
    for needed in missing {
        let agent = needed.uses[0].split(" · ").next().unwrap_or_default();
        *per_agent.entry(agent).or_default() += 1;
    }
    for (agent, n) in per_agent {
        out.push_str(&format!("  {}: {n}\n", Untrusted(agent)));
    }
    out
}

/// The API key of each provider the missing requests go to, from its environment variables.
fn provider_keys(shown: &str, missing: &[&Needed]) -> Result<BTreeMap<Provider, String>, String> {
    let mut keys: BTreeMap<Provider, String> = BTreeMap::new();
    for needed in missing {
        let provider = needed.request.provider;
        if keys.contains_key(&provider) {
            continue;
        }
        let variables = provider.key_variables();
        let key = variables.iter().find_map(|v| std::env::var(v).ok().filter(|k| !k.trim().is_empty()));
        let Some(key) = key else {
            return Err(format!(
                "{}: {} requests need {}, and no key is set: set {}",
                shown,
                missing.iter().filter(|n| n.request.provider == provider).count(),
                provider.endpoint(),
                variables.join(" or ")
            ));
        };
        keys.insert(provider, key.trim().to_string());
    }
    Ok(keys)
}

/// One line per failed request, with the keys masked out of the reason.
fn failure_lines(failures: &[(&&Needed, String)], keys: &BTreeMap<Provider, String>) -> String {
    let mut out = String::new();
    for (needed, reason) in failures {
        let others = match needed.uses.len() {
            1 => String::new(),
            n => format!(" (and {} other render{})", n - 1, if n == 2 { "" } else { "s" }),
        };
        // The key never appears in output, even when an answer echoes it.
        let mut reason = reason.clone();
        for key in keys.values() {
            reason = reason.replace(key.as_str(), "[key]");
        }
        out.push_str(&format!("failed: {}{others}: {}\n", Untrusted(&needed.uses[0]), Untrusted(&reason)));
    }
    out
}

/// Removes what a killed run left of its write of `path` (a temporary file beside it).
fn remove_stale_temps(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else { return };
    let prefix = format!(".{}{}", name.to_string_lossy(), ctxc::review::atomic::TEMP_MARKER);
    let Ok(entries) = std::fs::read_dir(if dir.as_os_str().is_empty() { Path::new(".") } else { dir }) else { return };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(&prefix) && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Sends every request, `jobs` at a time, each retried as [`ctxc::counts::retry`] says; the
/// answers in the order of `missing`.
fn send_all(missing: &[&Needed], keys: &BTreeMap<Provider, String>, jobs: usize) -> Vec<Result<u64, String>> {
    let http: ureq::Agent = ureq::Agent::config_builder().timeout_global(Some(REQUEST_TIMEOUT)).http_status_as_error(false).build().into();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let answers: Vec<Mutex<Option<Result<u64, String>>>> = missing.iter().map(|_| Mutex::new(None)).collect();
    let progress = std::io::stderr().is_terminal();
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(missing.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(needed) = missing.get(i) else { break };
                let request = &needed.request;
                let key = keys.get(&request.provider).map_or("", String::as_str);
                let answer = send(&http, request, key);
                if let Ok(mut slot) = answers[i].lock() {
                    *slot = Some(answer);
                }
                let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                if progress {
                    output::eprint(&format!("\r{}", progress_bar(finished, missing.len())));
                }
            });
        }
    });
    if progress && !missing.is_empty() {
        output::eprint("\n");
    }
    answers.into_iter().map(|slot| slot.into_inner().ok().flatten().unwrap_or_else(|| Err("not sent".to_string()))).collect()
}

/// The terminal's progress line: a bar of 30 cells, then `finished/total requests`.
fn progress_bar(finished: usize, total: usize) -> String {
    const CELLS: usize = 30;
    let filled = (finished * CELLS).checked_div(total).unwrap_or(CELLS).min(CELLS);
    format!("counting [{}{}] {finished}/{total} requests", "#".repeat(filled), "-".repeat(CELLS - filled))
}

/// One request, with its retries: the count, or why it failed for good.
fn send(http: &ureq::Agent, request: &CountRequest, key: &str) -> Result<u64, String> {
    let base = std::env::var(request.provider.base_url_variable())
        .ok()
        .filter(|b| !b.trim().is_empty())
        .unwrap_or_else(|| request.provider.default_base_url().to_string());
    let url = request.provider.url(base.trim(), &request.model);
    let mut attempt = 0;
    loop {
        attempt += 1;
        let mut call = http.post(&url).header("content-type", "application/json");
        for (name, value) in request.provider.headers(key) {
            call = call.header(name, value);
        }
        let (status, retry_after, failure) = match call.send(request.body.as_str()) {
            Ok(mut response) => {
                let status = response.status().as_u16();
                let retry_after = response.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_string);
                let body = response.body_mut().with_config().limit(1 << 20).read_to_string().unwrap_or_default();
                if status == 200 {
                    return request
                        .provider
                        .parse_answer(&body)
                        .ok_or_else(|| format!("the answer holds no token count: {}", clipped(&body)));
                }
                (Some(status), retry_after, format!("HTTP {status}: {}", clipped(&body)))
            }
            Err(e) => (None, None, format!("no answer: {e}")),
        };
        match ctxc::counts::retry(status, retry_after.as_deref(), attempt) {
            Retry::After(wait) => std::thread::sleep(wait),
            Retry::GiveUp => return Err(format!("{failure} (after {attempt} attempt{})", if attempt == 1 { "" } else { "s" })),
        }
    }
}

/// The start of an answer's body, on one line, for a failure message.
fn clipped(body: &str) -> String {
    let line: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::progress_bar;

    #[test]
    fn the_progress_bar_fills_with_the_requests_answered() {
        assert_eq!(progress_bar(0, 53), format!("counting [{}] 0/53 requests", "-".repeat(30)));
        assert_eq!(progress_bar(27, 53), format!("counting [{}{}] 27/53 requests", "#".repeat(15), "-".repeat(15)));
        assert_eq!(progress_bar(53, 53), format!("counting [{}] 53/53 requests", "#".repeat(30)));
    }
}
