#!/usr/bin/env bash
# Fuzzes ctxc's parsers and git extraction (the cargo-fuzz crate in fuzz/), one target after
# another, and prints per target the executions, executions per second, time, and the crashes,
# timeouts and out-of-memory runs found (their inputs land in fuzz/artifacts/TARGET/).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]    SECONDS per target (default 300); default: every target
#
# Exit status: 0 when no target found anything, 1 otherwise. Not part of .ci/run: see docs/fuzzing.md.
set -euo pipefail

cd "$(dirname "$0")/.."
seconds=${1:-300}
shift || true
case $seconds in '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS] [TARGET...]" >&2; exit 2 ;; esac

# cargo-fuzz asks for its sanitizers with nightly-only flags (-Zsanitizer=...). Only a stable
# toolchain is installed here and none can be fetched, so RUSTC_BOOTSTRAP=1 lets stable rustc
# accept them. The default SANITIZER=none needs no such flag (AddressSanitizer finds memory errors,
# which ctxc, without unsafe code, cannot make); SANITIZER=address does. Only the fuzz build sees this.
export RUSTC_BOOTSTRAP=1
sanitizer=${SANITIZER:-none}

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is not installed: installing it (cargo install cargo-fuzz --locked)" >&2
    cargo install cargo-fuzz --locked
fi

mapfile -t all < <(cd fuzz && cargo fuzz list)
if [ $# -gt 0 ]; then targets=("$@"); else targets=("${all[@]}"); fi
for t in "${targets[@]}"; do
    [[ " ${all[*]} " == *" $t "* ]] || { echo "unknown target \`$t\` (targets: ${all[*]})" >&2; exit 2; }
done

# Seed corpus: the repository's own inputs of each kind, named by content like libFuzzer's.
add() { # TARGET FILE...
    mkdir -p "fuzz/corpus/$1"
    local target=$1 f
    shift
    for f in "$@"; do cp "$f" "fuzz/corpus/$target/$(sha1sum <"$f" | cut -c1-40)"; done
}
inputs() { find examples tests/fixtures fuzz/seeds -type f "$@" -print0 | sort -z; }
# A project as a git_tree input (see fuzz/src/git_tree.rs): `f` PATH newline CONTENT, NUL between files.
encode_project() {
    local first=1 rel
    while IFS= read -r -d '' rel; do
        [ $first = 1 ] || printf '\0'
        first=0
        printf 'f%s\n' "${rel#./}"
        cat "$1/$rel"
    done < <(cd "$1" && find . -type f -print0 | sort -z)
}
seed() {
    local t=$1 files=() d
    case $t in
        manifest_toml) mapfile -d '' files < <(inputs -name '*.toml') ;;
        manifest_yaml) mapfile -d '' files < <(inputs \( -name '*.yaml' -o -name '*.yml' \)) ;;
        skill_frontmatter) mapfile -d '' files < <(inputs -name '*.md' -path '*skills*') ;;
        tool_json) mapfile -d '' files < <(inputs -name '*.json' ! -name 'memories.json') ;;
        template) mapfile -d '' files < <(inputs -name '*.j2') ;;
        lock) mapfile -d '' files < <(inputs -path 'fuzz/seeds/lock/*') ;;
        tokenizer_file) mapfile -d '' files < <(inputs -path 'fuzz/seeds/tokenizer_file/*') ;;
        # Texts: the hostile ones of fuzz/seeds/count_text/ (parts separated by NUL bytes), prompts.
        count_text) mapfile -d '' files < <(inputs \( -path 'fuzz/seeds/count_text/*' -o -name '*.md' \) -size -8k) ;;
        git_tree)
            mkdir -p "fuzz/corpus/$t"
            for d in tests/fixtures/render/* tests/fixtures/errors/*; do
                encode_project "$d" >"fuzz/corpus/$t/project-${d##*/}"
            done
            printf 'xbin/run.sh\n#!/bin/sh\n\0lAGENTS.md\nREADME.md\0fREADME.md\nhello\n\0gvendor/lib\nx' >"fuzz/corpus/$t/kinds"
            # The extraction escape of issue 12 (a link, then a folder of the same name), once
            # harmless and once writing beside the checkout, for the fuzzer to vary.
            printf 'ldocs\n.\0fdocs/a.md\nx' >"fuzz/corpus/$t/link-then-folder"
            printf 'ldocs\n..\0fdocs/a.md\nx' >"fuzz/corpus/$t/link-then-folder-up" ;;
        check_tree)
            # Each file of the shared corpus and of the rule fixtures as the file of its kind in the
            # tree (fuzz/src/check_tree.rs: a first byte picking the path, never NUL).
            mkdir -p "fuzz/corpus/$t"
            local n=0 k f
            while IFS= read -r -d '' f; do
                case $f in
                    */SKILL.md) k=0 ;;
                    */references/*) k=1 ;;
                    *.py | *.sh) k=2 ;;
                    */AGENTS.md | */AGENTS.override.md) k=3 ;;
                    */CLAUDE.md) k=4 ;;
                    */GEMINI.md) k=5 ;;
                    */.claude/agents/*) k=6 ;;
                    */.claude/commands/*) k=7 ;;
                    */.claude/settings*.json) k=8 ;;
                    */plugin.json) k=9 ;;
                    */marketplace.json) k=10 ;;
                    */.mcp.json | */mcp.json) k=11 ;;
                    *.mdc) k=12 ;;
                    */.cursorrules) k=13 ;;
                    */copilot-instructions.md) k=14 ;;
                    *.instructions.md) k=15 ;;
                    *.prompt.md) k=16 ;;
                    *.agent.md | *.chatmode.md) k=17 ;;
                    */.gemini/settings.json) k=18 ;;
                    */microagents/*) k=19 ;;
                    */.codex/config.toml) k=21 ;;
                    */.kiro/steering/*) k=22 ;;
                    */gemini-extension.json) k=23 ;;
                    */.clinerules/*) k=24 ;;
                    */.cursor/hooks.json) k=25 ;;
                    */.opencode/agent/* | */.opencode/agents/*) k=26 ;;
                    */.opencode/command/* | */.opencode/commands/*) k=27 ;;
                    */.windsurf/rules/*) k=28 ;;
                    */opencode.json | */opencode.jsonc) k=29 ;;
                    */.windsurf/workflows/*) k=30 ;;
                    */.windsurf/hooks.json) k=31 ;;
                    */.codex/agents/*.toml) k=32 ;;
                    */.kiro/hooks/*.json) k=33 ;;
                    *.json) k=$((8 + n % 4)) ;;
                    *) k=$((n % 34)) ;;
                esac
                n=$((n + 1))
                { printf "\\$(printf %03o $((k + 34)))"; cat "$f"; } >"fuzz/corpus/$t/seed-$n"
            done < <(find "${CORPUS:-../shared/corpus}" tests/fixtures/rules -type f \( -name '*.md' -o -name '*.mdc' -o -name '*.json' -o -name '*.jsonc' -o -name '.cursorrules' -o -name '*.py' -o -path '*/.codex/config.toml' -o -path '*/.codex/agents/*.toml' \) -size -8k -print0 | sort -z) ;;
    esac
    [ ${#files[@]} -eq 0 ] || add "$t" "${files[@]}"
}

# FUZZ_SKIP_BUILD=1 fuzzes the targets as last built (a second script beside a running one, whose
# build would otherwise wait for the first one's lock and rebuild after any source change).
if [ "${FUZZ_SKIP_BUILD:-0}" = 1 ]; then
    echo "FUZZ_SKIP_BUILD=1: fuzzing the targets as last built" >&2
else
    echo "building the fuzz targets (optimised, with debug assertions and overflow checks, sanitizer: $sanitizer)" >&2
    (cd fuzz && nice -n 19 cargo fuzz build --sanitizer "$sanitizer" --debug-assertions)
fi
bin_dir=fuzz/target/x86_64-unknown-linux-gnu/release

# Logs stay in fuzz/runs/DATE/ (ignored by git); the scratch folders the targets write go at the end.
run_dir=fuzz/runs/$(date +%Y%m%d-%H%M%S)
mkdir -p "$run_dir"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/ctxc-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
chmod 755 "$scratch" # for git_tree's user, below
results=()
found_any=0
for t in "${targets[@]}"; do
    [ -x "$bin_dir/$t" ] || { echo "$bin_dir/$t was not built" >&2; exit 1; }
    seed "$t"
    mkdir -p "fuzz/artifacts/$t"
    before=$(find "fuzz/artifacts/$t" -type f | wc -l)
    # A template may make 16 MiB (src/templates.rs): far less than 512 MB means a broken bound.
    rss_limit=2048
    [ "$t" = template ] && rss_limit=512
    # The timeout is libFuzzer's, in wall-clock seconds: on a machine busy with builds a niced
    # unit can starve past it (FUZZ_TIMEOUT raises it; rerun an artifact alone to tell).
    flags=(-timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=$rss_limit -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t/")
    [ -f "fuzz/dicts/$t.dict" ] && flags+=(-dict="fuzz/dicts/$t.dict")
    tmp=$scratch/$t
    mkdir -p "$tmp"
    runner=()
    # git_tree lets ctxc write a hostile commit's files; a link to an absolute path could point
    # anywhere, so as root the target runs as `nobody`, who can write only its own folders.
    if [ "$t" = git_tree ] && [ "$(id -u)" = 0 ]; then
        chown -R nobody "fuzz/corpus/$t" "fuzz/artifacts/$t" "$tmp"
        runner=(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all env HOME="$tmp")
    fi
    echo "fuzzing $t for ${seconds}s (logs: $run_dir/$t.*.log)" >&2
    # One libFuzzer process at a time (what -jobs=1 runs, minus its extra log file; fork mode
    # restarts its jobs, and ran a third fewer executions in 30 s here). It stops at the first crash,
    # timeout or OOM and is started again for the time left, so each of those is counted.
    execs=0 crashes=0 timeouts=0 ooms=0 runs=0 peak_rss=0
    start=$(date +%s)
    while left=$((seconds - ($(date +%s) - start))) && [ "$left" -gt 0 ] && [ "$runs" -lt 20 ]; do
        runs=$((runs + 1))
        log=$run_dir/$t.$runs.log
        TMPDIR=$tmp nice -n 19 "${runner[@]}" "$bin_dir/$t" "${flags[@]}" -max_total_time="$left" "fuzz/corpus/$t" >"$log" 2>&1 || true
        # The final stats, or else the last status line (`#EXECS …`) when the run was cut short.
        n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
        [ -n "$n" ] || n=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
        execs=$((execs + ${n:-0}))
        rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
        [ "${rss:-0}" -le "$peak_rss" ] || peak_rss=$rss
        summary=$(sed -n 's/^SUMMARY: libFuzzer: //p' "$log" | tail -1)
        case $summary in
            '') ;;
            timeout*) timeouts=$((timeouts + 1)) ;;
            out-of-memory*) ooms=$((ooms + 1)) ;;
            *) crashes=$((crashes + 1)) ;;
        esac
        # An input of the corpus itself fails: starting again would stop at it again.
        if [ -n "$summary" ] && ! grep -q INITED "$log"; then
            echo "$t: an input of fuzz/corpus/$t fails ($summary), see $log" >&2
            break
        fi
    done
    elapsed=$(($(date +%s) - start))
    artifacts=$(($(find "fuzz/artifacts/$t" -type f | wc -l) - before))
    [ "$crashes$timeouts$ooms$artifacts" = 0000 ] || found_any=1
    results+=("$(printf '%-18s %12s %9s %7ss %8s %9s %5s %10s %9s' "$t" "$execs" "$((execs / (elapsed > 0 ? elapsed : 1)))" "$elapsed" \
        "$crashes" "$timeouts" "$ooms" "$artifacts" "$peak_rss")")
done

printf '\n%-18s %12s %9s %8s %8s %9s %5s %10s %9s\n' target executions exec/s time crashes timeouts ooms artifacts peak_rss_mb
printf '%s\n' "${results[@]}"
echo "artifacts: fuzz/artifacts/TARGET/; logs: $run_dir/"
exit "$found_any"
