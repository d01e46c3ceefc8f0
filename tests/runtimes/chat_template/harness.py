"""Renders requests with the real transformers `apply_chat_template` (tests/runtimes/chat_template.rs).

Reads {"cases": [{"model": DIR, "messages": [...], "tools": [...] | null}]} on stdin. Each DIR is
a tokenizer folder as transformers loads it (tokenizer.json, tokenizer_config.json and maybe a
chat_template.jinja); each is loaded once with AutoTokenizer.from_pretrained, offline. Prints
{"results": [{"text": str} | {"error": "ExceptionType: message"}]}, one per case, from
`apply_chat_template(messages, tools=tools, add_generation_prompt=True, tokenize=False)`.
`strftime_now` is given the fixed date ctxc renders with (26 Jul 2024, midnight), so that the
comparison does not depend on the day it runs.
"""

import datetime as real_datetime
import json
import os
import sys

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

from transformers import AutoTokenizer  # noqa: E402
from transformers.utils import chat_template_utils  # noqa: E402


class FixedDatetime(real_datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return cls(2024, 7, 26, 0, 0, 0)


chat_template_utils.datetime = FixedDatetime

tokenizers = {}
results = []
for case in json.load(sys.stdin)["cases"]:
    model = case["model"]
    if model not in tokenizers:
        tokenizers[model] = AutoTokenizer.from_pretrained(model)
    try:
        text = tokenizers[model].apply_chat_template(
            case["messages"], tools=case["tools"], add_generation_prompt=True, tokenize=False
        )
        results.append({"text": text})
    except Exception as e:  # a template's own exception is a result to compare
        results.append({"error": f"{type(e).__name__}: {e}"})
json.dump({"results": results}, sys.stdout, ensure_ascii=False)
