"""Renders requests with the real openai-harmony (tests/runtimes/harmony.rs).

Reads {"cases": [{"instructions": str | null, "tools": [{"name", "description", "parameters"}]}]}
on stdin. For each case it renders the fixed part of a gpt-oss request as ctxc costs it: the
system message with harmony's defaults, a developer message with the instructions and the
function tools, and the generation prompt; once with the tools and once without. Prints, per
case, the decoded text with the tools, the token counts of both renderings, and the
instructions' own token count. Needs TIKTOKEN_ENCODINGS_BASE (a folder with o200k_base.tiktoken).
"""

import json
import sys

from openai_harmony import (
    Conversation,
    DeveloperContent,
    HarmonyEncodingName,
    Message,
    Role,
    SystemContent,
    ToolDescription,
    load_harmony_encoding,
)

encoding = load_harmony_encoding(HarmonyEncodingName.HARMONY_GPT_OSS)


def render(instructions, tools):
    developer = DeveloperContent.new()
    if instructions is not None:
        developer = developer.with_instructions(instructions)
    if tools:
        developer = developer.with_function_tools(
            [ToolDescription.new(t["name"], t["description"], parameters=t["parameters"]) for t in tools]
        )
    conversation = Conversation.from_messages(
        [
            Message.from_role_and_content(Role.SYSTEM, SystemContent.new()),
            Message.from_role_and_content(Role.DEVELOPER, developer),
        ]
    )
    return encoding.render_conversation_for_completion(conversation, Role.ASSISTANT)


results = []
for case in json.load(sys.stdin)["cases"]:
    with_tools = render(case["instructions"], case["tools"])
    without_tools = render(case["instructions"], [])
    instructions = case["instructions"] or ""
    results.append(
        {
            "text": encoding.decode_utf8(with_tools),
            "total": len(with_tools),
            "without_tools": len(without_tools),
            "prompt": len(encoding.encode(instructions, allowed_special=set(), disallowed_special=())),
        }
    )
json.dump({"results": results}, sys.stdout)
