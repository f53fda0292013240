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
	defer func(n uint32, m, d int, k uint16) { minScan, minTwo, minDense, wideKids = n, m, d, k }(minScan, minTwo, minDense, wideKids)
	minScan, minTwo = 1, 1
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
	for _, dense := range []bool{true, false} {
		minDense, wideKids = 512, math.MaxUint16
		if dense {
			minDense, wideKids = 1, 5
		}
		for _, p := range Profiles {
			a := Compile(grammar.ParseString("g.txt", src.String(), grammar.Options{}), p).Agent("x")
			a.Decide("/") // builds the index
			agents = append(agents, a)
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
		path, slash := pathOf(s)
		sink += uint64(len(path)) + b2u(slash) + uint64(pathStart(s))
		sink += b2u(needsNormRFC(s)) + b2u(needsNormRFCPath(s)) + uint64(plainLen(s))
		for n := 0; n <= len(s); n++ {
			sink += b2u(needsNormRFCPrefix(s, n)) + wordAt(s, n) + uint64(indexPathStart(s, n))
		}
		sink += uint64(len(normRFC(nil, s, true)) + len(normRFC(nil, s, false)))
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
