//go:build linux || darwin

package guardpage

import (
	"runtime/debug"
	"testing"
	"unsafe"
)

// TestReadPastEndFaults holds the page to its promise: the byte after a
// guarded string cannot be read.
func TestReadPastEndFaults(t *testing.T) {
	p := New(t)
	s := p.String(t, "abc")
	if s != "abc" {
		t.Fatalf("String(%q) = %q, want %q", "abc", s, "abc")
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	faulted := func() (f bool) {
		defer func() { f = recover() != nil }()
		past := (*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), len(s)))
		sink = *past
		return false
	}()
	if !faulted {
		t.Fatalf("reading the byte after a guarded string did not fault")
	}
}

// sink keeps the read in TestReadPastEndFaults from being optimised away.
var sink byte
