"""Replays a conversation through the real Deep Agents and prints, per model call, what its
summarization middleware counted and what the model was sent.

Usage: python simulate.py FIXTURE_DIR CONVERSATION_JSON [FIXTURE_DIR CONVERSATION_JSON ...]

One interpreter replays every pair given, one after the other (importing LangChain and Deep Agents
costs seconds of CPU per process); each replay starts from a fresh script, agent and checkpointer.
FIXTURE_DIR/runtime.json: {"model", "provider" (or none), "system_prompt" (a file),
"max_input_tokens" (optional: the profile's window), "max_tokens" (optional: max output)}.
CONVERSATION_JSON is ctxc's conversation (`ctxc::conversation::Conversation`): turns,
each a user message and the steps the agent loop adds. A scripted model (the provider's real
model class, so its profile, max tokens and LangChain's token counting are the runtime's) answers
each call with the next assistant message; the tool `search` returns the next tool result; a
summarization call gets a summary of `summary_chars` characters. Nothing is sent anywhere.

Printed: a JSON list with one list per pair given, one entry per model call of the agent: the count the summarization
middleware decided on, the count of the request sent (after summarizing and, from 0.7, clipping
the trailing tool results of a request over the input budget), the history sent (message ids;
`summary` for a summary message; a tool result by its call id) and the offloaded tool results.
A call the runtime refuses (`ContextOverflowError`: 0.7's request still over its input budget)
is the last, marked `refused`, with nothing sent.
"""

import json
import sys
from pathlib import Path
from typing import Annotated, Any

from langchain_core.exceptions import ContextOverflowError
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import InjectedToolCallId, StructuredTool
from langgraph.checkpoint.memory import InMemorySaver

import deepagents
from deepagents.backends.filesystem import FilesystemBackend
from deepagents.middleware import summarization as summarization_module

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import prompt_file, upstream  # noqa: E402

SCRIPT: dict[str, Any] = {}


def fresh_script(summary_chars: int) -> None:
    """SCRIPT as a replay starts: nothing answered, called or counted yet."""
    SCRIPT.clear()
    SCRIPT.update({"answers": [], "calls": [], "results": {}, "summary_chars": summary_chars, "counts": [], "summaries": 0, "tools": None, "counter": None})


def scripted(base):
    """`base` (a chat model class) answering from SCRIPT."""

    class Scripted(base):
        def bind_tools(self, tools, **kwargs):
            SCRIPT["tools"] = tools
            return self

        def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
            if messages and isinstance(messages[0], SystemMessage):
                # What was sent, counted as the middleware counts (system message and tools included).
                sent = SCRIPT["counter"](list(messages), tools=SCRIPT["tools"])
                SCRIPT["calls"].append({"messages": list(messages[1:]), "counts": SCRIPT["counts"], "sent": sent, "summaries": SCRIPT["summaries"]})
                SCRIPT["counts"] = []
                message = SCRIPT["answers"].pop(0)
            else:
                SCRIPT["summaries"] += 1
                message = AIMessage(content="S" * SCRIPT["summary_chars"])
            return ChatResult(generations=[ChatGeneration(message=message)])

    return Scripted


class StandIn(BaseChatModel):
    model_name: str = ""

    @property
    def _llm_type(self) -> str:
        return "ctxc-stand-in"

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        raise NotImplementedError


def model_for(spec: dict):
    known = upstream.MODEL_CLASSES.get(spec.get("provider") or "")
    if known is None:
        model = scripted(StandIn)(model_name=spec["model"])
    else:
        module, class_name, key = known
        base = getattr(__import__(module, fromlist=[class_name]), class_name)
        options = {key: "unused"}
        if spec.get("max_tokens") is not None:
            options["max_tokens"] = spec["max_tokens"]
        model = scripted(base)(model=spec["model"], **options)
    if spec.get("max_input_tokens") is not None:
        model.profile = {**(model.profile or {}), "max_input_tokens": spec["max_input_tokens"]}
    return model


def search(query: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> str:
    return SCRIPT["results"][tool_call_id]


def label(m) -> str:
    if isinstance(m, HumanMessage) and m.additional_kwargs.get("lc_source") == "summarization":
        return "summary"
    if isinstance(m, ToolMessage):
        return m.tool_call_id
    return m.id


def content(message: dict):
    """A message's content as the transcript wrote it: its list of parts, else its text."""
    blocks = message.get("blocks")
    return blocks["parts"] if blocks else message["content"]


def record_decisions() -> None:
    """Makes the summarization middleware record its decision count: what `_should_summarize` is
    asked about, once per model call (into the current SCRIPT). Done once per process."""
    cls = summarization_module._DeepAgentsSummarizationMiddleware
    decide = cls._should_summarize

    def recording(self, messages, total_tokens):
        SCRIPT["counts"].append(total_tokens)
        SCRIPT["counter"] = self.token_counter
        return decide(self, messages, total_tokens)

    cls._should_summarize = recording


def replay(root: Path, conversation_file: Path) -> list:
    """One replay of the conversation in `conversation_file` on the fixture `root`: its calls."""
    spec = json.loads((root / "runtime.json").read_text())
    conversation = json.loads(conversation_file.read_text())
    fresh_script(conversation["summary_chars"])
    tool = StructuredTool.from_function(func=search, name="search", description="Search the web.")
    agent = deepagents.create_deep_agent(
        model_for(spec),
        system_prompt=prompt_file(root, spec["system_prompt"]),
        tools=[tool],
        backend=FilesystemBackend(root_dir=str(root), virtual_mode=True),
        checkpointer=InMemorySaver(),
    )
    # 0.4 names the history file after the thread: an id as long as the one it would generate.
    config = {"configurable": {"thread_id": "session_00000000"}, "recursion_limit": 10_000}
    for turn in conversation["turns"]:
        for step in turn["steps"]:
            if step["role"] == "assistant":
                calls = [{"name": c["name"], "args": c["args"], "id": c["id"], "type": "tool_call"} for c in step.get("tool_calls", [])]
                SCRIPT["answers"].append(AIMessage(content=content(step), id=step["id"], tool_calls=calls))
            else:
                SCRIPT["results"][step["tool_call_id"]] = step["content"]
        user = turn["user"]
        try:
            agent.invoke({"messages": [HumanMessage(content=content(user), id=user["id"])]}, config)
        except ContextOverflowError:
            # 0.7 refuses a request still over its input budget after summarizing and clipping:
            # the call is recorded as refused and the run ends there.
            SCRIPT["calls"].append({"messages": None, "counts": SCRIPT["counts"], "sent": None, "summaries": SCRIPT["summaries"]})
            break
    out = []
    for call in SCRIPT["calls"]:
        messages = call["messages"] or []
        out.append(
            {
                "count": call["counts"][0] if call["counts"] else None,
                "sent": call["sent"],
                "refused": call["messages"] is None,
                "summaries": call["summaries"],
                "messages": [label(m) for m in messages],
                "offloaded": [m.tool_call_id for m in messages if isinstance(m, ToolMessage) and str(m.content).startswith("Tool result too large")],
            }
        )
    return out


def main(args: list[str]) -> None:
    if not args or len(args) % 2:
        raise SystemExit("usage: simulate.py FIXTURE_DIR CONVERSATION_JSON [FIXTURE_DIR CONVERSATION_JSON ...]")
    record_decisions()
    pairs = zip(args[::2], args[1::2])
    json.dump([replay(Path(root).resolve(), Path(conversation)) for root, conversation in pairs], sys.stdout, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
