package diag

// EditDistance is the Levenshtein distance between two short strings,
// byte by byte (ids, keys, section names).
func EditDistance(a, b string) int {
	if a == b {
		return 0
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Closest returns the candidate nearest to word, when it is at most max
// edits away ("" otherwise): the "did you mean" of an unknown id or key.
// Ties go to the earlier candidate.
func Closest(word string, candidates []string, max int) string {
	best, bestD := "", max+1
	for _, c := range candidates {
		if d := EditDistance(word, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}
