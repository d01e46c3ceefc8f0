"""Renders every template fixture with Python's Jinja2, in one process, for tests/runtimes/jinja.rs.

Usage: render.py FIXTURES_DIR. Prints a JSON object: case name -> {"text": output} or
{"error": "ExceptionType: message"}. The environment is the one ctxc's templates match
(src/templates.rs): a FileSystemLoader rooted at the case's folder (ctxc's template root),
StrictUndefined, autoescape off, keep_trailing_newline on, trim_blocks and lstrip_blocks off
(Jinja2's defaults, which ctxc keeps).
"""

import json
import os
import sys

import jinja2


def render(case_dir):
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(case_dir),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=False,
        lstrip_blocks=False,
    )
    with open(os.path.join(case_dir, "vars.json"), encoding="utf-8") as f:
        variables = json.load(f)
    try:
        return {"text": env.get_template("template.j2").render(**variables)}
    except Exception as e:  # every failure is a result to compare, not a crash
        return {"error": f"{type(e).__name__}: {e}"}


def main():
    root = sys.argv[1]
    out = {"jinja2": jinja2.__version__}
    out["cases"] = {name: render(os.path.join(root, name)) for name in sorted(os.listdir(root))}
    json.dump(out, sys.stdout, sort_keys=True)


main()
