"""Count texts with OpenAI's reference tokenizer (Python tiktoken), offline.

Reads a JSON array of strings on stdin and prints a JSON array of token counts.
Usage: python3 scripts/reference_counts.py o200k_base < texts.json
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from offline_tiktoken import get_encoding  # noqa: E402

encoding = get_encoding(sys.argv[1])
texts = json.load(sys.stdin)
print(json.dumps([len(encoding.encode_ordinary(text)) for text in texts]))
