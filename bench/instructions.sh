#!/bin/sh
# Instructions a check runs, counted by valgrind's callgrind: a measure of
# CPU work that a busy or throttled machine does not blur, for comparing two
# builds where wall and CPU time vary by 20% from run to run. It counts
# instructions, not cache misses or kernel time: confirm a gain in time too.
#
#   bench/instructions.sh DIR BIN [BIN ...]
#
# DIR is a folder of thread files outside any git repository (inside one,
# brenner-ci starts git, and callgrind stops at the child process's signal).
# Take a sample like the corpus you care about: the first 1,000 files of
# gen_corpus.py's 10,000 (sorted by name) are coordination threads with a
# quarter of the typical work; every tenth file is like the whole
# (ls | awk 'NR%10==0' | xargs -I{} cp {} DIR), about 40 s a run.
# Each BIN is a brenner-ci binary (go build -o), run three times with one
# processor and --jobs 1 (with two, the scheduler's spinning under valgrind
# moved one binary's count by 3%; with one, runs agree within 1%), and the
# smallest and largest counts are printed. The binaries take turns (one
# count of each, three rounds): a binary's counts can move by 3% over a few
# minutes, so counts of one build made in a row and compared with another
# build's made afterwards can show a gain that is not there (twenty-fourth
# round, docs/performance.md). Compare builds within one call, and only
# when their ranges are apart.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 DIR BIN [BIN ...]" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "$0: valgrind is not installed" >&2; exit 2; }
dir=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for try in 1 2 3; do
	i=0
	for bin in "$@"; do
		i=$((i + 1))
		# Go's asynchronous preemption signals trip callgrind's assertions;
		# valgrind 3.19 does not know RDTSCP, which the runtime's cputicks
		# uses where the processor has it.
		GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
			"$bin" check "$dir" --jobs 1 --repo-root "$dir" --fail-on none \
			--sarif "$tmp/r.sarif" --junit "$tmp/r.xml" --markdown "$tmp/r.md" --json "$tmp/r.json" \
			>/dev/null 2>"$tmp/err" || { tail -5 "$tmp/err" >&2; exit 1; }
		n=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/err")
		[ -n "$n" ] || { echo "$0: callgrind printed no count for $bin" >&2; tail -5 "$tmp/err" >&2; exit 1; }
		echo "$n" >>"$tmp/counts.$i"
	done
done
i=0
for bin in "$@"; do
	i=$((i + 1))
	echo "$bin $(sort -n "$tmp/counts.$i" | head -1)-$(sort -n "$tmp/counts.$i" | tail -1) instructions"
done
