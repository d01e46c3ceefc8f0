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
    /// The most requests one run may send, in all (what the manifests ask for is counted before
    /// anything is sent).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    max_requests: u32,
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
    // A manifest decides how many requests it takes (modes × scenarios × sections): bounded
    // before the first one is sent.
    let to_send: usize = files.values().map(|f| f.needed.values().filter(|n| f.recorded.get(&n.request).is_none()).count()).sum();
    if !args.dry_run && to_send > args.max_requests as usize {
        return reporter.usage(format!(
            "{to_send} requests would be sent, more than --max-requests allows ({}); nothing was sent: pass --max-requests {to_send} to send them, or sync fewer agents at a time (--dry-run lists them per agent)",
            args.max_requests
        ));
    }
    if to_send > 0 {
        warn_plain_http(&files, reporter);
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

/// A warning for each base URL in use that sends the key and the prompts unencrypted: plain
/// `http://` to a host that is not this machine.
fn warn_plain_http(files: &BTreeMap<PathBuf, CountsFile>, reporter: &Reporter) {
    let providers: std::collections::BTreeSet<Provider> =
        files.values().flat_map(|f| f.needed.values().map(|n| n.request.provider)).collect();
    for provider in providers {
        let base = base_url(provider);
        let Ok(uri) = base.parse::<ureq::http::Uri>() else { continue };
        let host = uri.host().unwrap_or_default();
        let loopback = host.eq_ignore_ascii_case("localhost")
            || host.trim_start_matches('[').trim_end_matches(']').parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
        if uri.scheme_str() == Some("http") && !loopback {
            let warning = Diagnostic::warning(format!(
                "{} is plain http:// to {}: the key and every prompt cross the network unencrypted; use https://",
                provider.base_url_variable(),
                Untrusted(host)
            ));
            reporter.diagnostics(&[warning], &ctxc::Sources::default());
        }
    }
}

/// The base URL requests to `provider` go to: its variable's value, else the provider's own.
fn base_url(provider: Provider) -> String {
    std::env::var(provider.base_url_variable())
        .ok()
        .map(|b| b.trim().to_string())
        .filter(|b| !b.is_empty())
        .unwrap_or_else(|| provider.default_base_url().to_string())
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
    out.push_str(&failure_lines(&failures));
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
        let key = key.trim();
        // Sent as a header: a character it cannot carry would fail every attempt alike.
        if !key.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(format!(
                "{shown}: the key in {} holds a character an HTTP header cannot carry (a space or a control character)",
                variables.join(" or ")
            ));
        }
        keys.insert(provider, key.to_string());
    }
    Ok(keys)
}

/// One line per failed request (its reason masked already, where the answer was read).
fn failure_lines(failures: &[(&&Needed, String)]) -> String {
    let mut out = String::new();
    for (needed, reason) in failures {
        let others = match needed.uses.len() {
            1 => String::new(),
            n => format!(" (and {} other render{})", n - 1, if n == 2 { "" } else { "s" }),
        };
        out.push_str(&format!("failed: {}{others}: {}\n", Untrusted(&needed.uses[0]), Untrusted(reason)));
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
    // No redirect is followed: ureq would carry `x-api-key` / `x-goog-api-key` to any origin.
    let http: ureq::Agent =
        ureq::Agent::config_builder().timeout_global(Some(REQUEST_TIMEOUT)).http_status_as_error(false).max_redirects(0).build().into();
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
                let answer = send(&http, request, key, keys);
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

/// One request, with its retries: the count, or why it failed for good. Whatever an answer says
/// is shown with every key in `keys` masked, before it is clipped.
fn send(http: &ureq::Agent, request: &CountRequest, key: &str, keys: &BTreeMap<Provider, String>) -> Result<u64, String> {
    let url = request.provider.url(&base_url(request.provider), &request.model);
    let shown = |body: &str| clipped(&keys.values().fold(body.to_string(), |text, key| masked(&text, key)));
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
                let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
                let (retry_after, location) = (header("retry-after"), header("location"));
                let body = response.body_mut().with_config().limit(1 << 20).read_to_string().unwrap_or_default();
                if status == 200 {
                    return request
                        .provider
                        .parse_answer(&body)
                        .ok_or_else(|| format!("the answer holds no token count: {}", shown(&body)));
                }
                let failure = match location.filter(|_| (300..400).contains(&status)) {
                    Some(location) => format!(
                        "HTTP {status}: redirected to {}, not followed (the key goes to the configured origin only)",
                        shown(&origin_of(&location))
                    ),
                    None => format!("HTTP {status}: {}", shown(&body)),
                };
                (Some(status), retry_after, failure)
            }
            // Only a failure of the connection may go away on its own; any other (a URL or a
            // header ureq refuses) fails every attempt alike.
            Err(
                e @ (ureq::Error::Io(_)
                | ureq::Error::Timeout(_)
                | ureq::Error::ConnectionFailed
                | ureq::Error::HostNotFound
                | ureq::Error::BodyStalled
                | ureq::Error::Protocol(_)),
            ) => (None, None, format!("no answer: {}", shown(&e.to_string()))),
            Err(e) => return Err(format!("not sent: {} (after 1 attempt)", shown(&e.to_string()))),
        };
        match ctxc::counts::retry(status, retry_after.as_deref(), attempt) {
            Retry::After(wait) => std::thread::sleep(wait),
            Retry::GiveUp => return Err(format!("{failure} (after {attempt} attempt{})", if attempt == 1 { "" } else { "s" })),
        }
    }
}

/// The origin (`scheme://host:port`) of a redirect's `Location`, all that a failure names of it;
/// a relative or unreadable location as it is.
fn origin_of(location: &str) -> String {
    match location.parse::<ureq::http::Uri>() {
        Ok(uri) if uri.host().is_some() => {
            let port = uri.port_u16().map(|p| format!(":{p}")).unwrap_or_default();
            format!("{}://{}{port}", uri.scheme_str().unwrap_or("?"), uri.host().unwrap_or_default())
        }
        _ => location.to_string(),
    }
}

/// The fewest characters of a key that are masked wherever they appear.
const MASKED_RUN: usize = 8;

/// `text` with every run of [`MASKED_RUN`] characters or more taken from `key` replaced by
/// `[key]`: the whole key, and any long piece of it (an answer may echo a key cut or split).
/// A run is extended while each next window of that length is one of the key's: linear in the text.
fn masked(text: &str, key: &str) -> String {
    if key.len() < MASKED_RUN {
        return if key.is_empty() { text.to_string() } else { text.replace(key, "[key]") };
    }
    let windows: std::collections::HashSet<&[u8]> = key.as_bytes().windows(MASKED_RUN).collect();
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes.get(i..i + MASKED_RUN).is_some_and(|w| windows.contains(w)) {
            let mut end = i + MASKED_RUN;
            while bytes.get(end + 1 - MASKED_RUN..end + 1).is_some_and(|w| windows.contains(w)) {
                end += 1;
            }
            out.extend_from_slice(b"[key]");
            i = end;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
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
    use super::{masked, progress_bar};

    #[test]
    fn keys_and_long_pieces_of_them_are_masked() {
        let key = "sk-ant-0123456789abcdef";
        assert_eq!(masked(&format!("bad key {key}!"), key), "bad key [key]!");
        // A piece of 8 characters or more, wherever it is cut.
        assert_eq!(masked("echo: ant-0123456 and 89abcdef", key), "echo: [key] and [key]");
        assert_eq!(masked("short: sk-ant- is 7", key), "short: sk-ant- is 7", "7 characters are not masked");
        assert_eq!(masked("ünïcode sk-ant-0123456789abcdef", key), "ünïcode [key]");
        assert_eq!(masked("a 1234567 b", "1234567"), "a [key] b");
    }

    #[test]
    fn the_progress_bar_fills_with_the_requests_answered() {
        assert_eq!(progress_bar(0, 53), format!("counting [{}] 0/53 requests", "-".repeat(30)));
        assert_eq!(progress_bar(27, 53), format!("counting [{}{}] 27/53 requests", "#".repeat(15), "-".repeat(15)));
        assert_eq!(progress_bar(53, 53), format!("counting [{}] 53/53 requests", "#".repeat(30)));
    }
}
