"""The job ctxc does, written the way a team would without it: Jinja2 renders every agent's prompt
files for every mode, and tiktoken counts every section, the whole prompt, each tool schema and the
tool array. This is the Python reference of the benchmark (bench/bench.py); it covers the manifest
features the generated project uses (module, mode_prompt, tool_list, skills and time steps; tool
categories with read-only lists; per-mode tool access; skill folders) and nothing more.

    python3 bench/reference.py PROJECT [--model gpt-4] [--texts FILE] > counts.json

Prints, per agent and mode, the counts ctxc reports in `ctxc cost --format json`. With --texts,
also writes every distinct text that was counted as a unit (sections and tool schemas), which the
tokenizer floor (benches/floor.rs) counts once each.
"""

import argparse
import datetime
import json
import os
import sys
import tomllib

import jinja2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
from offline_tiktoken import get_encoding  # noqa: E402

ENCODINGS = {"gpt-4o": "o200k_base", "gpt-4": "cl100k_base"}
NOW = datetime.datetime(2026, 1, 1, 0, 0, tzinfo=datetime.timezone.utc)  # ctxc's default scenario time
SKILLS_INTRO = "## Skills\n\nLoad a skill's full instructions when a task matches its description.\n\n"


def compact(value) -> str:
    """JSON as serde_json writes it: no spaces, keys in the file's order, non-ASCII kept."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def trim_line_breaks(text: str) -> str:
    return text.rstrip("\r\n")


def read(path: str) -> str:
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def frontmatter(text: str) -> dict:
    """name and description of a SKILL.md (the generated skills use plain one-line values)."""
    fields = {}
    for line in text.split("\n---", 1)[0].splitlines()[1:]:
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    return fields


def load_tools(agent_dir: str, manifest: dict) -> list:
    tools = []
    for category, spec in manifest.get("tools", {}).items():
        read_only = set(spec.get("read_only", []))
        for file in spec.get("files", []):
            for entry in json.loads(read(os.path.join(agent_dir, file))):
                fn = entry["function"]
                tools.append({"name": fn["name"], "description": fn.get("description", ""),
                              "parameters": fn.get("parameters", {"type": "object", "properties": {}}),
                              "category": category, "writes": fn["name"] not in read_only})
    return tools


def allowed(tool: dict, access) -> bool:
    if access is None or access == "all":
        return True
    if access == "disabled":
        return False
    if access == "read-only":
        return not tool["writes"]
    return tool["name"] in access


def render_agent(agent_dir: str, model_override: str | None, env: jinja2.Environment):
    manifest = tomllib.loads(read(os.path.join(agent_dir, "ctxc.toml")))
    agent = manifest["agent"]
    model = model_override or agent.get("model")
    tools = load_tools(agent_dir, manifest)
    skills = []
    for skills_dir in manifest.get("skills", {}).get("dirs", []):
        for folder in sorted(os.listdir(os.path.join(agent_dir, skills_dir))):
            fields = frontmatter(read(os.path.join(agent_dir, skills_dir, folder, "SKILL.md")))
            skills.append(f"- {fields['name']}: {fields['description']}")
    modules = {key: spec["source"] for key, spec in manifest.get("modules", {}).items()}

    def text_of(path: str, context: dict) -> str:
        text = read(os.path.join(agent_dir, path))
        if path.endswith(".j2"):
            text = env.from_string(text).render(context)
        return trim_line_breaks(text)

    for mode, spec in manifest["modes"].items():
        access = spec.get("tools", {})
        enabled = [t for t in tools if allowed(t, access.get(t["category"]))]
        blocks = [f"### {t['name']}\n{t['description'].rstrip()}\nParameters: {compact(t['parameters'])}" for t in enabled]
        tools_description = "\n\n".join(blocks)
        context = {"agent": {"name": agent["name"], "description": agent.get("description"), "model": model},
                   "mode": mode, "scenario": "default", "flags": {}, "vars": {},
                   "tools": [{"name": t["name"], "category": t["category"]} for t in enabled],
                   "tools_description": tools_description}
        sections = []
        for step in manifest["pipeline"]["steps"]:
            kind = step["kind"]
            if kind == "module":
                text = text_of(modules[step["id"]], context)
            elif kind == "mode_prompt":
                text = text_of(spec["prompt"], context) if "prompt" in spec else ""
            elif kind == "tool_list":
                text = f"## Tools\n\n{tools_description}" if enabled else ""
            elif kind == "skills":
                text = SKILLS_INTRO + "\n".join(skills) if skills else ""
            elif kind == "time":
                human = f"{NOW:%A}, {NOW.day} {NOW:%B %Y, %H:%M} (UTC+00:00)"
                text = f"## Current time\n\nIt is {human} in the UTC timezone."
            else:
                sys.exit(f"{agent_dir}: step kind `{kind}` is not covered by the reference")
            if text:
                sections.append((step["id"], text))
        schemas = [compact({"type": "function", "function": {"name": t["name"], "description": t["description"],
                                                              "parameters": t["parameters"]}}) for t in enabled]
        yield agent["name"], mode, model, sections, [(t["name"], s) for t, s in zip(enabled, schemas)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("project")
    parser.add_argument("--model", help="use this model for every agent (as `--set agent.model=...`)")
    parser.add_argument("--texts", help="write the distinct counted texts here, for the tokenizer floor")
    args = parser.parse_args()

    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=True)
    encoders = {}
    counts = {}
    distinct = {}
    for name in sorted(os.listdir(args.project)):
        agent_dir = os.path.join(args.project, name)
        if not os.path.isfile(os.path.join(agent_dir, "ctxc.toml")):
            continue
        for agent, mode, model, sections, schemas in render_agent(agent_dir, args.model, env):
            encoding = ENCODINGS[model]
            if encoding not in encoders:
                encoders[encoding] = get_encoding(encoding)
            enc = encoders[encoding]
            count = lambda text: len(enc.encode_ordinary(text))  # noqa: E731
            prompt = "\n\n".join(text for _, text in sections)
            array = "[" + ",".join(s for _, s in schemas) + "]" if schemas else ""
            counts[f"{agent}/{mode}"] = {
                "sections": [[sid, count(text)] for sid, text in sections],
                "system_prompt": count(prompt),
                "tools": [[tool, count(schema)] for tool, schema in schemas],
                "tool_total": count(array),
            }
            if args.texts:
                for text in [t for _, t in sections] + [s for _, s in schemas]:
                    distinct.setdefault(encoding, {})[text] = None
    if args.texts:
        with open(args.texts, "w", encoding="utf-8") as f:
            json.dump({enc: list(texts) for enc, texts in distinct.items()}, f, ensure_ascii=False)
    json.dump(counts, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
