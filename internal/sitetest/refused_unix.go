//go:build unix

package sitetest

import (
	"syscall"
	"testing"
)

// RefusedPort returns a loopback TCP port that refuses every connection
// for as long as the test runs: a socket is bound to it and never
// listens, so a connection gets a reset and no other server (of this
// test binary or of a package tested beside it) can be given the port.
// A port merely freed, as FreePort's, can be taken by a server another
// test starts meanwhile, which then answers what was meant to fail.
func RefusedPort(t testing.TB) int {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	return sa.(*syscall.SockaddrInet4).Port
}
