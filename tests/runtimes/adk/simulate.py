"""Replays a conversation through a real google-adk Runner with events compaction and prints, per
model call of the agent, the contents it was sent.

Usage: python simulate.py FIXTURE_DIR CONVERSATION_JSON [COUNTS_JSON]

FIXTURE_DIR/ctxc.toml gives the agent: its name, module `instruction`, and `[adk.compaction]`
(EventsCompactionConfig's fields, on the App). CONVERSATION_JSON is ctxc's conversation (`ctxc::conversation::Conversation`). COUNTS_JSON, when
given, is a list: the prompt token count the model reports for each of the agent's calls, in
order (what the provider would report; the token-threshold trigger reads it).

The model is scripted (nothing is sent anywhere): each call of the agent is answered with the
next assistant message of the conversation (its text and tool calls, with the conversation's call
ids); each summarizer call (ADK's LlmEventSummarizer, which calls the agent's model with a single
user text) with a summary of `summary_chars` characters. Each tool the conversation names answers
a call with the conversation's result for it, as `{"result": text}`.

Printed: a JSON object: `calls`, one entry per call of the agent: `messages`, the contents sent,
each part labelled by the conversation message it came from (a user or assistant message's id, a
function call by its assistant message's id, a function response by the tool message's id,
`summary` for a compaction summary; one label per run of parts of one content), and
`compactions`, how many compaction events the session held when the call was made; and
`summaries`, the number of summarizer calls.
"""

import asyncio
import copy
import json
import pathlib
import sys
import tomllib
import warnings

from google.adk.agents import LlmAgent
from google.adk.apps.app import App, EventsCompactionConfig
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools.base_tool import BaseTool
from google.genai import types

warnings.simplefilter("ignore")

SUMMARY_TAG = "[summary]"
# What the scripted model answers from (a pydantic model copies a dict field).
SCRIPT = {}


class ScriptedTool(BaseTool):
    """A tool of the conversation: answers each call with the conversation's result for it."""

    def __init__(self, name, results):
        super().__init__(name=name, description=f"The {name} tool.")
        self.results = results

    def _get_declaration(self):
        return types.FunctionDeclaration(name=self.name, description=self.description, parameters=types.Schema(type="OBJECT"))

    async def run_async(self, *, args, tool_context):
        return {"result": self.results[tool_context.function_call_id]}


class Scripted(BaseLlm):
    model: str = "gemini-2.5-flash"

    async def generate_content_async(self, llm_request, stream=False):
        s = SCRIPT
        contents = llm_request.contents
        first = contents[0].parts[0].text if contents and contents[0].parts else None
        if len(contents) == 1 and first and first.startswith("The following is a conversation history"):
            s["summaries"] += 1
            text = SUMMARY_TAG + "S" * max(0, s["summary_chars"] - len(SUMMARY_TAG))
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))
            return
        session = await s["runner"].session_service.get_session(app_name="app", user_id="u", session_id=s["session"])
        compactions = sum(1 for e in session.events if e.actions and e.actions.compaction)
        s["calls"].append({"messages": labels(copy.deepcopy(contents), s), "compactions": compactions})
        answer = s["answers"].pop(0)
        parts = []
        if answer.get("content"):
            parts.append(types.Part(text=answer["content"]))
        for call in answer.get("tool_calls", []):
            parts.append(types.Part(function_call=types.FunctionCall(id=call["id"], name=call["name"], args=call["args"])))
        counts = s["counts"]
        usage = None
        if counts is not None:
            n = len(s["calls"]) - 1
            usage = types.GenerateContentResponseUsageMetadata(prompt_token_count=counts[n] if n < len(counts) else 0)
        yield LlmResponse(content=types.Content(role="model", parts=parts), usage_metadata=usage)


def labels(contents, s):
    out = []
    for content in contents:
        mine = []
        for part in content.parts or []:
            if part.text is not None:
                label = "summary" if part.text.startswith(SUMMARY_TAG) else s["by_text"].get(part.text, "?" + part.text[:20])
            elif part.function_call:
                label = s["by_call"].get(part.function_call.id) or s["by_args"].get(json.dumps(part.function_call.args, sort_keys=True), "?call")
            elif part.function_response:
                label = s["by_result"].get(json.dumps(part.function_response.response, sort_keys=True), "?response")
            else:
                label = "?part"
            if not mine or mine[-1] != label:
                mine.append(label)
        out.extend(mine)
    return out


async def main():
    root = pathlib.Path(sys.argv[1])
    manifest = tomllib.loads((root / "ctxc.toml").read_text())
    instruction = (root / manifest["modules"]["instruction"]["source"]).read_text()
    conversation = json.load(open(sys.argv[2]))
    counts = json.load(open(sys.argv[3])) if len(sys.argv) > 3 else None
    answers, results, tools = [], {}, []
    by_text, by_call, by_args, by_result = {}, {}, {}, {}
    for turn in conversation["turns"]:
        by_text[turn["user"]["content"]] = turn["user"]["id"]
        for m in turn["steps"]:
            if m["role"] == "assistant":
                answers.append(m)
                if m["content"]:
                    by_text[m["content"]] = m["id"]
                for call in m.get("tool_calls", []):
                    by_call[call["id"]] = m["id"]
                    by_args[json.dumps(call["args"], sort_keys=True)] = m["id"]
                    if call["name"] not in tools:
                        tools.append(call["name"])
            elif m["role"] == "tool":
                results[m["tool_call_id"]] = m["content"]
                by_result[json.dumps({"result": m["content"]}, sort_keys=True)] = m["id"]
    script = SCRIPT
    script.update({
        "answers": answers,
        "calls": [],
        "summaries": 0,
        "summary_chars": conversation["summary_chars"],
        "counts": counts,
        "by_text": by_text,
        "by_call": by_call,
        "by_args": by_args,
        "by_result": by_result,
    })
    model = Scripted()
    agent = LlmAgent(name=manifest["agent"]["name"], model=model, instruction=instruction, tools=[ScriptedTool(t, results) for t in tools])
    config = EventsCompactionConfig(**manifest["adk"]["compaction"])
    runner = InMemoryRunner(app=App(name="app", root_agent=agent, events_compaction_config=config))
    session = await runner.session_service.create_session(app_name="app", user_id="u")
    script["runner"], script["session"] = runner, session.id
    for turn in conversation["turns"]:
        message = types.Content(role="user", parts=[types.Part(text=turn["user"]["content"])])
        async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
            pass
    json.dump({"calls": script["calls"], "summaries": script["summaries"]}, sys.stdout)


asyncio.run(main())
