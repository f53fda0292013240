package sitetest

import (
	"net"
	"testing"
)

// Raw starts a loopback TCP server that is not (or not only) HTTP: serve
// gets each connection it accepts, in a goroutine of its own, and owns
// it. It returns the server's host:port; the listener closes when the
// test ends. The tests of what a client does with a banner, a reset or
// a peer that never answers, and the fake Redis servers, listen here.
func Raw(t testing.TB, serve func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go serve(c)
		}
	}()
	return ln.Addr().String()
}

// FreePort returns a loopback TCP port nobody listens on now: a port just
// freed, for a server a test starts there. A connection the test wants
// refused goes to RefusedPort, which nothing else can take.
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
