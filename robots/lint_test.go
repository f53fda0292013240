package robots

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
)

func TestLint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		want      []string // "line:col code"
	}{
		{"clean", "User-agent: *\nDisallow: /private/\nAllow: /private/ok\nSitemap: https://example.com/s.xml\n", nil},
		{"misspellings", "useragent: *\ndisalow: /x\nsite-map: https://example.com/s.xml\n",
			[]string{"1:1 misspelled-field", "2:1 misspelled-field", "3:1 misspelled-field"}},
		{"unknown field", "User-agent: *\nDisallow: /\nFoo: bar\n", []string{"3:1 unknown-field"}},
		{"rule before agent", "Disallow: /x\nCrawl-delay: 5\nUser-agent: *\nDisallow: /y\n",
			[]string{"1:1 rule-before-agent", "2:1 rule-before-agent"}},
		{"rule outside record", "User-agent: *\nDisallow: /x\n\nDisallow: /y\n", []string{"4:1 rule-outside-record"}},
		{"pattern start", "User-agent: *\nDisallow: private\nDisallow: *.gif\n", []string{"2:11 pattern-start"}},
		{"dollar inside", "User-agent: *\nDisallow: /a$b\nDisallow: /c$\n", []string{"2:13 dollar-inside"}},
		{"repeated group", "User-agent: a\nUser-agent: A\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n\nUser-agent: a\nDisallow: /y\n",
			[]string{"2:13 repeated-group", "8:13 repeated-group"}},
		{"unreachable", "User-agent: *\nAllow:\nDisallow: /x\nDisallow: /x\nAllow: /y\nDisallow: /y\n",
			[]string{"2:1 unreachable-rule", "4:1 unreachable-rule", "6:1 unreachable-rule"}},
		{"crawl delay", "User-agent: a\nCrawl-delay: 0\nDisallow:\n\nUser-agent: b\nCrawl-delay: 3600\nDisallow:\n\nUser-agent: c\nCrawl-delay: x\nDisallow:\n",
			[]string{"2:14 crawl-delay-value", "6:14 crawl-delay-value", "10:14 crawl-delay"}},
		{"agent token", "User-agent: MJ12bot\nUser-agent: FooBot/2.1\nUser-agent: Googlebot\nUser-agent: * x\nUser-agent: one two\nUser-agent: (x)\nDisallow: /\n",
			[]string{"1:13 agent-token", "2:13 agent-token", "5:13 agent-token", "6:13 agent-token"}},
		{"control byte", "User-agent: *\nDisallow: /a\vb\nDisallow: /c\x00\n", []string{"2:13 control-byte"}},
		{"data.txt fields", "Path: /data.csv\nName: data\n", nil},
		{"noindex", "User-agent: *\nNoindex: /x\nnofollow: /y\nDisallow: /z\n", []string{"2:1 noindex", "3:1 noindex"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := Lint(grammar.ParseString("robots.txt", tt.src, grammar.Options{}))
			var got []string
			for _, d := range ds {
				got = append(got, fmt.Sprintf("%s %s", d.Range.Start, d.Code))
			}
			if strings.Join(got, ", ") != strings.Join(tt.want, ", ") {
				t.Errorf("Lint(%q) = %v, want %v", tt.src, ds, tt.want)
			}
		})
	}
}

// TestLintMessages checks the words of the findings that quote names.
func TestLintMessages(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, src, want string }{
		{"two names", "User-agent: Foo Bot\nDisallow: /\n",
			`rfc9309 reads the names "Foo" and "Bot", google the name "Foo"`},
		{"one name", "User-agent: FooBot/2.1\nDisallow: /\n", `rfc9309 and google read the name "FooBot"`},
		{"none", "User-agent: (x)\nDisallow: /\n", "no profile reads a crawler name in it"},
		{"noindex", "User-agent: *\nNoindex: /x\n", "Noindex line is ignored: no profile reads it (Google stopped on 1 September 2019)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := Lint(grammar.ParseString("robots.txt", tt.src, grammar.Options{}))
			if len(ds) != 1 || !strings.Contains(ds[0].Summary, tt.want) {
				t.Errorf("Lint(%q) = %v, want one finding saying %s", tt.src, ds, tt.want)
			}
		})
	}
}

// TestLintProfiles: a finding that matters only under some profiles says
// which (ConcernedProfiles, from the profile table); the others concern
// every profile.
func TestLintProfiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		want      []string // "line code profiles"
	}{
		{"rule outside record", "User-agent: *\nDisallow: /x\n\nDisallow: /y\n", []string{"4 rule-outside-record [draft norobots]"}},
		{"misspelling", "User-agent: *\ndisalow: /x\nsite-map: https://example.com/s.xml\n",
			[]string{"2 misspelled-field [rfc9309 draft norobots]", "3 misspelled-field [rfc9309 draft norobots]"}},
		{"second group", "User-agent: a\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\n", []string{"4 repeated-group [draft norobots]"}},
		{"repeated in its group", "User-agent: a\nUser-agent: a\nDisallow: /x\n", []string{"2 repeated-group []"}},
		{"tie", "User-agent: *\nAllow: /y\nDisallow: /y\n", []string{"3 unreachable-rule [rfc9309 google]"}},
		{"same rule twice", "User-agent: *\nDisallow: /y\nDisallow: /y\n", []string{"3 unreachable-rule []"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range Lint(grammar.ParseString("robots.txt", tt.src, grammar.Options{})) {
				got = append(got, fmt.Sprintf("%d %s %v", d.Range.Start.Line, d.Code, ConcernedProfiles(d)))
			}
			if strings.Join(got, ", ") != strings.Join(tt.want, ", ") {
				t.Errorf("Lint(%q) = %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}

// TestConcerns: a diagnostic concerns every profile unless lint says it
// concerns only some (in its Extra); the grammar's diagnostics concern
// every profile.
func TestConcerns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		extra   any
		profile Profile
		want    bool
	}{
		{nil, RFC9309, true},
		{concerns{Draft, NoRobots}, Draft, true},
		{concerns{Draft, NoRobots}, RFC9309, false},
		{concerns{}, Google, false},
		{"another reader's", Google, true},
	}
	for _, tt := range tests {
		d := &grammar.Diagnostic{Extra: tt.extra}
		if got := Concerns(d, tt.profile); got != tt.want {
			t.Errorf("Concerns(Diagnostic{Extra: %v}, %v) = %v, want %v", tt.extra, tt.profile, got, tt.want)
		}
	}
}
