"""The build backend of the repository's root package, `ctxc-pre-commit` (pyproject.toml).

pre-commit installs a `language: python` hook repository with `pip install .` at its root. For
ctxc's hooks (.pre-commit-hooks.yaml) that package is this one: a wheel of metadata alone, built
with the standard library, whose one requirement is the prebuilt `ctxc-cli` wheel of the version
the repository's Cargo.toml records. pip then installs `ctxc-cli` from PyPI (or wherever pip is
pointed): no Rust toolchain and no compiling. python/ctxc-cli/pyproject.toml builds `ctxc-cli`.
"""

import base64
import hashlib
import os
import re
import zipfile

NAME = "ctxc_pre_commit"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _version():
    with open(os.path.join(ROOT, "Cargo.toml"), encoding="utf-8") as manifest:
        text = manifest.read()
    package = re.search(r"^\[package\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    version = package and re.search(r'^version\s*=\s*"([^"]+)"', package.group(1), re.M)
    if not version:
        raise RuntimeError("Cargo.toml records no [package] version")
    return version.group(1)


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "{},sha256={},{}\n".format(path, digest, len(data))


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version()
    dist_info = "{}-{}.dist-info".format(NAME, version)
    files = {
        dist_info + "/METADATA": (
            "Metadata-Version: 2.1\n"
            "Name: ctxc-pre-commit\n"
            "Version: {0}\n"
            "Summary: ctxc's pre-commit hooks: the prebuilt ctxc-cli wheel of the same version.\n"
            "License: MIT OR Apache-2.0\n"
            "Requires-Python: >=3.8\n"
            "Requires-Dist: ctxc-cli=={0}\n"
        ).format(version),
        dist_info + "/WHEEL": "Wheel-Version: 1.0\nGenerator: ctxc_hooks_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    files = {path: text.encode() for path, text in files.items()}
    record = "".join(_record_line(path, data) for path, data in files.items()) + dist_info + "/RECORD,,\n"
    files[dist_info + "/RECORD"] = record.encode()
    wheel_name = "{}-{}-py3-none-any.whl".format(NAME, version)
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w") as wheel:
        for path, data in files.items():
            # A fixed date: the same source, the same bytes.
            wheel.writestr(zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0)), data)
    return wheel_name
