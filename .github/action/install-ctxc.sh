#!/usr/bin/env bash
# Installs ctxc for the GitHub Action (action.yml), and for anyone else who wants a pinned ctxc
# without Rust. scripts/package-check runs it against the artefacts it builds.
#
#   CTXC_VERSION   the release to install, `0.1.0` or `v0.1.0`; empty or unset: the version the
#                  `[package]` of $GITHUB_ACTION_PATH/Cargo.toml records, the action's own source
#                  at the ref it is used at (a tag, a commit SHA or a branch)
#   CTXC_ACTION_REF  the ref the action is used at (`github.action_ref`); a version tag
#                  (`v0.1.0`) must name the version that Cargo.toml records
#   CTXC_FROM      `release` (default): the release archive for this machine, its SHA-256
#                  checked against the `.sha256` file published beside it;
#                  `wheel`: `pip install` of the wheel (CTXC_WHEEL, default `ctxc-cli==VERSION`)
#   CTXC_RELEASES  where releases are, default https://github.com/$GITHUB_ACTION_REPOSITORY/releases/download
#                  (archives at $CTXC_RELEASES/vVERSION/ctxc-TARGET.tar.gz, or .zip on Windows)
#   CTXC_DEST      the folder ctxc is installed into, default $RUNNER_TEMP/ctxc (or a new temporary folder)
#
# Prints the path of the installed binary; adds its folder to $GITHUB_PATH when that is set.
set -euo pipefail

fail() {
    echo "install-ctxc: $*" >&2
    exit 1
}

# The version the action's own Cargo.toml records: a ref names no release when it is a commit
# SHA or a branch, while the files at any ref are that ref's source.
recorded_version() {
    local manifest=${GITHUB_ACTION_PATH:?install-ctxc: set CTXC_VERSION or GITHUB_ACTION_PATH}/Cargo.toml
    [[ -f $manifest ]] || fail "$manifest is missing: set CTXC_VERSION"
    local recorded
    recorded=$(sed -n '/^\[package\]/,/^\[/s/^version *= *"\([^"]*\)".*/\1/p' "$manifest" | head -1)
    [[ -n $recorded ]] || fail "$manifest records no [package] version: set CTXC_VERSION"
    local ref=${CTXC_ACTION_REF:-}
    if [[ $ref =~ ^v[0-9]+\.[0-9]+\.[0-9]+ && ${ref#v} != "$recorded" ]]; then
        fail "the action is used at $ref, but its Cargo.toml records version $recorded"
    fi
    echo "$recorded"
}

version=${CTXC_VERSION:-$(recorded_version)}
version=${version#v}
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]*)?$ ]] || fail "CTXC_VERSION is $version: not a release version"
dest=${CTXC_DEST:-${RUNNER_TEMP:-$(mktemp -d)}/ctxc}
mkdir -p "$dest"

sha256() {
    if command -v sha256sum >/dev/null; then
        sha256sum "$1" | cut -d' ' -f1
    else
        shasum -a 256 "$1" | cut -d' ' -f1
    fi
}

case ${CTXC_FROM:-release} in
release)
    case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) target=x86_64-unknown-linux-gnu ;;
    Linux-aarch64 | Linux-arm64) target=aarch64-unknown-linux-gnu ;;
    Darwin-arm64) target=aarch64-apple-darwin ;;
    Darwin-x86_64) target=x86_64-apple-darwin ;;
    MINGW*-x86_64 | MSYS*-x86_64 | CYGWIN*-x86_64) target=x86_64-pc-windows-msvc ;;
    *) fail "no release archive for $(uname -s) $(uname -m); use CTXC_FROM=wheel" ;;
    esac
    archive=ctxc-$target.tar.gz
    binary=ctxc
    if [[ $target == *windows* ]]; then
        archive=ctxc-$target.zip
        binary=ctxc.exe
    fi
    releases=${CTXC_RELEASES:-https://github.com/${GITHUB_ACTION_REPOSITORY:?install-ctxc: set CTXC_RELEASES}/releases/download}
    download=$(mktemp -d)
    trap 'rm -rf "$download"' EXIT
    curl --fail --silent --show-error --location --retry 3 --output "$download/$archive" "$releases/v$version/$archive"
    curl --fail --silent --show-error --location --retry 3 --output "$download/$archive.sha256" "$releases/v$version/$archive.sha256"
    expected=$(cut -d' ' -f1 <"$download/$archive.sha256")
    actual=$(sha256 "$download/$archive")
    [[ $expected =~ ^[0-9a-f]{64}$ ]] || fail "$archive.sha256 holds no SHA-256"
    [[ $actual == "$expected" ]] || fail "$archive: SHA-256 is $actual, the release says $expected"
    mkdir -p "$dest/bin"
    if [[ $archive == *.zip ]]; then
        unzip -q -o -j "$download/$archive" "$binary" -d "$dest/bin"
    else
        tar -xzf "$download/$archive" -C "$dest/bin" "$binary"
    fi
    installed=$dest/bin/$binary
    chmod +x "$installed"
    ;;
wheel)
    python=$(command -v python3 || command -v python) || fail "CTXC_FROM=wheel needs Python"
    "$python" -m venv "$dest/venv"
    if [[ -d $dest/venv/Scripts ]]; then bin=$dest/venv/Scripts; else bin=$dest/venv/bin; fi
    "$bin/python" -m pip install --quiet --disable-pip-version-check "${CTXC_WHEEL:-ctxc-cli==$version}"
    installed=$bin/ctxc
    [[ -f $installed ]] || installed=$bin/ctxc.exe
    [[ -f $installed ]] || fail "the wheel installed no ctxc"
    ;;
*) fail "CTXC_FROM is ${CTXC_FROM}: use release or wheel" ;;
esac

reported=$("$installed" --version | head -1)
[[ $reported == "ctxc $version" ]] || fail "installed ctxc reports $reported, not ctxc $version"
if [[ -n ${GITHUB_PATH:-} ]]; then
    dirname "$installed" >>"$GITHUB_PATH"
fi
echo "$installed"
