#!/bin/sh
# Two brenner-ci builds compared on the command line, in pairs: each round
# runs a check with each (the order swapped every round) and the result is
# the median of each build's times and the median of the rounds' own
# differences, with how many rounds the second build was faster in. On a
# shared or virtual machine a check's time moves by 20-30% from one minute
# to the next, and the pairs' differences move much less than the times.
#
#   bench/paired.sh DIR ROUNDS BIN_A BIN_B
#
# DIR is a folder of thread files (gen_corpus.py's, outside any git
# repository); each BIN a brenner-ci binary (go build -o). A check is
# check DIR --jobs 2 with the four reports, as the c10k goal runs it
# ($PAIRED_JOBS sets another --jobs). Needs
# GNU time (/usr/bin/time -f). The first round after a pause may read the
# corpus from disk: give ten rounds or more.
set -eu
[ $# -eq 4 ] || { echo "usage: $0 DIR ROUNDS BIN_A BIN_B" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "$0: needs GNU time at /usr/bin/time" >&2; exit 2; }
dir=$1 rounds=$2 a=$3 b=$4 jobs=${PAIRED_JOBS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # run BIN LABEL ROUND: appends "ROUND LABEL wall cpu" to $tmp/times
	/usr/bin/time -f "$3 $2 %e %U %S" -a -o "$tmp/raw" "$1" check "$dir" --jobs "$jobs" --repo-root "$dir" \
		--fail-on none --sarif "$tmp/r.sarif" --junit "$tmp/r.xml" --markdown "$tmp/r.md" \
		--json "$tmp/r.json" >/dev/null 2>"$tmp/err" || { tail -5 "$tmp/err" >&2; exit 1; }
}
i=1
while [ "$i" -le "$rounds" ]; do
	if [ $((i % 2)) -eq 0 ]; then
		run "$a" A "$i"
		run "$b" B "$i"
	else
		run "$b" B "$i"
		run "$a" A "$i"
	fi
	i=$((i + 1))
done
# median of the numbers on standard input
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
for what in wall cpu; do
	col='$3'
	[ "$what" = cpu ] && col='$4 + $5'
	ma=$(awk "\$2 == \"A\" {print $col}" "$tmp/raw" | median)
	mb=$(awk "\$2 == \"B\" {print $col}" "$tmp/raw" | median)
	awk "{t[\$1, \$2] = $col} END {for (k in t) {split(k, p, SUBSEP); if (p[2] == \"A\") print t[p[1], \"B\"] - t[k]}}" "$tmp/raw" >"$tmp/d"
	md=$(median <"$tmp/d")
	lower=$(awk '$1 < 0' "$tmp/d" | wc -l)
	printf '%s: A median %.3f  B median %.3f  paired B-A median %+.3f  (B lower in %d of %d rounds)\n' \
		"$what" "$ma" "$mb" "$md" "$lower" "$rounds"
done
