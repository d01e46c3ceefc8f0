#!/bin/sh
# Claude Code's PostToolUse hook (hooks.json): after a Write or an Edit, check the file with ctxc.
# A file of no kind ctxc knows is nothing to lint (exit 0); findings (exit 1) go back to Claude,
# which reads a hook's stderr when it exits 2. The payload on stdin is JSON; its first
# `"file_path": "…"` is the edited file.
payload=$(cat)
file=$(printf '%s\n' "$payload" | sed -n 's/.*"file_path"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' | head -n 1)
[ -n "$file" ] || exit 0
command -v ctxc >/dev/null 2>&1 || exit 0
found=$(ctxc check --quiet --format concise "$file" 2>&1)
if [ $? -eq 1 ]; then
    printf 'ctxc check found problems in %s:\n%s\n' "$file" "$found" >&2
    exit 2
fi
exit 0
