"""Replays a conversation through a real AgentScope 1.x agent (`ReActAgent` with its
`CompressionConfig`) and prints, per model call, what its compression counted and what the model
was sent: the 1.x counterpart of simulate.py.

Usage: python simulate_react.py FIXTURE_DIR CONVERSATION_JSON SUMMARIES_JSON [FIXTURE_DIR ...]

One interpreter replays every triple given, one after the other, each with its own agent, model,
toolkit and event loop.

FIXTURE_DIR/agentscope.json describes the agent: `name`, `system_prompt`, `tools` (as for
run_react_agent.py), `model` ({"name": ...}: the name `OpenAITokenCounter` is built with) and
`compression` (`enable`, `trigger_threshold`, `keep_recent`: `CompressionConfig`'s fields).
CONVERSATION_JSON is ctxc's conversation (`ctxc::conversation::Conversation`); SUMMARIES_JSON
lists the texts the model answers the compressions with, in order (the summary's first field;
the other four are empty). The agent has the real `OpenAIChatFormatter`, the real
`OpenAITokenCounter` (tiktoken, its encodings taken offline from the cargo registry by
scripts/offline_tiktoken.py) and a scripted model: each call answers with the next assistant
message of the conversation (its text, then its tool calls with the arguments as given). A tool
named in the conversation returns the conversation's result for its call. Nothing is sent anywhere.

Printed: a JSON list with one {"release": ..., "calls": [...]} per triple given, `calls` one entry
per model call of the agent: `count`, what
the compression counted before the call (the system prompt alone when nothing was older than the
kept messages); `sent`, the counter's count of the request sent; `compressions`, how many
compressions happened so far; `messages`, the history sent (a user message or an assistant's by
the conversation's id, a tool result by its call id, `summary` for the summary).
"""

import asyncio
import json
import os
import sys
from pathlib import Path

# AgentScope logs to stdout: keep stdout for the JSON alone.
OUT, sys.stdout = sys.stdout, sys.stderr

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
import offline_tiktoken  # noqa: E402,F401  (seeds tiktoken's cache before the counter loads it)

import agentscope  # noqa: E402
from agentscope.agent import ReActAgent  # noqa: E402
from agentscope.formatter import OpenAIChatFormatter  # noqa: E402
from agentscope.message import Msg, TextBlock, ToolUseBlock  # noqa: E402
from agentscope.model import ChatModelBase, ChatResponse  # noqa: E402
from agentscope.token import OpenAITokenCounter  # noqa: E402
from agentscope.tool import Toolkit, ToolResponse  # noqa: E402

FIELDS = ["task_overview", "current_state", "important_discoveries", "next_steps", "context_to_preserve"]


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read().rstrip("\r\n")


def key(args):
    return json.dumps(args, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


class RecordingCounter(OpenAITokenCounter):
    """The real counter, noting each count the compression takes."""

    def __init__(self, model_name, script):
        super().__init__(model_name)
        self.script = script

    async def count(self, messages, tools=None, **kwargs):
        n = await super().count(messages, tools, **kwargs)
        self.script["decision"] = n
        return n


class ScriptedModel(ChatModelBase):
    def __init__(self, script, counter, labels):
        super().__init__("scripted", stream=False)
        self.script, self.counter, self.labels = script, counter, labels

    async def __call__(self, messages, tools=None, tool_choice=None, structured_model=None, **kwargs):
        s = self.script
        if structured_model is not None:
            text = s["summaries"][s["compressions"]]
            s["compressions"] += 1
            return ChatResponse(content=[], metadata={name: text if i == 0 else "" for i, name in enumerate(FIELDS)})
        count = s.pop("decision", None)
        if count is None:
            system = await OpenAIChatFormatter().format([Msg("system", s["system_prompt"], "system")])
            count = await OpenAITokenCounter.count(self.counter, system)
        s["requests"].append(
            {
                "count": count,
                "sent": await OpenAITokenCounter.count(self.counter, messages),
                "compressions": s["compressions"],
                "messages": self.labels(messages),
            }
        )
        return ChatResponse(content=s["answers"].pop(0))


def make_tool(name, results):
    def tool(**kwargs):
        return ToolResponse(content=[TextBlock(type="text", text=results[(name, key(kwargs))])])

    return tool


async def run(fixture, conversation, summaries):
    spec = json.load(open(os.path.join(fixture, "agentscope.json"), encoding="utf-8"))
    os.chdir(fixture)
    results, call_owner, text_owner = {}, {}, {}
    answers = []
    for turn in conversation["turns"]:
        text_owner[turn["user"]["content"]] = turn["user"]["id"]
        calls = {}
        for step in turn["steps"]:
            if step["role"] == "assistant":
                blocks = [TextBlock(type="text", text=step["content"])] if step["content"] else []
                if step["content"]:
                    text_owner[step["content"]] = step["id"]
                for call in step.get("tool_calls", []):
                    call_owner[call["id"]] = step["id"]
                    calls[call["id"]] = call
                    blocks.append(ToolUseBlock(type="tool_use", id=call["id"], name=call["name"], input=call["args"]))
                answers.append(blocks)
            elif step["role"] == "tool":
                call = calls[step["tool_call_id"]]
                results[(call["name"], key(call["args"]))] = step["content"]

    def labels(messages):
        out = []
        for m in messages[1:]:
            if m["role"] == "tool":
                out.append(m["tool_call_id"])
            elif m.get("tool_calls"):
                out.append(call_owner[m["tool_calls"][0]["id"]])
            else:
                text = "".join(b["text"] for b in m["content"] if b.get("type") == "text")
                out.append(text_owner.get(text, "summary"))
        return out

    system_prompt = read(spec["system_prompt"]) if "system_prompt" in spec else ""
    script = {"answers": answers, "requests": [], "compressions": 0, "summaries": summaries, "system_prompt": system_prompt}
    counter = RecordingCounter(spec["model"]["name"], script)
    toolkit = Toolkit()
    for path in spec.get("tools", []):
        for entry in json.load(open(path, encoding="utf-8")):
            entry = entry if "function" in entry else {"type": "function", "function": entry}
            name = entry["function"]["name"]
            toolkit.register_tool_function(make_tool(name, results), func_name=name, json_schema=entry)
    compression = spec.get("compression")
    agent = ReActAgent(
        name=spec["name"],
        sys_prompt=system_prompt,
        model=ScriptedModel(script, counter, labels),
        formatter=OpenAIChatFormatter(),
        toolkit=toolkit,
        compression_config=ReActAgent.CompressionConfig(agent_token_counter=counter, **compression) if compression else None,
    )
    agent.set_console_output_enabled(False)
    for turn in conversation["turns"]:
        script.pop("decision", None)
        await agent.reply(Msg("user", turn["user"]["content"], "user"))
    if script["answers"]:
        raise SystemExit(f"{len(script['answers'])} scripted answers never asked for")
    return script["requests"]


def main(args):
    if not args or len(args) % 3:
        raise SystemExit("usage: simulate_react.py FIXTURE_DIR CONVERSATION_JSON SUMMARIES_JSON [FIXTURE_DIR ...]")
    replays = []
    for fixture, conversation, summaries in zip(args[::3], args[1::3], args[2::3]):
        conversation = json.loads(Path(conversation).read_text(encoding="utf-8"))
        summaries = json.loads(Path(summaries).read_text(encoding="utf-8"))
        calls = asyncio.run(run(os.path.abspath(fixture), conversation, summaries))
        replays.append({"release": agentscope.__version__, "calls": calls})
    json.dump(replays, OUT, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
