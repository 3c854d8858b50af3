#!/usr/bin/env bash
# Runs brenner-ci check for the GitHub Action (action.yml, step "run").
# Inputs come only through the environment (never through ${{ }} in a
# script), so no input can run a command:
#   BRENNER_CI      the binary (from the install step)
#   INPUT_PATHS     paths separated by newlines or spaces; quote a path that holds spaces
#   INPUT_FAIL_ON   error|warning|note|none, or empty (the configuration decides)
#   INPUT_CONFIG, INPUT_OUT, INPUT_CATEGORY, INPUT_BASELINE, INPUT_NEW_FROM_REV
#   INPUT_OLD_FINDINGS  notice|hide|keep, or empty (notice)
#   IS_FORK_PR      "true" on a pull request from a fork
# brenner-ci prints annotations, appends its markdown report to
# $GITHUB_STEP_SUMMARY and writes the step outputs to $GITHUB_OUTPUT itself;
# this script adds exit-code.
set -uo pipefail

bin="${BRENNER_CI:?BRENNER_CI is not set}"
out="${INPUT_OUT:-brenner-ci-reports}"

# Split the paths like a shell would split words, honouring quotes, but
# without evaluating anything: xargs only prints each word.
paths=()
words="$(mktemp)"
if ! printf '%s\n' "${INPUT_PATHS:-}" | xargs printf '%s\0' > "$words"; then
  echo "::error title=brenner-ci::the paths input has an unbalanced quote"
  exit 2
fi
while IFS= read -r -d '' p; do
  [ -n "$p" ] && paths+=("$p")
done < "$words"
rm -f "$words"
if [ "${#paths[@]}" -eq 0 ]; then
  paths=(.)
fi

args=(check --format github --out "$out" --category "${INPUT_CATEGORY:-brenner-ci/}" --github-output "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}")
[ -n "${INPUT_FAIL_ON:-}" ] && args+=(--fail-on "$INPUT_FAIL_ON")
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
[ -n "${INPUT_BASELINE:-}" ] && args+=(--baseline "$INPUT_BASELINE")
[ -n "${INPUT_NEW_FROM_REV:-}" ] && args+=(--new-from-rev "$INPUT_NEW_FROM_REV")
[ -n "${INPUT_OLD_FINDINGS:-}" ] && args+=(--old-findings "$INPUT_OLD_FINDINGS")

"$bin" "${args[@]}" -- "${paths[@]}"
code=$?

if [ "${IS_FORK_PR:-}" = true ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    echo
    echo "> **SARIF not uploaded to code scanning:** this pull request comes from a fork, so its workflow token is read-only (no \`security-events: write\`). The annotations and this summary show every finding; the reports are in \`$out\`."
  } >> "$GITHUB_STEP_SUMMARY"
fi
echo "exit-code=$code" >> "$GITHUB_OUTPUT"
exit "$code"
