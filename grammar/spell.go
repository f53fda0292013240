package grammar

// EditDistance returns the Levenshtein distance of a and b (insertions,
// deletions and substitutions of bytes). It is meant for short words.
func EditDistance(a, b string) int {
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

// Nearest returns the word of known within max edits of w, the nearest
// first in known's order, or "": what a misspelt field name, signal name
// or label most likely meant, for a diagnostic to suggest.
func Nearest(w string, known []string, max int) string {
	best, bestD := "", max+1
	for _, k := range known {
		if d := EditDistance(w, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}
