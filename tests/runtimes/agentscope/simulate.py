"""Replays a conversation through a real AgentScope agent and prints, per model call, what its
context policy counted and what the model was sent.

Usage: python simulate.py FIXTURE_DIR CONVERSATION_JSON [FIXTURE_DIR CONVERSATION_JSON ...]

One interpreter replays every pair given, one after the other (importing AgentScope costs seconds
of CPU per process), each with its own agent, model, toolkit and event loop.

FIXTURE_DIR/agentscope.json describes the agent as for run_agent.py (system_prompt, tools,
skills, workspace, model, context_config) plus `context_buffer_ratio` (set where the release keeps
it: InjectionConfig before 2.0.8, ContextConfig from then on). CONVERSATION_JSON is ctxc's
conversation (`ctxc::conversation::Conversation`). The model is the named model class
(its `context_size` default and AgentScope's own `count_tokens`) answering from a script: each
call with the next assistant message of the conversation (a tool call's input is its arguments as
compact JSON), each compression with a summary whose first field has `summary_chars` characters.
A tool named in the conversation returns the conversation's result for its call. Nothing is sent
anywhere.

Printed: a JSON list with one {"release", "calls"} object per pair given; `calls` has one entry
per model call: `count`, the count the compression decided on;
`sent`, the count of the request sent; `compressions`, how many compressions have happened so
far; `messages`, the history sent (a user message by its id, `summary`, `hint` for an injected
runtime-state hint, an assistant's blocks by the id of the conversation message they came from, a
tool result by its call id; consecutive blocks of one message once); `truncated`, the tool
results sent with AgentScope's truncation marker.
"""

import asyncio
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_agent  # noqa: E402  (keeps stdout for the JSON: run_agent.OUT)

import agentscope  # noqa: E402
from agentscope.agent import Agent, ContextConfig, InjectionConfig  # noqa: E402
from agentscope.message import HintBlock, TextBlock, ToolCallBlock, ToolResultBlock, UserMsg  # noqa: E402
from agentscope.model import ChatResponse  # noqa: E402
from agentscope.model._model_response import StructuredResponse  # noqa: E402
from agentscope.tool import Toolkit, ToolChunk  # noqa: E402
from agentscope.workspace import LocalWorkspace  # noqa: E402

MARKER = "<<<TRUNCATED>>>"


class ScriptedTool(run_agent.JsonTool):
    """A tool of the fixture that answers each call with the conversation's result for it."""

    def __init__(self, function, results):
        super().__init__(function)
        self.results = results

    async def call(self, **kwargs):
        key = json.dumps(kwargs, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        return ToolChunk(content=[TextBlock(text=self.results[(self.name, key)])])


def build_model(spec, script):
    cls = getattr(agentscope.model, spec["class"])
    kwargs = {"credential": run_agent.credential_for(spec["class"]), "model": spec.get("name", "scripted"), "stream": False}
    if "context_size" in spec:
        kwargs["context_size"] = spec["context_size"]
    model = cls(**kwargs)

    async def call_api(model_name, messages, tools=None, tool_choice=None, **kwargs):
        # The context's messages change after the call: read them now.
        script["requests"].append(
            {
                "sent": await model.count_tokens(messages, tools),
                "compressions": script["compressions"],
                "messages": labels(messages, script["user_ids"], script["call_owner"]),
                "truncated": truncated(messages),
            }
        )
        return ChatResponse(content=script["answers"].pop(0), is_last=True)

    async def structured(messages, structured_model, **kwargs):
        script["compressions"] += 1
        fields = ["task_overview", "current_state", "important_discoveries", "next_steps", "context_to_preserve"]
        content = {name: "S" * script["summary_chars"] if i == 0 else "" for i, name in enumerate(fields)}
        return StructuredResponse(content=content)

    model._call_api = call_api
    model.generate_structured_output = structured
    return model


def blocks_of(step):
    """The content a model answering with `step` (an assistant message) returns."""
    blocks = []
    if step["content"]:
        blocks.append(TextBlock(text=step["content"], id=step["id"]))
    for call in step.get("tool_calls", []):
        args = json.dumps(call["args"], ensure_ascii=False, separators=(",", ":"))
        blocks.append(ToolCallBlock(id=call["id"], name=call["name"], input=args))
    return blocks


def labels(messages, user_ids, call_owner):
    out = []
    for msg in messages[1:]:
        if msg.role == "user":
            found = [msg.id if msg.id in user_ids else "summary"]
        else:
            found = []
            for block in msg.get_content_blocks():
                if isinstance(block, HintBlock):
                    found.append("hint")
                elif isinstance(block, TextBlock):
                    found.append(block.id)
                elif isinstance(block, ToolCallBlock):
                    found.append(call_owner[block.id])
                elif isinstance(block, ToolResultBlock):
                    found.append(block.id)
        for label in found:
            if not out or out[-1] != label or label == "hint":
                out.append(label)
    return out


def truncated(messages):
    out = []
    for msg in messages[1:]:
        for block in msg.get_content_blocks() if msg.role == "assistant" else []:
            if isinstance(block, ToolResultBlock):
                text = "".join(b.text for b in block.output if isinstance(b, TextBlock)) if isinstance(block.output, list) else block.output
                if MARKER in text:
                    out.append(block.id)
    return out


async def run(fixture, conversation):
    spec = json.load(open(os.path.join(fixture, "agentscope.json"), encoding="utf-8"))
    os.chdir(fixture)
    results, call_owner = {}, {}
    user_ids = {turn["user"]["id"] for turn in conversation["turns"]}
    script = {"answers": [], "requests": [], "compressions": 0, "summary_chars": conversation["summary_chars"], "user_ids": user_ids, "call_owner": call_owner}
    for turn in conversation["turns"]:
        for step in turn["steps"]:
            if step["role"] == "assistant":
                script["answers"].append(blocks_of(step))
                for call in step.get("tool_calls", []):
                    call_owner[call["id"]] = step["id"]
                    key = json.dumps(call["args"], ensure_ascii=False, separators=(",", ":"), sort_keys=True)
                    results[(call["name"], key)] = None
                    call["_key"] = key
    for turn in conversation["turns"]:
        calls = {c["id"]: c for s in turn["steps"] for c in s.get("tool_calls", [])}
        for step in turn["steps"]:
            if step["role"] == "tool":
                call = calls[step["tool_call_id"]]
                results[(call["name"], call["_key"])] = step["content"]
    tools = []
    for path in spec.get("tools", []):
        for entry in json.load(open(path, encoding="utf-8")):
            tools.append(ScriptedTool(entry.get("function", entry), results))
    toolkit = Toolkit(tools=tools, skills_or_loaders=spec.get("skills", []))
    offloader = LocalWorkspace(workdir=spec["workspace"]["workdir"]) if "workspace" in spec else None
    model = build_model(spec["model"], script)
    buffer = spec.get("context_buffer_ratio")
    context_kwargs = dict(spec.get("context_config", {}))
    injection_kwargs = {}
    if buffer is not None:
        if "context_buffer_ratio" in ContextConfig.model_fields:
            context_kwargs["context_buffer_ratio"] = buffer
        else:
            injection_kwargs["context_buffer_ratio"] = buffer
    if "inject_runtime_state" in spec:
        injection_kwargs["inject_runtime_state"] = spec["inject_runtime_state"]
    agent = Agent(
        name="scripted",
        system_prompt=run_agent.read(spec["system_prompt"]) if "system_prompt" in spec else "",
        model=model,
        toolkit=toolkit,
        offloader=offloader,
        context_config=ContextConfig(**context_kwargs),
        injection_config=InjectionConfig(**injection_kwargs),
    )

    # The count the compression decides on: what `_compress_context_impl` counts first.
    decisions = []
    compress = agent.compress_context

    async def recording(*args, **kwargs):
        decisions.append(await model.count_tokens(**await agent._prepare_model_input()))
        return await compress(*args, **kwargs)

    agent.compress_context = recording
    for turn in conversation["turns"]:
        user = turn["user"]
        await agent.reply(UserMsg(name="user", content=user["content"], id=user["id"]))
    if len(decisions) != len(script["requests"]):
        raise SystemExit(f"{len(decisions)} compression checks for {len(script['requests'])} model calls")
    return [{"count": count, **request} for count, request in zip(decisions, script["requests"])]


def main(args):
    if not args or len(args) % 2:
        raise SystemExit("usage: simulate.py FIXTURE_DIR CONVERSATION_JSON [FIXTURE_DIR CONVERSATION_JSON ...]")
    replays = []
    for fixture, conversation in zip(args[::2], args[1::2]):
        conversation = json.loads(Path(conversation).read_text(encoding="utf-8"))
        replays.append({"release": agentscope.__version__, "calls": asyncio.run(run(os.path.abspath(fixture), conversation))})
    json.dump(replays, run_agent.OUT, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
