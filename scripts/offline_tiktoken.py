"""Make OpenAI's reference tokenizer (Python tiktoken) work without network access.

tiktoken downloads rank files and caches them under $TIKTOKEN_CACHE_DIR/<sha1(url)>. The
tiktoken-rs crate ships the same rank files, so we seed that cache from cargo's registry copy;
tiktoken then verifies them against its own pinned hashes as usual.

    from offline_tiktoken import get_encoding
    get_encoding("o200k_base").encode_ordinary("hello")
"""

import glob
import hashlib
import os
import shutil
import tempfile

URLS = {
    "o200k_base.tiktoken": "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
    "cl100k_base.tiktoken": "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
}


def _seed_cache() -> None:
    cache = os.environ.setdefault("TIKTOKEN_CACHE_DIR", os.path.join(tempfile.gettempdir(), "ctxc-tiktoken-cache"))
    os.makedirs(cache, exist_ok=True)
    home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
    assets = sorted(glob.glob(os.path.join(home, "registry/src/*/tiktoken-rs-*/assets")))
    if not assets:
        raise SystemExit("tiktoken-rs rank files not found in the cargo registry: run `cargo build` first")
    for name, url in URLS.items():
        target = os.path.join(cache, hashlib.sha1(url.encode()).hexdigest())
        if not os.path.exists(target):
            shutil.copyfile(os.path.join(assets[-1], name), target)


_seed_cache()

from tiktoken import get_encoding  # noqa: E402  (after the cache is seeded)

__all__ = ["get_encoding"]
