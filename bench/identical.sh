#!/bin/sh
# Two brenner-ci builds' outputs compared byte for byte: issue 25 asks that a
# speed change leave every report as the previous release wrote it. Each
# build checks each corpus (--jobs 2, the four reports, the artifacts with
# --out), compiles it (--out, --compiled-body), and checks it in three
# shards and merges them; their reports, shard files, standard output,
# standard error and exit status must be identical, file for file.
#
#   bench/identical.sh OLD_BIN NEW_BIN
#
# The corpora, written once under $IDENT_DIR (default
# ${TMPDIR:-/tmp}/brenner-ci-identical), outside any git repository:
#   shared   ../shared/corpus, the real threads and artifacts (when present)
#   files    gen_corpus.py, 3,000 threads, 30% faulted (every fault), with artifacts
#   jsonl    the same threads as one JSON Lines file
#   archive  1,000 threads in the Agent Mail archive layout, with its extras
#   c10k     gen_corpus.py, 10,000 typical threads, 20% faulted
#   bench    internal/gen, 10,000 threads, 20% faulted (the benchmarks' corpus)
# gen_corpus.py lives in ../shared/tools: without it only "bench" runs.
# Generating them takes a minute or two; each comparison about 15 s.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 OLD_BIN NEW_BIN" >&2; exit 2; }
abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
old=$(abspath "$1")
new=$(abspath "$2")
for b in "$old" "$new"; do
	[ -x "$b" ] || { echo "$0: $b is not an executable" >&2; exit 2; }
done
cd "$(dirname "$0")/.."
root=$PWD
work=${IDENT_DIR:-${TMPDIR:-/tmp}/brenner-ci-identical}
mkdir -p "$work"
gen=$root/../shared/tools/gen_corpus.py

# corpus NAME: makes $work/NAME once (a "done" stamp marks a finished one).
corpus() {
	dir=$work/$1
	[ -f "$dir.done" ] && return 0
	rm -rf "$dir"
	case $1 in
	files) python3 "$gen" --out "$dir" --threads 3000 --seed 25 --fault-rate 0.3 --cover-faults --artifacts "$dir" --manifest "$dir.manifest.json" --quiet ;;
	jsonl) python3 "$gen" --out "$dir" --threads 3000 --seed 25 --fault-rate 0.3 --cover-faults --layout jsonl --manifest "$dir.manifest.json" --quiet ;;
	archive) python3 "$gen" --out "$dir" --threads 1000 --seed 25 --fault-rate 0.3 --cover-faults --layout archive --archive-extras --manifest "$dir.manifest.json" --quiet ;;
	c10k) python3 "$gen" --out "$dir" --threads 10000 --seed 25 --size typical --fault-rate 0.2 --manifest "$dir.manifest.json" --quiet ;;
	bench) go run ./internal/gen/cmd/gencorpus -n 10000 -out "$dir" >/dev/null ;;
	esac
	touch "$dir.done"
}

# outputs BIN DIR OUT: what BIN writes for DIR, moved to OUT. Both builds
# write under the same path ($work/run), in case a report names a path.
outputs() {
	run=$work/run
	rm -rf "$run" "$3"
	mkdir -p "$run/check" "$run/compile"
	rc=0
	(cd "$2" && "$1" check . --jobs 2 --repo-root . --sarif "$run/check/r.sarif" --junit "$run/check/r.xml" \
		--markdown "$run/check/r.md" --json "$run/check/r.json" --out "$run/check/out" >"$run/check/stdout" 2>"$run/check/stderr") || rc=$?
	echo "$rc" >"$run/check/status"
	rc=0
	(cd "$2" && "$1" compile . --jobs 2 --out "$run/compile/out" --compiled-body >"$run/compile/stdout" 2>"$run/compile/stderr") || rc=$?
	echo "$rc" >"$run/compile/status"
	# Three shards (their files) and their merge (its reports and output).
	mkdir -p "$run/shards"
	for i in 1 2 3; do
		rc=0
		(cd "$2" && "$1" check . --jobs 2 --repo-root . --shard "$i/3" --json "$run/shards/s$i.json" \
			>"$run/shards/stdout$i" 2>"$run/shards/stderr$i") || rc=$?
		echo "$rc" >"$run/shards/status$i"
	done
	rc=0
	(cd "$2" && "$1" merge --repo-root . --out "$run/shards/merged" "$run/shards/s1.json" "$run/shards/s2.json" \
		"$run/shards/s3.json" >"$run/shards/stdout" 2>"$run/shards/stderr") || rc=$?
	echo "$rc" >"$run/shards/status"
	mv "$run" "$3"
}

names="bench"
if [ -f "$gen" ]; then
	names="files jsonl archive c10k bench"
else
	echo "$gen is absent: comparing on the bench corpus only"
fi
fail=0
for name in shared $names; do
	if [ "$name" = shared ]; then
		[ -d "$root/../shared/corpus" ] || { echo "shared: ../shared/corpus is absent, not compared"; continue; }
		dir=$root/../shared/corpus
	else
		corpus "$name"
		dir=$work/$name
	fi
	outputs "$old" "$dir" "$work/out-$name-old"
	outputs "$new" "$dir" "$work/out-$name-new"
	if diff -r "$work/out-$name-old" "$work/out-$name-new" >"$work/diff-$name" 2>&1; then
		echo "$name: identical (check exit $(cat "$work/out-$name-new/check/status"), compile exit $(cat "$work/out-$name-new/compile/status"), merge of 3 shards exit $(cat "$work/out-$name-new/shards/status"))"
	else
		echo "$name: DIFFERENT ($(grep -c '^diff\|^Only' "$work/diff-$name") files; see $work/diff-$name)"
		fail=1
	fi
done
exit $fail
