"""ctxc benchmark: generate a large synthetic project deterministically, then time ctxc on it.

    python3 bench/bench.py                 # default scale: 100 agents x 3 modes x 300 tools x 50 skills
    python3 bench/bench.py --agents 20     # smaller
    python3 bench/bench.py --runs 7

Builds the release binary first. Prints wall time (median of --runs), peak memory and the
throughput over unique section text. Figures are for comparison within one run: the machine is
shared and noisy, so compare ratios, not absolute numbers across runs.
"""

import argparse
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


def generate(out: str, agents: int, tools: int, skills: int, seed: int = 7) -> dict:
    """Writes the project; returns its size figures. Modules, tools and skills come from shared pools,
    as in a real monorepo where agents share most of their prompt material."""
    rng = random.Random(seed)
    modules = {f"module_{k}": paragraph_text(rng, rng.randint(1024, 8192)) for k in range(24)}
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
            path = os.path.join(agent_dir, "prompts", f"{m}.md")
            with open(path, "w") as f:
                f.write(modules[m])
            total_bytes += len(modules[m])
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
{chr(10).join(f'{m} = {{ source = "prompts/{m}.md" }}' for m in own)}

[modes.agent]
prompt = "prompts/{own[0]}.md"
[modes.ask]
prompt = "prompts/{own[1]}.md"
tools = {{ cat0 = "read-only", cat1 = "read-only", cat2 = "disabled" }}
[modes.plan]
prompt = "prompts/{own[2]}.md"
tools = {{ cat0 = "read-only", cat1 = "read-only", cat2 = "read-only", cat3 = "disabled" }}

{chr(10).join(categories)}
[skills]
dirs = ["skills"]
'''
        with open(os.path.join(agent_dir, "ctxc.toml"), "w") as f:
            f.write(manifest)
    return {"agents": agents, "tools": tools, "skills": skills, "bytes": total_bytes}


def run_timed(cmd: list, runs: int) -> tuple:
    """Median wall seconds over `runs`, and the largest peak RSS (MiB) of this command's runs."""
    times, peaks = [], []
    for _ in range(runs):
        start = time.perf_counter()
        child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        times.append(time.perf_counter() - start)
        peaks.append(usage.ru_maxrss / 1024)
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            sys.exit(f"{' '.join(cmd)} failed with exit {code}")
    return statistics.median(times), max(peaks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", type=int, default=100)
    parser.add_argument("--tools", type=int, default=300)
    parser.add_argument("--skills", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", help="write the project here and keep it")
    args = parser.parse_args()

    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    binary = os.path.join(ROOT, "target", "release", "ctxc")
    out = args.keep or tempfile.mkdtemp(prefix="ctxc-bench-")
    if os.path.exists(out):
        shutil.rmtree(out)
    start = time.perf_counter()
    size = generate(out, args.agents, args.tools, args.skills)
    generated = time.perf_counter() - start

    rows = []
    for label, cmd in [
        ("ctxc check (o200k_base)", [binary, "check", out]),
        ("ctxc check (cl100k_base)", [binary, "check", out, "--set", "agent.model=gpt-4", "--set", "agent.context_window=1000000"]),
        ("ctxc cost --format json", [binary, "cost", out, "--format", "json"]),
        ("check one example, cl100k_base", [binary, "check", os.path.join(ROOT, "examples/agents/zeus"), "--set", "agent.model=gpt-4", "--set", "agent.context_window=128000"]),
        ("check one example, o200k_base", [binary, "check", os.path.join(ROOT, "examples/agents/zeus")]),
    ]:
        seconds, peak = run_timed(cmd, args.runs)
        rows.append((label, seconds, peak))

    mib = size["bytes"] / (1024 * 1024)
    print(f"project: {size['agents']} agents x 3 modes x {size['tools']} tools x {size['skills']} skills, "
          f"{mib:.1f} MiB of source files (generated in {generated:.1f} s)")
    print(f"{'command':<34} {'median wall':>12} {'peak RSS':>10} {'source MiB/s':>13}")
    for label, seconds, peak in rows:
        rate = f"{mib / seconds:,.0f}" if "example" not in label else "-"
        print(f"{label:<34} {seconds * 1000:>9.0f} ms {peak:>7.0f} MiB {rate:>13}")
    if not args.keep:
        shutil.rmtree(out)


if __name__ == "__main__":
    main()
