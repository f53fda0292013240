//go:build !unix

package sitetest

import "testing"

// RefusedPort returns a loopback TCP port nobody listens on; where no
// socket can hold it unlistened it is FreePort's, just freed.
func RefusedPort(t testing.TB) int { return FreePort(t) }
