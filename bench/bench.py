"""ctxc benchmark: ctxc against a Python pipeline (Jinja2 + tiktoken) and against the tokenizer floor.

    python3 bench/bench.py                 # 50 and 100 agents x 3 modes x 300 tools x 50 skills
    python3 bench/bench.py --agents 20     # 10 and 20 agents
    python3 bench/bench.py --runs 7 --keep /tmp/ctxc-bench
    python3 bench/bench.py --mcp-tools 60000 --only-mcp   # just the large MCP tool file
    python3 bench/bench.py --only-lint --runs 3           # zero-config lint beside agnix and the other peers
    python3 bench/bench.py --ctxc /tmp/ctxc-before        # another build of ctxc (the floor is built from this tree)
    python3 bench/bench.py --only-tokenizer FILE --tokenizer-model MODEL   # a model's own tokenizer file against o200k_base
    python3 bench/bench.py --only-scales --baseline /tmp/ctxc-before --check  # before/after in one run, against the goals

For each of two scales (half of --agents, then --agents) it generates a project deterministically
(modules of 1-8 KB, a third of them Jinja templates; tool schemas of 1-4 KB; agents share most
files, as in a monorepo), checks that the Python reference (bench/reference.py) reports exactly
ctxc's counts for o200k_base and cl100k_base, then times `ctxc check`, `ctxc cost --format json`,
the reference and the floor (benches/floor.rs: build the encoder, count each distinct text once,
on all cores), and the read floor (`floor --read`: every file of the project read and hashed once,
on all cores: what any tool pays before it parses or counts anything). Prints median wall time, peak
memory and the ratios. Then times `check`, `cost` and
`render` on one agent whose MCP tool file holds --mcp-tools tools (60,000 in 3.5 MB: every lint
rule must stay O(n log n) in its input; `check` once took over 60 s there). Then the incremental case:
`ctxc lsp` on the --agents project with one module every agent reads (`../shared/core.md`), driven by a
client that watches the files for the server when asked (as VS Code does), timed from
each didChange to the publishDiagnostics it causes (every edit adds or removes a finding, so each one
publishes), for an edit of (a) that shared module, (b) a module one agent reads, (c) one tool file; and
its memory (RSS) after --lsp-edits edits spread over the three (`--only-lsp` runs just this case).
The lint case (`--only-lint`) times `ctxc check` with no manifest on one small SKILL.md, on the
corpus's skills tree beside the peer linters (scripts/peers installs them under target/peers), and on
a generated repository of --mixed-files agent files of every kind beside agnix: median wall and CPU
(user + system) time, peak memory, and each peer's ratio to ctxc.
The tokenizer case (`--only-tokenizer FILE`) times `ctxc cost --format json` on the --agents project,
and on the same project with mixed text (other scripts, code, numbers, long runs of white space),
counted with o200k_base and with the model's own tokenizer file (`--tokenizer FILE --model MODEL`),
and on one example agent with and without the file (what loading it once costs): the four commands
(eight with --baseline) take turns, and the ratio is given in CPU time (user + system) and in wall time.
With --baseline BINARY every ctxc row is also timed with that other build, in the same run (rows
marked [baseline]); the scales print `ctxc cost`'s time per stage (CTXC_TIMINGS=1). --check ends
with each measured figure beside its goal (issue 46: cost/floor <= 1.5, check/floor <= 2,
reference/cost >= 100, doubling <= 2, editor edits <= 50 ms, the 60,000-tool file <= 300 ms, peak
RSS < 200 MiB) and exits 1 when any misses it. Installs Jinja2 and tiktoken
with pip when missing; tiktoken's rank files come from the tiktoken-rs crate (no network).
Figures are for comparison within one run: the machine is shared and noisy.
"""

import argparse
import importlib.util
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORDS = ("account agent answer audit batch cache check cohort column connector context customer dashboard "
         "data decision deploy draft export field file filter forecast funnel index invoice issue label "
         "limit metric migration model module note owner pipeline plan policy prompt query quota record "
         "region release report request retention review revenue rollout schema scope segment session "
         "signal source summary table team ticket token tool trend usage user value version warehouse window").split()


TEMPLATE_TAIL = """
Module MODULE: you are {{ agent.name }}, working in {{ mode }} mode with {{ tools | length }} tools.
{% if mode == "plan" %}Investigate first and propose a plan; change nothing.
{% else %}Act when the request is clear; ask when it is not.
{% endif %}"""


def source_name(module: str) -> str:
    return f"{module}.md.j2" if int(module.split("_")[1]) % 3 == 0 else f"{module}.md"


def sentence(rng: random.Random, n: int) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    return " ".join(words).capitalize() + "."


def paragraph_text(rng: random.Random, size: int) -> str:
    """Markdown of roughly `size` bytes."""
    out = [f"# {sentence(rng, 4)[:-1]}\n"]
    while sum(len(p) for p in out) < size:
        if rng.random() < 0.3:
            out.append("\n".join(f"- {sentence(rng, rng.randint(6, 14))}" for _ in range(rng.randint(3, 6))) + "\n")
        else:
            out.append(" ".join(sentence(rng, rng.randint(8, 20)) for _ in range(rng.randint(2, 5))) + "\n")
    return "\n".join(out)


# The mixed-text set of the tokenizer case: what real prompts hold beside English prose. The
# phrases are this file's own (short, ordinary sentences in each script), the code is made up.
MIXED_PHRASES = (
    "请先阅读项目说明，然后再修改代码。", "日本語のドキュメントを確認してから、テストを実行してください。",
    "변경 사항을 커밋하기 전에 모든 테스트를 실행하세요.", "Перед изменением кода прочитайте описание проекта.",
    "يرجى تشغيل الاختبارات قبل إرسال التغييرات.", "कृपया बदलाव भेजने से पहले सभी परीक्षण चलाएँ।",
    "Überprüfe die Änderungen, bevor du sie zusammenführst.", "Vérifiez les entrées avant de répondre à l'utilisateur.",
    "Kiểm tra kết quả trước khi trả lời người dùng.", "ตรวจสอบผลลัพธ์ก่อนตอบกลับผู้ใช้", "Προσοχή: μην αλλάζετε τα αρχεία ρυθμίσεων.",
    "✅ done · ⚠️ check the logs · 🚀 deploy after review", "Ünïcödé ñame—with “quotes”, ‘apostrophes’ and … ellipses",
)


def code_block(rng: random.Random) -> str:
    """A made-up code sample: Python, Rust or JSON, indented as code is."""
    name = rng.choice(WORDS)
    depth = " " * rng.choice((2, 4, 8))
    samples = (
        f"```python\ndef load_{name}(path: str) -> dict:\n{depth}with open(path) as f:\n{depth * 2}data = json.load(f)\n"
        f"{depth}return {{k: v for k, v in data.items() if v is not None}}  # {rng.randint(0, 99999)}\n```",
        f"```rust\nfn {name}_total(items: &[u64]) -> u64 {{\n{depth}items.iter().filter(|&&x| x > {rng.randint(1, 999)}).sum()\n}}\n```",
        "```json\n" + json.dumps({name: [rng.randint(0, 10**6) for _ in range(4)], "enabled": True, "ratio": round(rng.random(), 4)}, indent=len(depth)) + "\n```",
    )
    return rng.choice(samples)


def mixed_text(rng: random.Random, size: int) -> str:
    """Roughly `size` bytes of prose, other scripts, code, numbers and long runs of white space."""
    out = []
    while sum(len(p.encode()) for p in out) < size:
        kind = rng.random()
        if kind < 0.3:
            out.append(" ".join(rng.choice(MIXED_PHRASES) for _ in range(rng.randint(1, 4))))
        elif kind < 0.55:
            out.append(code_block(rng))
        elif kind < 0.7:
            out.append(rng.choice((" ", "\t", "\n", " \n")) * rng.randint(16, 400) + sentence(rng, 5))
        elif kind < 0.8:
            out.append(" ".join(str(rng.randint(0, 10**rng.randint(1, 12))) for _ in range(rng.randint(4, 20))))
        else:
            out.append(sentence(rng, rng.randint(8, 20)))
    return "\n\n".join(out) + "\n"


def tool(rng: random.Random, i: int, size: int) -> dict:
    props = {}
    while len(json.dumps(props)) < size - 300:
        name = f"{rng.choice(WORDS)}_{rng.choice(WORDS)}"
        kind = rng.choice(["string", "integer", "boolean", "array"])
        prop = {"type": kind, "description": sentence(rng, rng.randint(8, 22))}
        if kind == "array":
            prop["items"] = {"type": "string"}
        props[name] = prop
    required = sorted(props)[: max(1, len(props) // 3)]
    return {"type": "function", "function": {
        "name": f"tool_{i:03d}_{rng.choice(WORDS)}",
        "description": " ".join(sentence(rng, rng.randint(10, 20)) for _ in range(3)),
        "parameters": {"type": "object", "properties": props, "required": required}}}


def generate(out: str, agents: int, tools: int, skills: int, seed: int = 7, text=paragraph_text) -> dict:
    """Writes the project; returns its size figures. Modules, tools and skills come from shared pools,
    as in a real monorepo where agents share most of their prompt material. `text` writes the
    modules' and mode prompts' text (`mixed_text`: the tokenizer case's mixed-text set)."""
    rng = random.Random(seed)
    modules = {f"module_{k}": text(rng, rng.randint(1024, 8192)) for k in range(24)}
    # A third of the modules are Jinja templates, so their text differs per agent and mode.
    for k in range(0, 24, 3):
        modules[f"module_{k}"] += TEMPLATE_TAIL.replace("MODULE", str(k))
    mode_prompts = {m: text(rng, rng.randint(512, 2048)) for m in ("agent", "ask", "plan")}
    tool_pool = [tool(rng, i, rng.randint(1024, 4096)) for i in range(tools)]
    skill_pool = []
    for k in range(skills):
        name = f"skill-{k:02d}-{rng.choice(WORDS)}"
        skill_pool.append((name, f"---\nname: {name}\ndescription: {sentence(rng, rng.randint(12, 30))}\n---\n\n{paragraph_text(rng, rng.randint(1024, 4096))}"))
    total_bytes = 0
    for a in range(agents):
        agent_dir = os.path.join(out, f"agent-{a:03d}")
        os.makedirs(os.path.join(agent_dir, "prompts"), exist_ok=True)
        own = [f"module_{(a + k) % len(modules)}" for k in range(6)]
        for m in own:
            path = os.path.join(agent_dir, "prompts", source_name(m))
            with open(path, "w") as f:
                f.write(modules[m])
            total_bytes += len(modules[m])
        for mode, text in mode_prompts.items():
            with open(os.path.join(agent_dir, "prompts", f"mode_{mode}.md"), "w") as f:
                f.write(text)
            total_bytes += len(text)
        tools_dir = os.path.join(agent_dir, "tools")
        os.makedirs(tools_dir, exist_ok=True)
        per_category = tools // 6
        categories = []
        for c in range(6):
            chunk = tool_pool[c * per_category:(c + 1) * per_category]
            text = json.dumps(chunk, indent=2)
            with open(os.path.join(tools_dir, f"cat{c}.json"), "w") as f:
                f.write(text)
            total_bytes += len(text)
            read_only = [t["function"]["name"] for t in chunk[: len(chunk) // 2]]
            categories.append(f'[tools.cat{c}]\nfiles = ["tools/cat{c}.json"]\nread_only = {json.dumps(read_only)}\n')
        for name, text in skill_pool:
            os.makedirs(os.path.join(agent_dir, "skills", name), exist_ok=True)
            with open(os.path.join(agent_dir, "skills", name, "SKILL.md"), "w") as f:
                f.write(text)
            total_bytes += len(text)
        steps = ",\n".join(f'  {{ id = "{m}", kind = "module" }}' for m in own)
        manifest = f'''[agent]
name = "agent-{a:03d}"
model = "gpt-4o"

[pipeline]
steps = [
{steps},
  {{ id = "mode", kind = "mode_prompt" }},
  {{ id = "tools", kind = "tool_list" }},
  {{ id = "skills", kind = "skills" }},
  {{ id = "time", kind = "time" }},
]

[modules]
{chr(10).join(f'{m} = {{ source = "prompts/{source_name(m)}" }}' for m in own)}

[modes.agent]
prompt = "prompts/mode_agent.md"
[modes.ask]
prompt = "prompts/mode_ask.md"
tools = {{ cat0 = "read-only", cat1 = "read-only", cat2 = "disabled" }}
[modes.plan]
prompt = "prompts/mode_plan.md"
tools = {{ cat0 = "read-only", cat1 = "read-only", cat2 = "read-only", cat3 = "disabled" }}

{chr(10).join(categories)}
[skills]
dirs = ["skills"]
'''
        with open(os.path.join(agent_dir, "ctxc.toml"), "w") as f:
            f.write(manifest)
    return {"agents": agents, "tools": tools, "skills": skills, "bytes": total_bytes}


def generate_mcp(out: str, tools: int) -> int:
    """One agent with one MCP server whose `tools/list` file holds `tools` small tools; returns its size."""
    os.makedirs(os.path.join(out, "tools"), exist_ok=True)
    listed = [{"name": f"t{i}", "description": "Reads.", "inputSchema": {}} for i in range(tools)]
    text = json.dumps({"tools": listed}, separators=(",", ":"))
    with open(os.path.join(out, "tools", "mcp.json"), "w") as f:
        f.write(text)
    with open(os.path.join(out, "ctxc.toml"), "w") as f:
        f.write('[agent]\nname = "mcp"\nmodel = "gpt-4o"\ncontext_window = 100000000\n\n'
                '[pipeline]\nsteps = [{ id = "core", kind = "text", text = "You are a helpful assistant." },'
                ' { id = "tools", kind = "tool_list" }]\n\n'
                '[tools.mcp]\nfiles = [{ path = "tools/mcp.json", server = "github" }]\n\n'
                '[scenarios.default]\nmcp_servers = { github = {} }\n')
    return len(text)


def measure_mcp(args, ctxc: str, work: str) -> dict:
    out = os.path.join(work, f"mcp-{args.mcp_tools}")
    size = generate_mcp(out, args.mcp_tools)
    rows = {}
    for cmd, extra in [("check", ["--format", "json"]), ("cost", ["--format", "json"]), ("render", [])]:
        for label, binary in binaries(args, ctxc):
            rows[f"ctxc {cmd}{label}"] = run_timed([binary, cmd, out, *extra], args.runs)
    return {"bytes": size, "rows": rows}


def binaries(args, ctxc: str) -> list:
    """The builds to time: this one, then the --baseline build when given (its rows marked)."""
    return [("", ctxc)] + ([(BASELINE, args.baseline)] if args.baseline else [])


BASELINE = " [baseline]"


PEERS = os.path.join(ROOT, "target", "peers")


def mixed_repository(out: str, files: int) -> dict:
    """A repository of `files` agent files of every kind, spread over packages as in a monorepo
    (deterministic): skills, subagents, commands, settings, MCP configurations, Cursor rules,
    Copilot instructions and prompts, Gemini settings, OpenHands microagents and memory files.
    Returns how many files of each kind it wrote."""
    rng = random.Random(26)
    kinds = {}

    def write(rel: str, text: str, kind: str) -> None:
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        kinds[kind] = kinds.get(kind, 0) + 1

    def frontmatter(fields: dict, body_sentences: int) -> str:
        head = "".join(f"{k}: {v}\n" for k, v in fields.items())
        body = "\n".join(f"- {sentence(rng, rng.randint(6, 16))}" for _ in range(body_sentences))
        return f"---\n{head}---\n# {sentence(rng, 3)[:-1]}\n\n{body}\n"

    written, package = 0, 0
    while written < files:
        root = f"packages/pkg-{package:03d}/"
        name = lambda: f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{rng.randint(0, 99)}"
        for _ in range(4):
            skill = name()
            write(f"{root}.claude/skills/{skill}/SKILL.md",
                  frontmatter({"name": skill, "description": sentence(rng, 18) + " Use when " + sentence(rng, 8).lower()}, 12), "skill")
        agent = name()
        write(f"{root}.claude/agents/{agent}.md",
              frontmatter({"name": agent, "description": sentence(rng, 14), "tools": "Read, Grep, Glob, Bash", "model": "sonnet"}, 10), "subagent")
        write(f"{root}.claude/commands/{name()}.md",
              frontmatter({"description": sentence(rng, 8), "argument-hint": "[issue-number]", "allowed-tools": "Bash(git status:*), Read"}, 6), "command")
        write(f"{root}.cursor/rules/{name()}.mdc",
              frontmatter({"description": sentence(rng, 8), "globs": "src/**/*.ts", "alwaysApply": "false"}, 8), "cursor rule")
        write(f"{root}.github/instructions/{name()}.instructions.md", frontmatter({"applyTo": "'**/*.py'"}, 8), "copilot instructions")
        write(f"{root}.github/prompts/{name()}.prompt.md", frontmatter({"description": sentence(rng, 8), "agent": "agent"}, 6), "copilot prompt")
        write(f"{root}.openhands/microagents/{name()}.md",
              frontmatter({"name": name(), "type": "knowledge", "triggers": f"[{rng.choice(WORDS)}-{package}]"}, 6), "openhands microagent")
        write(f"{root}AGENTS.md", paragraph_text(rng, 3000), "memory")
        write(f"{root}CLAUDE.md", "@AGENTS.md\n\n" + paragraph_text(rng, 800), "memory")
        settings = {"permissions": {"allow": ["Bash(npm test:*)", "Read"], "deny": ["Bash(rm -rf:*)"]},
                    "hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "npx prettier --write ."}]}]}}
        write(f"{root}.claude/settings.json", json.dumps(settings, indent=2), "claude settings")
        write(f"{root}.mcp.json", json.dumps({"mcpServers": {"docs": {"command": "npx", "args": ["-y", "docs-mcp"]}}}, indent=2), "mcp")
        write(f"{root}.gemini/settings.json", json.dumps({"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}, indent=2), "gemini settings")
        write(f"{root}GEMINI.md", paragraph_text(rng, 600), "memory")
        written, package = sum(kinds.values()), package + 1
    return kinds


def measure_lint(args, ctxc: str, work: str) -> dict:
    """Zero-config linting: one small SKILL.md; the corpus's tree of skills beside the peer linters
    (installed by scripts/peers into target/peers), each as its users run it; and a generated
    repository of --mixed-files agent files of every kind beside agnix, the peer that reads them all."""
    # The corpus's real path: ctxc refuses a path that leaves its repository through a link (a
    # checkout whose ../shared is a symbolic link would fail the lint case for that reason).
    skills_tree = os.path.join(os.path.realpath(args.corpus), "skills")
    if not os.path.isdir(skills_tree):
        sys.exit(f"{skills_tree} is missing: the lint benchmark reads the shared corpus (--corpus, default ../shared/corpus)")
    subprocess.run([os.path.join(ROOT, "scripts", "peers")], check=True)
    small = os.path.join(work, "small", "release-notes", "SKILL.md")
    os.makedirs(os.path.dirname(small), exist_ok=True)
    with open(small, "w") as f:
        f.write("---\nname: release-notes\ndescription: Summarize merged pull requests into a changelog entry. "
                "Use when preparing a release.\n---\n\nRead the merged pull requests and write one entry per change.\n")
    skill_dirs = sorted(os.path.dirname(os.path.join(d, "SKILL.md")) for d, _, names in os.walk(skills_tree) if "SKILL.md" in names)
    validate_all = ("import sys, pathlib, skills_ref\n"
                    "for d in sys.argv[1:]:\n    skills_ref.validate(pathlib.Path(d))\n")
    bin = os.path.join(PEERS, "venv", "bin")
    agnix = os.path.join(bin, "agnix")
    tree = {
        "ctxc check": [ctxc, "check", skills_tree],
        "agnix 0.59.3": [agnix, skills_tree],
        "claudelint 0.3.6": [os.path.join(bin, "claudelint"), skills_tree],
        "skill-check 1.2.0": [os.path.join(PEERS, "npm", "node_modules", ".bin", "skill-check"), "check", skills_tree],
        "skills-ref 0.1.1 (validate() per skill, one process)": [os.path.join(bin, "python"), "-c", validate_all, *skill_dirs],
    }
    mixed = os.path.join(work, f"mixed-{args.mixed_files}")
    kinds = mixed_repository(mixed, args.mixed_files)
    repo = {"ctxc check": [ctxc, "check", mixed], "agnix 0.59.3": [agnix, mixed]}
    return {"small": run_timed([ctxc, "check", small], args.runs * 4), "skills": len(skill_dirs),
            "tree": {label: run_timed_cpu(cmd, args.runs) for label, cmd in tree.items()},
            "mixed": {"kinds": kinds, "rows": {label: run_timed_cpu(cmd, args.runs) for label, cmd in repo.items()}}}


def print_lint(lint: dict) -> None:
    seconds, peak = lint["small"]
    print(f"\nzero-config lint, one small SKILL.md: {seconds * 1000:.1f} ms, {peak:.1f} MiB peak RSS (process start included)")
    kinds = lint["mixed"]["kinds"]
    for title, rows in [(f"the corpus's skills tree ({lint['skills']} skills), beside the peer linters:", lint["tree"]),
                        (f"a generated repository of {sum(kinds.values())} agent files "
                         f"({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))}), beside agnix:", lint["mixed"]["rows"])]:
        print(title)
        wall, _, cpu = rows["ctxc check"]
        print(f"  {'linter':<52} {'median wall':>12} {'median CPU':>11} {'peak RSS':>10} {'wall vs ctxc':>13} {'CPU vs ctxc':>12}")
        for label, (seconds, peak, cpu_seconds) in rows.items():
            print(f"  {label:<52} {seconds * 1000:>9.1f} ms {cpu_seconds * 1000:>8.1f} ms {peak:>7.0f} MiB "
                  f"{seconds / wall:>12.2f}x {cpu_seconds / cpu:>11.2f}x")


SHARED_MODULE = "# Shared rules\n\nEvery agent of the project reads this module. Keep answers short and cite sources.\n"


def add_shared_module(out: str, agents: int) -> None:
    """Makes every agent read one module above its folder (`[project] root = ".."`)."""
    os.makedirs(os.path.join(out, "shared"), exist_ok=True)
    with open(os.path.join(out, "shared", "core.md"), "w") as f:
        f.write(SHARED_MODULE)
    for a in range(agents):
        path = os.path.join(out, f"agent-{a:03d}", "ctxc.toml")
        with open(path) as f:
            text = f.read()
        text = text.replace("steps = [\n", 'steps = [\n  { id = "shared", kind = "module" },\n', 1)
        text = text.replace("[modules]\n", '[modules]\nshared = { source = "../shared/core.md" }\n', 1)
        with open(path, "w") as f:
            f.write('[project]\nroot = ".."\n\n' + text)


class Lsp:
    """A JSON-RPC client of `ctxc lsp`."""

    def __init__(self, ctxc: str, root: str):
        self.proc = subprocess.Popen([ctxc, "lsp"], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def receive(self) -> dict:
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("ctxc lsp closed its output")
            line = line.decode().strip()
            if not line:
                break
            if line.startswith("Content-Length: "):
                length = int(line.split(": ")[1])
        message = json.loads(self.proc.stdout.read(length))
        if "method" in message and "id" in message:
            # A request of the server's (to watch the project's files): granted, as editors do.
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        return message

    def request(self, method: str, params) -> dict:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.next_id:
                return message

    def notify(self, method: str, params) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def published(self, uri: str) -> None:
        while True:
            message = self.receive()
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
                return

    def rss_mib(self) -> float:
        with open(f"/proc/{self.proc.pid}/status") as f:
            kib = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        return kib / 1024


def lsp_edits(path: str):
    """The edit cycle of a file: text i adds a finding when i is odd and takes it away when even
    (in a module, a leftover `{placeholder}`: TPL003), and is new each time, as typing makes it."""
    with open(path) as f:
        original = f.read()
    if path.endswith(".json"):
        # In a tool file: a `required` name its schema does not declare (TOOL007).
        tools = json.loads(original)
        params = tools[0]["function"]["parameters"]
        required = list(params["required"])
        def text(i: int) -> str:
            tools[0]["function"]["description"] = f"Edit {i}."
            params["required"] = required + (["not_declared"] if i % 2 else [])
            return json.dumps(tools, indent=2)
    else:
        def text(i: int) -> str:
            return original + f"\nEdit {i}." + (" Use {tools_description}.\n" if i % 2 else "\n")
    return original, text


def measure_lsp(args, ctxc: str, work: str) -> dict:
    out = os.path.join(work, f"lsp-{args.agents}")
    generate(out, args.agents, args.tools, args.skills)
    add_shared_module(out, args.agents)
    out = os.path.realpath(out)
    lsp = Lsp(ctxc, out)
    uri = lambda rel: "file://" + os.path.join(out, rel)
    # An editor that watches files for the server when asked (VS Code, Neovim 0.10 and later).
    watching = {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}}
    lsp.request("initialize", {"capabilities": watching, "rootUri": "file://" + out})
    lsp.notify("initialized", {})
    # Answered once the first check of every agent is done.
    lsp.request("textDocument/completion", {"textDocument": {"uri": uri("agent-000/ctxc.toml")}, "position": {"line": 0, "character": 0}})
    cases = {"(a) module every agent reads": "shared/core.md",
             "(b) module one agent reads": "agent-000/prompts/module_1.md",
             "(c) one tool file": "agent-000/tools/cat0.json"}
    texts = {}
    for rel in cases.values():
        original, texts[rel] = lsp_edits(os.path.join(out, rel))
        lsp.notify("textDocument/didOpen", {"textDocument": {"uri": uri(rel), "languageId": "markdown", "version": 0, "text": original}})
    lsp.request("textDocument/completion", {"textDocument": {"uri": uri("agent-000/ctxc.toml")}, "position": {"line": 0, "character": 0}})
    version = 0
    edits = {rel: 0 for rel in cases.values()}
    def edit(rel: str) -> float:
        nonlocal version
        version += 1
        # Each file's own count decides whether its edit adds or removes the finding.
        edits[rel] += 1
        start = time.perf_counter()
        lsp.notify("textDocument/didChange", {"textDocument": {"uri": uri(rel), "version": version},
                                              "contentChanges": [{"text": texts[rel](edits[rel])}]})
        lsp.published(uri(rel))
        return time.perf_counter() - start
    latency = {label: statistics.median([edit(rel) for _ in range(args.lsp_samples)]) for label, rel in cases.items()}
    rss_start = lsp.rss_mib()
    # Memory over many edits: mostly the one-agent files, the shared module every 50th edit.
    rels = list(cases.values())
    for i in range(args.lsp_edits):
        edit(rels[0] if i % 50 == 0 else rels[1 + i % 2])
    rss_end = lsp.rss_mib()
    lsp.request("shutdown", None)
    lsp.notify("exit", None)
    lsp.proc.wait(timeout=60)
    return {"latency": latency, "rss_start": rss_start, "rss_end": rss_end, "edits": args.lsp_edits + 3 * args.lsp_samples}


def print_lsp(args, lsp: dict, label: str = "") -> None:
    print(f"\nctxc lsp{label}, {args.agents} agents (one module read by all): didChange to publishDiagnostics, "
          f"median of {args.lsp_samples} edits each")
    for label, seconds in lsp["latency"].items():
        print(f"  {label:<32} {seconds * 1000:>7.1f} ms")
    print(f"  RSS after the timed edits {lsp['rss_start']:.0f} MiB; after {lsp['edits']} edits {lsp['rss_end']:.0f} MiB")


def run_timed(cmd: list, runs: int) -> tuple:
    """Median wall seconds over `runs`, and the largest peak RSS (MiB) of this command's runs."""
    seconds, peak, _ = run_timed_cpu(cmd, runs)
    return seconds, peak


def run_timed_cpu(cmd: list, runs: int) -> tuple:
    """As `run_timed`, and the median CPU seconds (user + system) of the runs.
    The runs happen in a fresh interpreter (`--time-command`): a spawned child's peak RSS counts
    the memory of the process it was spawned from, and this one holds large JSON documents."""
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--time-command", str(runs), "--", *cmd],
                         check=True, capture_output=True, text=True).stdout
    seconds, peak, cpu = json.loads(out)
    return seconds, peak, cpu


def time_command(cmd: list, runs: int) -> None:
    """Runs `cmd` `runs` times; prints [median wall seconds, largest peak RSS in MiB, median CPU
    seconds] as JSON."""
    times, peaks, cpus = [], [], []
    devnull = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]
    for _ in range(runs):
        start = time.perf_counter()
        pid = os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=devnull)
        _, status, usage = os.wait4(pid, 0)
        times.append(time.perf_counter() - start)
        peaks.append(usage.ru_maxrss / 1024)
        cpus.append(usage.ru_utime + usage.ru_stime)
        code = os.waitstatus_to_exitcode(status)
        # 0 clean, 1 findings (2 is skill-check's findings; for ctxc it is input that cannot load).
        if code not in (0, 1) and not (code == 2 and "skill-check" in cmd[0]):
            sys.exit(f"{' '.join(cmd)} failed with exit {code}")
    print(json.dumps([statistics.median(times), max(peaks), statistics.median(cpus)]))


def ensure_python_packages() -> None:
    """The reference needs Jinja2 and tiktoken; install them for this user when missing."""
    missing = [p for p in ("jinja2", "tiktoken") if importlib.util.find_spec(p) is None]
    if missing:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *missing], check=True)


def build(ctxc: str, floor: bool) -> tuple:
    """Builds ctxc (unless a binary is given) and, when `floor`, the floor in release mode; returns
    their paths (the floor's None when not built)."""
    if not ctxc:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
        ctxc = os.path.join(ROOT, "target", "release", "ctxc")
    if not floor:
        return ctxc, None
    out = subprocess.run(["cargo", "bench", "--bench", "floor", "--no-run", "--message-format=json", "--quiet"],
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout
    floor = [json.loads(line)["executable"] for line in out.splitlines()
             if '"executable":"' in line and json.loads(line).get("target", {}).get("name") == "floor"][-1]
    return ctxc, floor


def compare(ctxc_json: str, reference: dict) -> int:
    """Checks every count ctxc reports against the reference; returns how many were compared."""
    compared = 0
    for report in json.loads(ctxc_json)["reports"]:
        ref = reference[f"{report['agent']}/{report['mode']}"]
        ours = {
            "sections": [[s["id"], s["tokens"]["tokens"]] for s in report["sections"]],
            "system_prompt": report["system_prompt"]["tokens"],
        }
        # The reference renders tools as compact JSON; other renderings (harmony for gpt-4o) are
        # proven against their own runtime by the tests (tests/runtimes/harmony.rs).
        if report["tool_schemas"]["rendering"] == "compact_json":
            ours["tools"] = [[t["name"], t["tokens"]["tokens"]] for t in report["tool_schemas"]["tools"]]
            ours["tool_total"] = report["tool_schemas"]["total"]["tokens"]
        for key in ours:
            if ours[key] != ref[key]:
                sys.exit(f"count mismatch for {report['agent']} {report['mode']} {key}: ctxc {ours[key]!r:.200} "
                         f"reference {ref[key]!r:.200}")
        compared += len(ours["sections"]) + len(ours.get("tools", [])) + len(ours) - 1
    return compared


def measure_scale(agents: int, args, ctxc: str, floor: str, work: str) -> dict:
    out = os.path.join(work, f"project-{agents}")
    size = generate(out, agents, args.tools, args.skills)
    texts = os.path.join(work, f"texts-{agents}.json")
    reference_cmd = [sys.executable, os.path.join(ROOT, "bench", "reference.py"), out]
    # Correctness first: the reference's counts must equal ctxc's, for both encodings.
    compared = 0
    for model in ("gpt-4o", "gpt-4"):
        sets = ["--set", f"agent.model={model}", "--set", "agent.context_window=1000000"]
        ours = subprocess.run([ctxc, "cost", out, "--format", "json", *sets], capture_output=True, text=True).stdout
        theirs = subprocess.run([*reference_cmd, "--model", model, "--texts", texts], check=True,
                                capture_output=True, text=True).stdout
        compared += compare(ours, json.loads(theirs))
    rows = {}
    o200k = ["--set", "agent.model=gpt-4o"]
    cl100k = ["--set", "agent.model=gpt-4", "--set", "agent.context_window=1000000"]
    for label, binary in binaries(args, ctxc):
        rows[f"ctxc check (o200k_base){label}"] = run_timed([binary, "check", out, *o200k], args.runs)
        rows[f"ctxc check (cl100k_base){label}"] = run_timed([binary, "check", out, *cl100k], args.runs)
        rows[f"ctxc cost --format json{label}"] = run_timed([binary, "cost", out, "--format", "json", *o200k], args.runs)
    rows["reference (Jinja2 + tiktoken)"] = run_timed([*reference_cmd, "--model", "gpt-4o"], args.reference_runs)
    subprocess.run([*reference_cmd, "--model", "gpt-4o", "--texts", texts], check=True, capture_output=True)
    rows["floor (o200k_base)"] = run_timed([floor, texts], args.runs)
    rows["read floor (each file read once)"] = run_timed([floor, "--read", out], args.runs)
    with open(texts, encoding="utf-8") as f:
        distinct = json.load(f)["o200k_base"]
    stages = {label: stage_times([binary, "cost", out, "--format", "json", *o200k]) for label, binary in binaries(args, ctxc)}
    return {"size": size, "rows": rows, "compared": compared, "stages": stages,
            "distinct_mib": sum(len(t.encode()) for t in distinct) / (1024 * 1024)}


def stage_times(cmd: list) -> str:
    """What the binary prints to stderr with CTXC_TIMINGS=1 (each stage's time), or a note when it
    prints nothing (a build from before the variable existed)."""
    err = subprocess.run(cmd, env={**os.environ, "CTXC_TIMINGS": "1"}, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True).stderr
    lines = [line for line in err.splitlines() if line.startswith("timings")]
    return "\n".join(lines) or "  (this build prints no stage times)"


def measure_tokenizer(args, ctxc: str, work: str) -> None:
    """Counting with a model's own tokenizer file against o200k_base, on the --agents project and
    on the same project with mixed text (other scripts, code, numbers, runs of white space), and
    the file's loading."""
    own = ["--model", args.tokenizer_model, "--tokenizer", args.only_tokenizer]
    size = os.path.getsize(args.only_tokenizer) / 2**20
    print(f"{args.agents} agents; tokenizer file {args.only_tokenizer} ({size:.1f} MiB)")
    for texts, text in (("prose", paragraph_text), ("mixed text", mixed_text)):
        out = os.path.join(work, f"project-{args.agents}-{texts.replace(' ', '-')}")
        generate(out, args.agents, args.tools, args.skills, text=text)
        example = os.path.join(ROOT, "examples", "agents", "agentscope")
        own_label = f"cost, own file ({args.tokenizer_model})"
        commands = {}
        for mark, binary in binaries(args, ctxc):
            commands.update({
                f"cost, o200k_base (gpt-4o){mark}": [binary, "cost", out, "--format", "json", "--model", "gpt-4o"],
                f"{own_label}{mark}": [binary, "cost", out, "--format", "json", *own],
            })
            if texts == "prose":
                commands.update({f"one agent, o200k_base{mark}": [binary, "cost", example, "--model", "gpt-4o"],
                                 f"one agent, own file{mark}": [binary, "cost", example, *own]})
        rows = run_interleaved(commands, args.runs)
        print(f"  {texts}:")
        print(f"  {'':<52} {'wall':>9}    {'CPU':>9}    {'peak':>7}")
        for label, (seconds, peak, cpu) in rows.items():
            print(f"  {label:<52} {seconds * 1000:>9.0f} ms {cpu * 1000:>9.0f} ms {peak:>7.0f} MiB")
        for mark, _ in binaries(args, ctxc):
            o200k, mine = rows[f"cost, o200k_base (gpt-4o){mark}"], rows[f"{own_label}{mark}"]
            line = f"  {texts}{mark}: own file / o200k_base: {mine[2] / o200k[2]:.2f}x CPU, {mine[0] / o200k[0]:.2f}x wall"
            if texts == "prose":
                loading = rows[f"one agent, own file{mark}"][2] - rows[f"one agent, o200k_base{mark}"][2]
                line += f"; loading the file once: {loading * 1000:.0f} ms CPU"
            print(line)


def run_interleaved(cmds: dict, runs: int) -> dict:
    """Each of `cmds` (label: command) run once in turn, `runs` rounds: for each, the median wall
    seconds, the largest peak RSS (MiB) and the median CPU seconds. Taking turns spreads a shared
    machine's slow spells over all the commands compared, where back-to-back runs of one command
    would catch them alone."""
    samples = {label: [] for label in cmds}
    for _ in range(runs):
        for label, cmd in cmds.items():
            samples[label].append(run_timed_cpu(cmd, 1))
    return {label: (statistics.median(s[0] for s in runs_of), max(s[1] for s in runs_of), statistics.median(s[2] for s in runs_of))
            for label, runs_of in samples.items()}


def main() -> None:
    if len(sys.argv) > 3 and sys.argv[1] == "--time-command" and sys.argv[3] == "--":
        return time_command(sys.argv[4:], int(sys.argv[2]))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", type=int, default=100, help="agents at the larger scale (the smaller has half)")
    parser.add_argument("--tools", type=int, default=300)
    parser.add_argument("--skills", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5, help="runs per ctxc and floor command (median)")
    parser.add_argument("--reference-runs", type=int, default=3, help="runs of the Python reference (median)")
    parser.add_argument("--ctxc", help="time this ctxc binary (e.g. a build kept from before a change) instead of building one; "
                        "the floor is still built from this tree")
    parser.add_argument("--floor", help="time this floor binary (a kept `cargo bench --bench floor --no-run` build) instead of building one")
    parser.add_argument("--keep", help="write the projects here and keep them")
    parser.add_argument("--mcp-tools", type=int, default=60_000, help="tools in the large MCP tool file")
    parser.add_argument("--only-mcp", action="store_true", help="time only the large MCP tool file")
    parser.add_argument("--only-lint", action="store_true", help="time only zero-config linting, beside the peer linters")
    parser.add_argument("--mixed-files", type=int, default=1_000, help="agent files in the generated repository of mixed kinds (lint case)")
    parser.add_argument("--corpus", default=os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus")),
                        help="the shared corpus (its skills tree is linted beside the peers)")
    parser.add_argument("--lsp-samples", type=int, default=21, help="timed edits per incremental case (median)")
    parser.add_argument("--lsp-edits", type=int, default=10_000, help="edits before the language server's memory is read")
    parser.add_argument("--only-lsp", action="store_true", help="run only the incremental (language server) case")
    parser.add_argument("--only-tokenizer", metavar="FILE", help="time only counting with this model's own tokenizer file")
    parser.add_argument("--tokenizer-model", default="qwen/qwen3-32b", help="the model --only-tokenizer's file is for")
    parser.add_argument("--only-scales", action="store_true", help="run only the two project scales (ctxc, reference, floor)")
    parser.add_argument("--baseline", metavar="BINARY", help="also time this other ctxc build, in the same run, beside "
                        "this one (rows marked [baseline]): before and after a change on the same machine state")
    parser.add_argument("--check", action="store_true", help="after the figures, compare each measured ratio with its goal "
                        "(issue 46) and exit 1 when any misses it")
    args = parser.parse_args()

    only = args.only_lint or args.only_lsp or args.only_mcp or args.only_tokenizer or args.only_scales
    # Only the scales case runs the floor (a release build of its own).
    ctxc, floor = build(args.ctxc, (not only or args.only_scales) and not args.floor)
    floor = args.floor or floor
    work = args.keep or tempfile.mkdtemp(prefix="ctxc-bench-")
    os.makedirs(work, exist_ok=True)
    lint = lsp = mcp = None
    scales, single = {}, {}
    try:
        if args.only_tokenizer:
            return measure_tokenizer(args, ctxc, work)
        if not only or args.only_lint:
            lint = measure_lint(args, ctxc, work)
        if not only or args.only_lsp:
            lsp = {label: measure_lsp(args, binary, work) for label, binary in binaries(args, ctxc)}
        if not only or args.only_mcp:
            mcp = measure_mcp(args, ctxc, work)
        if not only or args.only_scales:
            ensure_python_packages()
            scales = {n: measure_scale(n, args, ctxc, floor, work) for n in (args.agents // 2, args.agents)}
        if not only:
            single = {label: run_timed([ctxc, "check", os.path.join(ROOT, "examples/agents/zeus"), *sets], args.runs)
                      for label, sets in [("one example, cl100k_base", ["--set", "agent.model=gpt-4", "--set", "agent.context_window=128000"]),
                                          ("one example, o200k_base", [])]}
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    print(f"cores: {os.cpu_count()}; every figure below is from this one run (compare ratios, not absolute times)")
    if scales:
        print_scales(args, scales)
    for label, (seconds, peak) in single.items():
        print(f"ctxc check, {label:<26} {seconds * 1000:>6.0f} ms {peak:>5.0f} MiB (process start included)")
    if mcp:
        print_mcp(args, mcp)
    if lint:
        print_lint(lint)
    for label, figures in (lsp or {}).items():
        print_lsp(args, figures, label)
    if args.check:
        sys.exit(check_goals(args, scales, mcp, lsp))


def print_scales(args, scales: dict) -> None:
    for n, scale in scales.items():
        size = scale["size"]
        print(f"\nproject: {n} agents x 3 modes x {size['tools']} tools x {size['skills']} skills, "
              f"{size['bytes'] / 2**20:.1f} MiB of files, {scale['distinct_mib']:.1f} MiB of distinct counted text; "
              f"{scale['compared']} counts equal to the reference's (o200k_base and cl100k_base)")
        rows = scale["rows"]
        ctxc_cost = rows["ctxc cost --format json"][0]
        print(f"{'command':<43} {'median wall':>12} {'peak RSS':>10} {'vs ctxc cost':>13}")
        for label, (seconds, peak) in rows.items():
            print(f"{label:<43} {seconds * 1000:>9.0f} ms {peak:>7.0f} MiB {seconds / ctxc_cost:>12.2f}x")
        for label, _ in binaries(args, ""):
            cost, check = rows[f"ctxc cost --format json{label}"][0], rows[f"ctxc check (o200k_base){label}"][0]
            print(f"reference / ctxc cost{label}: {rows['reference (Jinja2 + tiktoken)'][0] / cost:.1f}x    "
                  f"ctxc cost / floor: {cost / rows['floor (o200k_base)'][0]:.2f}x    "
                  f"ctxc check / floor: {check / rows['floor (o200k_base)'][0]:.2f}x")
        read = rows["read floor (each file read once)"][0]
        print(f"read floor / floor: {read / rows['floor (o200k_base)'][0]:.2f}x (reading the project's files once, "
              f"before any parse or count)    ctxc cost / (floor + read floor): "
              f"{ctxc_cost / (rows['floor (o200k_base)'][0] + read):.2f}x")
        for label, stages in scale["stages"].items():
            print(f"stages of `ctxc cost --format json`{label} (CTXC_TIMINGS=1; thread time summed over workers):\n{stages}")
    small, large = scales[args.agents // 2], scales[args.agents]
    print(f"\ndoubling {args.agents // 2} -> {args.agents} agents costs:")
    for label in large["rows"]:
        print(f"  {label:<43} {large['rows'][label][0] / small['rows'][label][0]:.2f}x time")
    print()


# The goals of issue 46: (what, measured figure, goal, whether the figure must stay at most the goal).
def check_goals(args, scales: dict, mcp, lsp) -> int:
    """Prints each measured figure beside its goal; returns 1 when any misses it (0 otherwise)."""
    goals = []
    if scales:
        small, large = scales[args.agents // 2]["rows"], scales[args.agents]["rows"]
        floor = large["floor (o200k_base)"][0]
        cost, check = large["ctxc cost --format json"][0], large["ctxc check (o200k_base)"][0]
        goals += [("ctxc cost / floor", cost / floor, 1.5, True),
                  ("ctxc check / floor", check / floor, 2.0, True),
                  ("reference / ctxc cost", large["reference (Jinja2 + tiktoken)"][0] / cost, 100.0, False)]
        goals += [(f"doubling, {label}", large[label][0] / small[label][0], 2.0, True)
                  for label in large if label.startswith("ctxc") and BASELINE not in label]
        goals += [(f"peak RSS MiB, {label}", large[label][1], 200.0, True)
                  for label in large if label.startswith("ctxc") and BASELINE not in label]
    if mcp:
        goals.append((f"ms, ctxc cost of {args.mcp_tools} MCP tools", mcp["rows"]["ctxc cost"][0] * 1000, 300.0, True))
        goals += [(f"peak RSS MiB, {label} of {args.mcp_tools} MCP tools", peak, 200.0, True)
                  for label, (_, peak) in mcp["rows"].items() if BASELINE not in label]
    if lsp:
        figures = lsp[""]
        goals += [(f"ms, lsp edit {case}", seconds * 1000, 50.0, True) for case, seconds in figures["latency"].items()]
        goals.append(("RSS MiB, lsp after the edits", figures["rss_end"], 200.0, True))
    print("\ngoals (issue 46):")
    missed = 0
    for what, figure, goal, at_most in goals:
        met = figure <= goal if at_most else figure >= goal
        missed += not met
        print(f"  {'ok  ' if met else 'MISS'} {what:<52} {figure:>9.2f} {'<=' if at_most else '>='} {goal:g}")
    print(f"{len(goals) - missed} of {len(goals)} goals met" if goals else "no goal measured")
    return 1 if missed else 0


def print_mcp(args, mcp: dict) -> None:
    print(f"\none agent, one MCP tool file: {args.mcp_tools} tools, {mcp['bytes'] / 2**20:.1f} MiB")
    for label, (seconds, peak) in mcp["rows"].items():
        print(f"  {label:<30} {seconds * 1000:>9.0f} ms {peak:>7.0f} MiB")


if __name__ == "__main__":
    main()
