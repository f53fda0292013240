//go:build linux || darwin

package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/guardpage"

	"github.com/sitetxt/sitetxt/robots/internal/match"
)

// TestGuardedReads runs the code that reads a string
// a word at a time (match.Load64, match.BytesOf) on strings of 0 to 40 bytes
// (alone or after a scheme and host), ASCII or not, that end where a page
// the process may not read starts: a read past a string's end faults
// rather than reading what follows it.
func TestGuardedReads(t *testing.T) {
	t.Parallel()
	page := guardpage.New(t)
	var src strings.Builder
	src.WriteString("User-agent: *\n")
	rng := rand.New(rand.NewPCG(3, 4))
	const alpha = "abcdefgh/*$?%\xe1\x80=."
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&src, "Disallow: /%s\nAllow: /%s\n", guardpage.Word(rng, alpha, 12), guardpage.Word(rng, alpha, 5))
	}
	// Each profile's index with the dense pass and the child tables, and
	// without.
	var agents []*Agent
	var tuned []*match.Index
	for _, p := range Profiles {
		a := Compile(grammar.ParseString("g.txt", src.String(), grammar.Options{}), p).Agent("x")
		a.Decide("/") // builds the index
		agents = append(agents, a)
		for _, tune := range []match.Tuning{{MinScan: 1, MinDense: 1}, {MinScan: 1, MinDense: 512}} {
			tuned = append(tuned, match.BuildTuned(a.patterns(), tune))
		}
	}
	inputs := guardpage.Inputs(rng, alpha)
	var sink uint64 // what each call returns, so that no read is left out
	for _, in := range inputs {
		s := page.String(t, in)
		path, slash := match.PathOf(s)
		sink += uint64(len(path)) + b2u(slash) + uint64(match.PathStart(s))
		sink += b2u(match.NeedsNormRFC(s)) + b2u(match.NeedsNormRFCPath(s))
		for _, ix := range tuned {
			k, _ := ix.LookupURL(s, true)
			sink += uint64(ix.Lookup(s)) + uint64(k)
		}
		sink += uint64(len(match.NormRFC(nil, s, true)) + len(match.NormRFC(nil, s, false)))
		sink += uint64(indexSpaceOrControl(s)) + b2u(isASCII(s)) + b2u(hasGoogleControl(s)) + b2u(checkAbsURL(s) == nil)
		for _, p := range Profiles {
			sink += uint64(extFieldOf(p, s))
		}
		for _, a := range agents {
			sink += b2u(a.Decide(s).Allowed) + b2u(a.Usage(s).Applies) + b2u(a.decidePath(s).Allowed)
		}
	}
	t.Logf("%d inputs (%d)", len(inputs), sink)
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
