package robots

import (
	"testing"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
)

// TestReadingFixed: every fetch status but Parse decides every URL, and
// only AllowAll allows; a file to parse, or one not fetched, is decided by
// its rules.
func TestReadingFixed(t *testing.T) {
	pol := Compile(grammar.ParseString("robots.txt", "User-agent: *\nDisallow: /private\n", grammar.Options{}), RFC9309)
	tests := []struct {
		fetched   *fetch.Result
		fixed     bool
		allowedTo string // "/private/x" verdict
		want      bool
	}{
		{nil, false, "/private/x", false},
		{&fetch.Result{Status: fetch.Parse}, false, "/private/x", false},
		{&fetch.Result{Status: fetch.Parse}, false, "/public", true},
		{&fetch.Result{Status: fetch.AllowAll, Reason: "unavailable"}, true, "/private/x", true},
		{&fetch.Result{Status: fetch.DisallowAll, Reason: "unreachable"}, true, "/public", false},
		{&fetch.Result{Status: fetch.Defer, Reason: "later"}, true, "/public", false},
		{&fetch.Result{Status: fetch.Error, Reason: "no"}, true, "/public", false},
	}
	for _, tt := range tests {
		r := Reading{Policy: pol, Fetched: tt.fetched}
		d, fixed := r.Fixed()
		if fixed != tt.fixed {
			t.Errorf("Reading{%v}.Fixed() = %v, want %v", tt.fetched, fixed, tt.fixed)
		}
		if fixed && d.Reason != tt.fetched.Reason {
			t.Errorf("Reading{%v}.Fixed().Reason = %q, want %q", tt.fetched, d.Reason, tt.fetched.Reason)
		}
		if got := r.Allowed("bot", tt.allowedTo); got != tt.want {
			t.Errorf("Reading{%v}.Allowed(bot, %q) = %v, want %v", tt.fetched, tt.allowedTo, got, tt.want)
		}
	}
}
