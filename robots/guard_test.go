//go:build linux || darwin

package robots

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/sitetxt/sitetxt/grammar"

	"github.com/sitetxt/sitetxt/robots/internal/match"
)

// guarded returns a copy of s that ends where a page the process may not
// read starts: a read past its end faults.
func guarded(t *testing.T, page []byte, s string) string {
	if len(s) > len(page) {
		t.Fatalf("guarded: %d bytes, page %d", len(s), len(page))
	}
	b := page[len(page)-len(s):]
	copy(b, s)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// TestGuardedReads runs the code that reads a string a word at a time
// through unsafe pointers (load64, bytesOf) on strings of 0 to 40 bytes
// (alone or after a scheme and host), ASCII or not, that end where a page
// the process may not read starts: a read past a string's end faults
// rather than reading what follows it.
func TestGuardedReads(t *testing.T) {
	t.Parallel()
	ps := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*ps, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[ps:], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	page := mem[:ps]
	var src strings.Builder
	src.WriteString("User-agent: *\n")
	rng := rand.New(rand.NewPCG(3, 4))
	const alpha = "abcdefgh/*$?%\xe1\x80=."
	word := func(n int) string {
		b := make([]byte, rng.IntN(n+1))
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		return string(b)
	}
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&src, "Disallow: /%s\nAllow: /%s\n", word(12), word(5))
	}
	// Each profile's index with the dense pass and the child tables, and
	// without.
	var agents []*Agent
	var tuned []*match.Index
	for _, p := range Profiles {
		a := Compile(grammar.ParseString("g.txt", src.String(), grammar.Options{}), p).Agent("x")
		a.Decide("/") // builds the index
		agents = append(agents, a)
		for _, tune := range []match.Tuning{{MinScan: 1, MinTwo: 1, MinDense: 1, WideKids: 5}, {MinScan: 1, MinTwo: 1, MinDense: 512, WideKids: math.MaxUint16}} {
			tuned = append(tuned, match.BuildTuned(a.patterns(), tune))
		}
	}
	inputs := []string{"", "/", "http://", "https://", "http://e", "https://e.com", "//e.com", "http:/", "h", "\xff", "%", "%4", "$", "*"}
	for n := 0; n <= 40; n++ {
		for k := 0; k < 30; k++ {
			inputs = append(inputs, word(n), "/"+word(n), "https://e.com/"+word(n), "http://"+word(n))
		}
	}
	var sink uint64 // what each call returns, so that no read is left out
	for _, in := range inputs {
		s := guarded(t, page, in)
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
