"""Runs Deep Agents' over-budget clip (`_clip_overflow_tail`, 0.7) on one `read_file` result and
prints the clipped content as JSON; with `--name`, prints the file name the release gives an
offloaded result of each call id (`sanitize_tool_call_id`).

Usage: python clip.py FILE_PATH CALL_ID < CONTENT
       python clip.py --name CALL_ID...

The request is the assistant message that called `read_file` on FILE_PATH and the result, as
`SummarizationMiddleware._call_with_budget` passes it (`keep` at one token). A `read_file` result
is cut in place: no backend is written.
"""

import json
import sys

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.messages.utils import count_tokens_approximately


def main(file_path: str, call_id: str) -> None:
    from deepagents.middleware._overflow_clip import _clip_overflow_tail  # 0.7 only

    content = sys.stdin.read()
    call = {"name": "read_file", "args": {"file_path": file_path}, "id": call_id, "type": "tool_call"}
    messages = [AIMessage(content="", id="a", tool_calls=[call]), ToolMessage(content=content, tool_call_id=call_id, name="read_file", id=call_id)]
    clipped, replaced = _clip_overflow_tail(
        messages,
        None,
        keep=("tokens", 1),
        max_input_tokens=None,
        token_counter=count_tokens_approximately,
        large_tool_results_prefix="/large_tool_results",
    )
    assert [m.id for m in replaced] == [call_id], "the result is replaced in the state"
    json.dump(clipped[-1].content, sys.stdout)


if __name__ == "__main__":
    if sys.argv[1] == "--name":
        from deepagents.backends.utils import sanitize_tool_call_id

        json.dump([sanitize_tool_call_id(i) for i in sys.argv[2:]], sys.stdout)
    else:
        main(sys.argv[1], sys.argv[2])
