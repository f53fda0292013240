//go:build linux || darwin

// Package guardpage gives tests strings that end where memory the process
// may not read begins, so that code reading a string a word at a time
// (through unsafe pointers) faults if it reads one byte past the string's
// end instead of silently reading what follows it.
package guardpage

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"unsafe"
)

// Page is a readable page followed by one the process may not read.
type Page struct {
	mem  []byte
	page []byte
}

// New maps a Page for the test, unmapped when it ends; it skips the test,
// saying why, where the system refuses the mapping or its protection.
func New(t testing.TB) *Page {
	t.Helper()
	ps := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*ps, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[ps:], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	return &Page{mem: mem, page: mem[:ps]}
}

// String returns a copy of s whose last byte is the page's last readable
// byte. The copy is valid until the next call.
func (p *Page) String(t testing.TB, s string) string {
	if len(s) > len(p.page) {
		t.Fatalf("guardpage: %d bytes, page %d", len(s), len(p.page))
	}
	b := p.page[len(p.page)-len(s):]
	copy(b, s)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Word returns a random string of 0 to n bytes drawn from alpha.
func Word(rng *rand.Rand, alpha string, n int) string {
	b := make([]byte, rng.IntN(n+1))
	for i := range b {
		b[i] = alpha[rng.IntN(len(alpha))]
	}
	return string(b)
}

// Inputs returns the strings the guard tests read: the short edge cases,
// then words of 0 to 40 bytes from alpha, each alone, as a path, and after
// a scheme and host.
func Inputs(rng *rand.Rand, alpha string) []string {
	in := []string{"", "/", "http://", "https://", "http://e", "https://e.com", "//e.com", "http:/", "h", "\xff", "%", "%4", "$", "*"}
	for n := 0; n <= 40; n++ {
		for k := 0; k < 30; k++ {
			in = append(in, Word(rng, alpha, n), "/"+Word(rng, alpha, n), "https://e.com/"+Word(rng, alpha, n), "http://"+Word(rng, alpha, n))
		}
	}
	return in
}
