package robots

import (
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
)

// TestReadingFixed: every fetch status but Parse decides every URL, and
// only AllowAll allows; a file to parse, or one not fetched, is decided by
// its rules.
func TestReadingFixed(t *testing.T) {
	t.Parallel()
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

// TestCompareReadings: when a fetch status decides under some profile, the
// verdicts are the statuses' and a disagreement names the HTTP status;
// when none does, the rules are compared (Compare).
func TestCompareReadings(t *testing.T) {
	t.Parallel()
	src := "User-agent: *\nDisallow: /private\n"
	rfc := Compile(grammar.ParseString("robots.txt", src, grammar.Options{}), RFC9309)
	draft := Compile(grammar.ParseString("robots.txt", src, grammar.Options{}), Draft)
	forbidden := func(st fetch.Status) *fetch.Result {
		return &fetch.Result{Status: st, HTTPStatus: 403, Reason: st.String()}
	}
	tests := []struct {
		name    string
		rs      []Reading
		url     string
		agree   bool
		allowed []bool
		why     string // a substring of Why[0] when they disagree
	}{
		{"403 read two ways", []Reading{{rfc, forbidden(fetch.AllowAll)}, {draft, forbidden(fetch.DisallowAll)}},
			"/public", false, []bool{true, false}, "access method: HTTP 403"},
		{"status agrees", []Reading{{rfc, forbidden(fetch.DisallowAll)}, {draft, forbidden(fetch.DisallowAll)}},
			"/public", true, []bool{false, false}, ""},
		{"rules decide", []Reading{{rfc, &fetch.Result{Status: fetch.Parse}}, {draft, nil}},
			"/private/x", true, []bool{false, false}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := CompareReadings(tt.rs, "bot", tt.url)
			if c.Agree != tt.agree {
				t.Errorf("CompareReadings(%q).Agree = %v, want %v (why %q)", tt.url, c.Agree, tt.agree, c.Why)
			}
			if len(c.Verdicts) != len(tt.allowed) {
				t.Fatalf("CompareReadings(%q): %d verdicts, want %d", tt.url, len(c.Verdicts), len(tt.allowed))
			}
			for i, v := range c.Verdicts {
				if v.Decision.Allowed != tt.allowed[i] {
					t.Errorf("CompareReadings(%q).Verdicts[%d] (%s) allowed = %v, want %v", tt.url, i, v.Profile, v.Decision.Allowed, tt.allowed[i])
				}
			}
			if tt.why != "" && (len(c.Why) == 0 || !strings.Contains(c.Why[0], tt.why)) {
				t.Errorf("CompareReadings(%q).Why = %q, want one containing %q", tt.url, c.Why, tt.why)
			}
		})
	}
}
