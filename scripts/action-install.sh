#!/usr/bin/env bash
# Installs brenner-ci for the GitHub Action (action.yml, step "install").
# Inputs come only through the environment, never through ${{ }} in a script:
#   INPUT_VERSION      a release tag (v1.2.3), "source", or empty
#   ACTION_PATH        the action's checkout ($GITHUB_ACTION_PATH)
#   ACTION_REF         the ref the action was used at (github.action_ref)
#   ACTION_REPOSITORY  owner/name of the action (github.action_repository)
#   BRENNER_CI_RELEASE_BASE  download base URL (tests); default GitHub releases
# Writes "binary=<path>" to $GITHUB_OUTPUT. Never changes the caller's Go
# toolchain or PATH for later steps.
set -euo pipefail

version="${INPUT_VERSION:-}"
if [ -z "$version" ]; then
  case "${ACTION_REF:-}" in
    v[0-9]*) version="$ACTION_REF" ;;
    *) version=source ;;
  esac
fi

tmp="${RUNNER_TEMP:?RUNNER_TEMP is not set}"

if [ "$version" = source ]; then
  if ! command -v go >/dev/null 2>&1; then
    echo "::error title=brenner-ci::version: source needs Go on the runner; add actions/setup-go before this action, or use a release tag (version: v1.2.3)."
    exit 2
  fi
  dir="$tmp/brenner-ci-source"
  mkdir -p "$dir"
  # A subshell: nothing here leaks into later steps.
  (cd "${ACTION_PATH:?ACTION_PATH is not set}" && go build -trimpath -o "$dir/brenner-ci" ./cmd/brenner-ci)
  echo "binary=$dir/brenner-ci" >> "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
  exit 0
fi

case "$version" in
  v[0-9]*) ;;
  *) echo "::error title=brenner-ci::version must be a release tag such as v1.2.3 or \"source\"."; exit 2 ;;
esac
if ! [[ "$version" =~ ^v[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]]; then
  echo "::error title=brenner-ci::version must be a release tag such as v1.2.3 or \"source\"."
  exit 2
fi

case "${RUNNER_OS:-Linux}" in
  Linux) os=linux ;; macOS) os=darwin ;; Windows) os=windows ;;
  *) echo "::error title=brenner-ci::unsupported runner OS"; exit 2 ;;
esac
case "${RUNNER_ARCH:-X64}" in
  X64) arch=amd64 ;; ARM64) arch=arm64 ;;
  *) echo "::error title=brenner-ci::unsupported runner architecture"; exit 2 ;;
esac
ext=tar.gz
exe=brenner-ci
if [ "$os" = windows ]; then ext=zip; exe=brenner-ci.exe; fi
archive="brenner-ci_${version#v}_${os}_${arch}.${ext}"

cache="${RUNNER_TOOL_CACHE:-$tmp/tool-cache}/brenner-ci/${version}/${arch}"
if [ -x "$cache/$exe" ] && [ -f "$cache/.complete" ]; then
  echo "binary=$cache/$exe" >> "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
  exit 0
fi

base="${BRENNER_CI_RELEASE_BASE:-https://github.com/${ACTION_REPOSITORY:-brenner-ci/brenner-ci}/releases/download}"
dl="$tmp/brenner-ci-download"
rm -rf "$dl"
mkdir -p "$dl"
curl -fsSL --retry 3 -o "$dl/$archive" "$base/$version/$archive"
curl -fsSL --retry 3 -o "$dl/checksums.txt" "$base/$version/checksums.txt"

want="$(awk -v f="$archive" '$2 == f || $2 == "*"f {print $1}' "$dl/checksums.txt")"
if command -v sha256sum >/dev/null 2>&1; then
  got="$(sha256sum "$dl/$archive" | awk '{print $1}')"
else
  got="$(shasum -a 256 "$dl/$archive" | awk '{print $1}')"
fi
if [ -z "$want" ] || [ "$want" != "$got" ]; then
  echo "::error title=brenner-ci::checksum mismatch for $archive: the release archive does not match checksums.txt; refusing to run it."
  exit 1
fi

mkdir -p "$cache"
if [ "$ext" = zip ]; then
  unzip -o -q "$dl/$archive" "$exe" -d "$cache"
else
  tar -xzf "$dl/$archive" -C "$cache" "$exe"
fi
chmod +x "$cache/$exe"
touch "$cache/.complete"
echo "binary=$cache/$exe" >> "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
