//! `ctxc mcp record` over stdio: the server a process leading a process group of its own, its
//! stdout read on a thread (one message a line, bounded in bytes), its stderr's last bytes kept
//! to explain a failure; stopped with its whole group.

use std::io::{BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::client::{answer, Limits, Transport};
use super::clip;
use super::framing::{read_line, Line};

/// The stderr tail kept to explain a server that fails.
const STDERR_TAIL: usize = 2048;

/// What the stdout reader passes on.
enum Output {
    Line(Line),
    Failed(String),
    TooMuch,
}

/// A server started over stdio: its process (leading a process group of its own), its stdin,
/// its stdout's lines (read on a thread), and its stderr's last bytes.
pub(super) struct StdioServer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Output>,
    stderr: Arc<Mutex<Vec<u8>>>,
    deadline: Instant,
    limits: Limits,
    next_id: i64,
}

impl StdioServer {
    pub(super) fn start(
        program: &str,
        args: &[String],
        env: &[(String, String)],
        cwd: &Path,
        limits: &Limits,
        started: Instant,
    ) -> Result<Self, String> {
        let mut command = Command::new(program);
        command.args(args).envs(env.iter().map(|(k, v)| (k, v))).current_dir(cwd);
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| format!("cannot start `{}`: {e}", clip(program)))?;
        let (Some(stdin), Some(stdout), Some(stderr)) = (child.stdin.take(), child.stdout.take(), child.stderr.take()) else {
            stop(&mut child);
            return Err("the server's pipes could not be opened".to_string());
        };
        let (sender, lines) = mpsc::channel();
        let max_bytes = limits.max_bytes;
        // The threads end when the pipes close, which killing the process group does.
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout.take(max_bytes + 1));
            let mut buf = Vec::new();
            loop {
                let read = read_line(&mut reader, &mut buf);
                if reader.get_ref().limit() == 0 {
                    let _ = sender.send(Output::TooMuch);
                    return;
                }
                let (message, last) = match read {
                    Ok(Line::End) => (Output::Line(Line::End), true),
                    Ok(line) => (Output::Line(line), false),
                    Err(e) => (Output::Failed(e.to_string()), true),
                };
                if sender.send(message).is_err() || last {
                    return;
                }
            }
        });
        let tail = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&tail);
        std::thread::spawn(move || {
            let mut stderr = stderr;
            let mut chunk = [0u8; 4096];
            while let Ok(n @ 1..) = stderr.read(&mut chunk) {
                let Ok(mut tail) = kept.lock() else { return };
                tail.extend_from_slice(&chunk[..n]);
                let over = tail.len().saturating_sub(STDERR_TAIL);
                tail.drain(..over);
            }
        });
        Ok(StdioServer { child, stdin: Some(stdin), lines, stderr: tail, deadline: started + limits.time, limits: *limits, next_id: 0 })
    }

    fn send(&mut self, message: &Value, method: &str) -> Result<(), String> {
        let line = format!("{message}\n");
        let written = self.stdin.as_mut().map(|stdin| stdin.write_all(line.as_bytes()).and_then(|()| stdin.flush()));
        match written {
            Some(Ok(())) => Ok(()),
            _ => Err(self.exited(method)),
        }
    }

    /// Why the server stopped answering: it exited (with its status and last words on stderr).
    fn exited(&mut self, method: &str) -> String {
        // The exit status, if it comes soon: a closed stdout usually means the process ended.
        let mut status = None;
        for _ in 0..50 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let tail = self.stderr.lock().map(|t| String::from_utf8_lossy(&t).into_owned()).unwrap_or_default();
        let last = tail.lines().rev().find(|l| !l.trim().is_empty()).map(|l| format!(": {}", clip(l.trim()))).unwrap_or_default();
        match status {
            Some(s) => format!("the server exited ({s}) before answering `{method}`{last}"),
            None => format!("the server closed its stdout before answering `{method}`{last}"),
        }
    }

    pub(super) fn stop(mut self) {
        self.stdin.take();
        stop(&mut self.child);
    }
}

impl Transport for StdioServer {
    fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }), method)?;
        loop {
            let left = self.deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(Output::Line(Line::Text(line))) => line,
                Ok(Output::Line(Line::Refused(why))) => return Err(format!("answered `{method}` with a line ctxc cannot read: {why}")),
                Ok(Output::Line(Line::End)) | Err(RecvTimeoutError::Disconnected) => return Err(self.exited(method)),
                Ok(Output::Failed(e)) => return Err(format!("cannot read the server's stdout: {e}")),
                Ok(Output::TooMuch) => {
                    return Err(format!("the server wrote more than {} bytes (--max-bytes): stopped", self.limits.max_bytes))
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no answer to `{method}` within {} s (--timeout): stopped", self.limits.time.as_secs_f64()))
                }
            };
            if let Some(result) = answer(&line, id, method)? {
                return Ok(result);
            }
        }
    }

    fn notify(&mut self, method: &str) -> Result<(), String> {
        self.send(&json!({ "jsonrpc": "2.0", "method": method }), method)
    }
}

/// Ends a server: its whole process group (children it started too), then the process.
fn stop(child: &mut Child) {
    #[cfg(unix)]
    {
        use rustix::process::{kill_process_group, Pid, Signal};
        let _ = kill_process_group(Pid::from_child(child), Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}
