//go:build linux || darwin

package match

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"unsafe"
)

// TestGuardedReads runs every function that reads a word at a time
// (through unsafe.go) on strings that end where a page the process may
// not read starts: a read past a string's end faults rather than reading
// what follows it.
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
	rng := rand.New(rand.NewPCG(3, 4))
	const alpha = "abcdefgh/*$?%#;\xe1\x80=."
	word := func(n int) string {
		b := make([]byte, rng.IntN(n+1))
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		return string(b)
	}
	inputs := []string{"", "/", "http://", "https://", "http://e", "https://e.com", "//e.com", "http:/", "h", "\xff", "%", "%4", "$", "*"}
	for n := 0; n <= 40; n++ {
		for k := 0; k < 30; k++ {
			inputs = append(inputs, word(n), "/"+word(n), "https://e.com/"+word(n), "http://"+word(n))
		}
	}
	var sink uint64
	for _, in := range inputs {
		b := page[len(page)-len(in):]
		copy(b, in)
		s := unsafe.String(unsafe.SliceData(b), len(b))
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
