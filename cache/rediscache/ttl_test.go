package rediscache_test

import (
	"testing"

	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/fetch"
)

// TestDefaultTTL: DefaultTTL, written out so that cache/ imports nothing
// of the module above it, is the longest a robots.txt is usable under
// RFC 9309 as fetch reads it: its lifetime, then its stale period.
func TestDefaultTTL(t *testing.T) {
	if want := fetch.RFCLifetime + fetch.DefaultMaxStale; rediscache.DefaultTTL != want {
		t.Errorf("DefaultTTL = %v, want fetch.RFCLifetime + fetch.DefaultMaxStale = %v", rediscache.DefaultTTL, want)
	}
}
