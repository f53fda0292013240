//go:build linux || darwin

package match

import (
	"math/rand/v2"
	"testing"

	"github.com/sitetxt/sitetxt/internal/guardpage"
)

// TestGuardedReads runs every function that reads a word at a time
// (through unsafe.go) on strings that end where a page the process may
// not read starts: a read past a string's end faults rather than reading
// what follows it.
func TestGuardedReads(t *testing.T) {
	t.Parallel()
	page := guardpage.New(t)
	rng := rand.New(rand.NewPCG(3, 4))
	const alpha = "abcdefgh/*$?%#;\xe1\x80=."
	inputs := guardpage.Inputs(rng, alpha)
	var sink uint64
	for _, in := range inputs {
		s := page.String(t, in)
		path, _ := PathOf(s)
		sink += uint64(len(path)) + uint64(PathStart(s)) + uint64(plainLen(s))
		if NeedsNormRFC(s) || NeedsNormRFCPath(s) {
			sink++
		}
		for n := 0; n <= len(s); n++ {
			if needsNormRFCPrefix(s, n) {
				sink++
			}
			sink += wordAt(s, n) + uint64(indexPathStart(s, n))
		}
		sink += uint64(len(NormRFC(nil, s, true)) + len(NormRFC(nil, s, false)) + len(NormDraft(nil, s)) + len(EscapeGoogle(s)))
	}
	t.Logf("%d inputs (%d)", len(inputs), sink)
}
