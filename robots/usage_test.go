package robots

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/aipref"
	"github.com/sitetxt/sitetxt/grammar"
)

// attachExample is the example robots.txt of draft-ietf-aipref-attach-05
// section 3.4 (figure "Example robots.txt file"), as the draft writes it:
// two of its Content-Usage lines have no path.
const attachExample = `User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
`

// attachIntroExample is the robots.txt of draft-ietf-aipref-attach-05
// section 1.2 ("Examples").
const attachIntroExample = `User-Agent: *
Allow: /
Content-Usage: train-ai=n
`

// TestUsageAttachIntroExample: section 1.2's file states train-ai=n for
// every path, and lint has nothing to say about it.
func TestUsageAttachIntroExample(t *testing.T) {
	t.Parallel()
	f := grammar.ParseString("robots.txt", attachIntroExample, grammar.Options{})
	for _, p := range Profiles {
		a := Compile(f, p).Agent("AnyBot")
		for _, path := range []string{"/", "/a/b?c"} {
			if got := a.Usage(path).Usage.String(); got != "train-ai=n" {
				t.Errorf("%s: Usage(%q, %q) = %q, want %q", p, "AnyBot", path, got, "train-ai=n")
			}
		}
	}
	if ds := Lint(f); len(ds) != 0 {
		t.Errorf("Lint(section 1.2 example) = %v, want nothing", ds)
	}
}

// TestLintAttachExample: the drafts' own files are valid.
func TestLintAttachExample(t *testing.T) {
	t.Parallel()
	if ds := Lint(grammar.ParseString("robots.txt", attachExample, grammar.Options{})); len(ds) != 0 {
		t.Errorf("Lint(section 3.4 example) = %v, want nothing", ds)
	}
}

// TestUsageAttachExample is the draft's table "Sample of usage preferences
// for different paths", plus the text about ExampleBot.
func TestUsageAttachExample(t *testing.T) {
	t.Parallel()
	tests := []struct {
		agent, path string
		crawl       bool
		want        string // Usage.String(); "N/A" when no preference applies
	}{
		{"*", "/test", true, "train-ai=n"},
		{"*", "/never/test", false, "N/A"},
		{"*", "/ai-ok/test", true, "train-ai=y"},
		{"OtherBot", "/ai-ok/test", true, "train-ai=y"},
		{"ExampleBot", "/test", true, "train-ai=y"},
		{"ExampleBot", "/never/test", true, "train-ai=y"},
	}
	// Not Draft: its first-match reading lets "Allow: /" decide every path.
	for _, p := range []Profile{RFC9309, Google} {
		pol := Compile(grammar.ParseString("robots.txt", attachExample, grammar.Options{}), p)
		for _, tt := range tests {
			t.Run(p.String()+"/"+tt.agent+tt.path, func(t *testing.T) {
				a := pol.Agent(tt.agent)
				if got := a.Allowed(tt.path); got != tt.crawl {
					t.Errorf("Allowed(%q, %q) = %v, want %v", tt.agent, tt.path, got, tt.crawl)
				}
				u := a.Usage(tt.path)
				got := "N/A"
				if u.Applies {
					got = u.Usage.String()
				}
				if got != tt.want {
					t.Errorf("Usage(%q, %q) = %q, want %q", tt.agent, tt.path, got, tt.want)
				}
			})
		}
	}
}

// TestExplainUsageOrder checks the order Explain lists a crawler's
// Content-Usage rules in: longest path first, the path-less ones last,
// after "/" (they rank below any line naming a path, UsageRule.rank).
func TestExplainUsageOrder(t *testing.T) {
	t.Parallel()
	src := "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: / train-ai=y\nContent-Usage: /longer/ search=y\nContent-Usage: search=n\n"
	want := []string{"/longer/", "/", "", ""}
	for _, p := range Profiles {
		t.Run(p.String(), func(t *testing.T) {
			var got []string
			for _, r := range compileString(src, p).Explain("bot").UsageRules {
				got = append(got, r.Path)
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("Explain(%q).UsageRules paths = %q, want %q", "bot", got, want)
			}
		})
	}
}

func TestUsageRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, agent, url string
		profile                Profile
		applies                bool
		usage, signal          string
	}{
		{"identical paths combine most restrictively",
			"User-agent: *\nContent-Usage: /a train-ai=y, search=y\nContent-Usage: /a train-ai=n\n", "*", "/a/b", RFC9309, true, "train-ai=n, search=y", ""},
		{"longest path wins", "User-agent: *\nContent-Usage: / train-ai=n\nContent-Usage: /open/ train-ai=y\n", "*", "/open/x", RFC9309, true, "train-ai=y", ""},
		{"no rule matches", "User-agent: *\nContent-Usage: /a train-ai=n\n", "*", "/b", RFC9309, true, "", ""},
		{"percent-encoding as Allow/Disallow", "User-agent: *\nContent-Usage: /%7Ejoe/ train-ai=n\n", "*", "http://x/~joe/page", RFC9309, true, "train-ai=n", ""},
		{"wildcard path", "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\n", "*", "/a/b.pdf", RFC9309, true, "train-ai=n", ""},
		{"disallowed has none", "User-agent: *\nDisallow: /private\nContent-Usage: / train-ai=n\n", "*", "/private/x", RFC9309, false, "", ""},
		{"bad dictionary is unknown", "User-agent: *\nContent-Usage: / train-ai=n,,\n", "*", "/", RFC9309, true, "", ""},
		{"comment is not part of the value", "User-agent: *\nContent-Usage: / train-ai=n # no\n", "*", "/", RFC9309, true, "train-ai=n", ""},
		{"group rule: next agent starts a group (rfc9309)",
			"User-agent: a\nContent-Usage: / train-ai=n\nUser-agent: b\nDisallow: /\n", "a", "/x", RFC9309, true, "train-ai=n", ""},
		{"not a group rule under google",
			"User-agent: a\nContent-Usage: / train-ai=n\nUser-agent: b\nDisallow: /\n", "a", "/x", Google, false, "", ""},
		{"not a group rule under draft",
			"User-agent: a\nContent-Usage: / train-ai=n\nUser-agent: b\nDisallow: /\n", "a", "/x", Draft, false, "", ""},
		{"not a group rule under norobots",
			"User-agent: a\nContent-Usage: / train-ai=n\nUser-agent: b\nDisallow: /\n", "a", "/x", NoRobots, false, "", ""},
		{"specific group only", "User-agent: *\nContent-Usage: / train-ai=n\n\nUser-agent: a\nAllow: /\n", "a", "/x", RFC9309, true, "", ""},
		{"content-signal", "User-agent: *\nContent-Signal: search=yes, ai-train=no, ai-input=no\nAllow: /\n", "*", "/x", RFC9309, true, "", "search=yes, ai-input=no, ai-train=no"},
		{"content-signal with a path is not read", "User-agent: *\nContent-Signal: ai-train=no\nContent-Signal: /free/ ai-train=yes\n", "*", "/free/x", RFC9309, true, "", "ai-train=no"},
		{"content-signal lines combine most restrictively", "User-agent: *\nContent-Signal: ai-train=yes\nContent-Signal: ai-train=no, search=yes\n", "*", "/x", RFC9309, true, "", "search=yes, ai-train=no"},
		{"content-signal case and unknown values", "User-agent: *\ncontent-signal: Search=YES, ai-train=maybe\n", "*", "/", RFC9309, true, "", "search=yes"},
		{"path-less rule covers the group", "User-agent: *\nContent-Usage: train-ai=n\n", "*", "/any/thing", RFC9309, true, "train-ai=n", ""},
		{"a path beats the path-less rule", "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: / train-ai=y\n", "*", "/x", RFC9309, true, "train-ai=y", ""},
		{"path-less rules combine", "User-agent: *\nContent-Usage: train-ai=y\nContent-Usage: train-ai=n, search=y\n", "*", "/x", RFC9309, true, "train-ai=n, search=y", ""},
		{"a path and no preference states nothing", "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /open/\n", "*", "/open/x", RFC9309, true, "", ""},
		{"no path and a tab", "User-agent: *\nContent-Usage:\ttrain-ai=n\n", "*", "/", RFC9309, true, "train-ai=n", ""},
		{"vocab-08 categories", "User-agent: *\nContent-Usage: ai-use=n, search=y\n", "*", "/", RFC9309, true, "ai-use=n, search=y", ""},
		{"cloudflare's 2026 line in a group", "User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /private\n", "*", "/x", RFC9309, true, "", "search=yes, ai-train=no, use=reference"},
		{"in the * group only", "User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /private\n", "GPTBot", "/x", RFC9309, true, "", ""},
		{"before any group: the whole origin", "Content-Signal: ai-train=no, use=reference\n\nUser-agent: GPTBot\nDisallow: /private\n", "GPTBot", "/x", RFC9309, true, "", "ai-train=no, use=reference"},
		{"before any group, under draft", "Content-Signal: ai-train=no\n\nUser-agent: GPTBot\nDisallow: /private\n", "GPTBot", "/x", Draft, true, "", "ai-train=no"},
		{"origin and group combine", "Content-Signal: ai-train=yes, use=full\nUser-agent: *\nContent-Signal: ai-train=no\n", "*", "/x", Google, true, "", "ai-train=no, use=full"},
		{"between records: the origin's under draft", "User-agent: a\nDisallow: /p\n\nContent-Signal: ai-train=no\n\nUser-agent: b\nDisallow: /q\n", "b", "/x", Draft, true, "", "ai-train=no"},
		{"after a blank line: still the group's under rfc9309", "User-agent: a\nDisallow: /p\n\nContent-Signal: ai-train=no\n\nUser-agent: b\nDisallow: /q\n", "b", "/x", RFC9309, true, "", ""},
		{"after a blank line: still the group's under google", "User-agent: a\nDisallow: /p\n\nContent-Signal: ai-train=no\n\nUser-agent: b\nDisallow: /q\n", "b", "/x", Google, true, "", ""},
		{"between records: the origin's under norobots", "User-agent: a\nDisallow: /p\n\nContent-Signal: ai-train=no\n\nUser-agent: b\nDisallow: /q\n", "b", "/x", NoRobots, true, "", "ai-train=no"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pol := Compile(grammar.ParseString("r", tt.file, grammar.Options{}), tt.profile)
			u := pol.Agent(tt.agent).Usage(tt.url)
			if u.Applies != tt.applies || u.Usage.String() != tt.usage || u.Signal.String() != tt.signal {
				t.Errorf("Usage(%q, %q) = {applies %v, usage %q, signal %q}, want {%v, %q, %q}",
					tt.agent, tt.url, u.Applies, u.Usage, u.Signal, tt.applies, tt.usage, tt.signal)
			}
		})
	}
}

func TestLicenses(t *testing.T) {
	t.Parallel()
	f := grammar.ParseString("r", "License: https://example.com/license.xml\nUser-agent: *\nLicense: https://example.com/b.xml\nLicense: /rel\nAllow: /\n", grammar.Options{})
	pol := Compile(f, RFC9309)
	var got []string
	for _, l := range pol.Licenses() {
		got = append(got, l.URL)
	}
	if want := "https://example.com/license.xml https://example.com/b.xml"; strings.Join(got, " ") != want {
		t.Errorf("Licenses() = %v, want %s", got, want)
	}
	if ds := pol.Diagnostics(); len(ds) != 1 || ds[0].Code != "license-url" || ds[0].Range.Start.Line != 4 {
		t.Errorf("Diagnostics() = %v, want one license-url at line 4", ds)
	}
}

func TestLLMPolicies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     []string // URL@line
		diags    []string // code@line
	}{
		{"before any group", "LLM-Policy: https://example.com/llms.txt\nUser-agent: *\nAllow: /\n", []string{"https://example.com/llms.txt@1"}, nil},
		{"in a group, still file-wide", "User-agent: A\nLLM-Policy: https://example.com/a.txt\nUser-agent: B\nDisallow: /\n", []string{"https://example.com/a.txt@2"}, nil},
		{"any case, repeated", "llm-policy: https://example.com/a.txt\nLLM-POLICY: https://example.com/b.txt\n", []string{"https://example.com/a.txt@1", "https://example.com/b.txt@2"}, nil},
		{"relative", "LLM-Policy: /llms.txt\n", nil, []string{"llm-policy-url@1"}},
		{"empty", "LLM-Policy:\n", nil, []string{"llm-policy-url@1"}},
		{"not the field", "LLM-Policies: https://example.com/a.txt\nVisit-time: 0600-0845\n", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, p := range Profiles {
				pol := Compile(grammar.ParseString("r", tt.in, grammar.Options{}), p)
				var got, diags []string
				for _, l := range pol.LLMPolicies() {
					got = append(got, fmt.Sprintf("%s@%d", l.URL, l.Line.Pos.Line))
				}
				for _, d := range pol.Diagnostics() {
					diags = append(diags, fmt.Sprintf("%s@%d", d.Code, d.Range.Start.Line))
				}
				if !slices.Equal(got, tt.want) || !slices.Equal(diags, tt.diags) {
					t.Errorf("%s: LLMPolicies(%q) = %q, diagnostics %q; want %q, %q", p, tt.in, got, diags, tt.want, tt.diags)
				}
			}
		})
	}
}

// TestLintUsageNotInherited checks the words of usage-not-inherited: what
// the group lacks, where the "*" group says it, and how to write it.
func TestLintUsageNotInherited(t *testing.T) {
	t.Parallel()
	file := "User-agent: *\nContent-Signal: ai-train=no\nContent-Usage: train-ai=n\nContent-Usage: /a train-ai=y\n\nUser-agent: A\nAllow: /\n"
	var got string
	for _, d := range Lint(grammar.ParseString("r", file, grammar.Options{})) {
		if d.Code == "usage-not-inherited" {
			got = d.Summary
		}
	}
	want := `the group of User-agent "A" has no Content-Signal or Content-Usage line: its crawlers read only their own group (RFC 9309 section 2.2.1), not the "*" group's Content-Signal at line 2 and Content-Usage at lines 3, 4; repeat those lines in this group, or move them before the first User-agent line to speak for every crawler`
	if got != want {
		t.Errorf("usage-not-inherited says\n%s\nwant\n%s", got, want)
	}
}

func TestLintUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file string
		want       string // "line:col code" joined by "; "
	}{
		{"clean", "User-agent: *\nAllow: /\nContent-Usage: / train-ai=n, search=y\nContent-Signal: search=yes, ai-train=no\nLicense: https://x.example/l.xml\n", ""},
		{"unknown label", "User-agent: *\nContent-Usage: / train=n\n", "2:18 usage-label"},
		{"bad value", "User-agent: *\nContent-Usage: / train-ai=no\n", "2:18 usage-value"},
		{"upper case", "User-agent: *\nContent-Usage: / Train-AI=n\n", "2:18 usage-syntax"},
		{"not a dictionary", "User-agent: *\nContent-Usage: / train-ai=n;;\n", "2:29 usage-syntax"},
		{"path without slash", "User-agent: *\nContent-Usage: * train-ai=n\n", "2:16 usage-path"},
		{"no path", "User-agent: *\nContent-Usage: train-ai=n\n", ""},
		{"path, no preference", "User-agent: *\nContent-Usage: /a\n", "2:16 usage-empty"},
		{"vocab-08's ai-use", "User-agent: *\nContent-Usage: train-ai=n, ai-use=n\n", ""},
		{"legacy label", "User-agent: *\nContent-Usage: train-ai=n, train-genai=n\n", "2:28 usage-legacy"},
		{"cloudflare 2026", "User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n", ""},
		{"signal before any group", "Content-Signal: search=yes, ai-input=yes, ai-train=no, use=reference\nUser-agent: *\nAllow: /\n", ""},
		{"use= value", "User-agent: *\nContent-Signal: use=forever\n", "2:17 usage-value"},
		{"syntax error at its column", "User-agent: *\nContent-Usage: / train-ai=n search=y\n", "2:29 usage-syntax"},
		{"upper case at its column", "User-agent: *\nContent-Usage: / train-AI=n\n", "2:24 usage-syntax"},
		{"signal with a path", "User-agent: *\nContent-Signal: /a ai-train=no\n", "2:17 usage-path"},
		{"misspelt signal", "User-agent: *\nContent-Signal: search=yes, ai_train=no\n", "2:29 usage-label"},
		{"disallowed path", "User-agent: *\nDisallow: /private/\nContent-Usage: /private/x train-ai=n\n", "3:16 usage-disallowed"},
		{"before any agent", "Content-Usage: / train-ai=n\nUser-agent: *\nAllow: /\n", "1:1 usage-outside-group"},
		{"signal label and value", "User-agent: *\nContent-Signal: search=yes, ai-train=nope, ai-foo=no\n", "2:29 usage-value; 2:44 usage-label"},
		{"license not absolute", "License: /license.xml\n", "1:10 license-url"},
		{"llm-policy not absolute", "LLM-Policy: llms.txt\n", "1:13 llm-policy-url"},
		// A named group does not inherit the "*" group's usage lines (RFC 9309 2.2.1).
		{"named group without the signal", "User-agent: *\nContent-Signal: ai-train=no\nAllow: /\n\nUser-agent: PerplexityBot\nAllow: /\n", "5:1 usage-not-inherited"},
		{"named group without content-usage", "User-agent: *\nContent-Usage: train-ai=n\n\nUser-agent: A\nUser-agent: B\nDisallow: /x\n", "4:1 usage-not-inherited"},
		{"named group with its own", "User-agent: *\nContent-Signal: ai-train=no\nAllow: /\n\nUser-agent: A\nContent-Signal: ai-train=yes\n", ""},
		{"named group disallowed everything", "User-agent: *\nContent-Signal: ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n", ""},
		{"disallowed but an allow", "User-agent: *\nContent-Signal: ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\nAllow: /open/\n", "5:1 usage-not-inherited"},
		{"merged group carries it", "User-agent: *\nContent-Signal: ai-train=no\nAllow: /\n\nUser-agent: A\nAllow: /\n\nUser-agent: A\nContent-Signal: ai-train=no\n", ""},
		{"signal for the origin", "Content-Signal: ai-train=no\nUser-agent: *\nAllow: /\n\nUser-agent: A\nAllow: /\n", ""},
		{"no usage in the star group", "User-agent: A\nContent-Signal: ai-train=no\n\nUser-agent: B\nAllow: /\n", ""},
		{"a star group that names it too", "User-agent: *\nContent-Signal: ai-train=no\n\nUser-agent: A\nAllow: /\n", ""},
		{"both missing", "User-agent: *\nContent-Signal: ai-train=no\nContent-Usage: train-ai=n\nAllow: /\n\nUser-agent: A\nAllow: /\n", "6:1 usage-not-inherited"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range Lint(grammar.ParseString("r", tt.file, grammar.Options{})) {
				if strings.HasPrefix(d.Code, "usage-") || d.Code == "content-usage" || d.Code == "content-signal" || d.Code == "license-url" || d.Code == "llm-policy-url" {
					got = append(got, d.Range.Start.String()+" "+d.Code)
				}
			}
			if g := strings.Join(got, "; "); g != tt.want {
				t.Errorf("Lint(%q) = %q, want %q", tt.file, g, tt.want)
			}
		})
	}
}

func FuzzUsage(f *testing.F) {
	f.Add(attachExample, "/ai-ok/x")
	f.Add("User-agent: *\nContent-Signal: /a search=yes\nContent-Usage: /%41 train-ai=n;x=1\n", "/A")
	f.Fuzz(func(t *testing.T, file, url string) {
		gf := grammar.ParseString("f", file, grammar.Options{})
		for _, p := range Profiles {
			pol := Compile(gf, p)
			a := pol.Agent("*")
			u := a.Usage(url)
			if u.Applies != a.Allowed(url) {
				t.Fatalf("Usage(%q).Applies = %v, Allowed = %v", url, u.Applies, !u.Applies)
			}
			if !u.Applies && (!u.Usage.IsZero() || len(u.Rules) > 0) {
				t.Fatalf("disallowed URL %q has a preference", url)
			}
		}
		Lint(gf)
	})
}

// FuzzUsageMatchesLikeRules checks that a Content-Usage rule matches
// exactly the URLs an Allow rule with the same path matches, under every
// profile: the same pattern compilation and the same URL normalisation.
func FuzzUsageMatchesLikeRules(f *testing.F) {
	f.Add("/a%7e*b$", "http://x/a~zb")
	f.Add("/*.pdf$", "/x/y.PDF?q")
	f.Add("/%E2%82%AC", "/€")
	f.Fuzz(func(t *testing.T, pattern, url string) {
		if !strings.HasPrefix(pattern, "/") || strings.ContainsRune(pattern, '#') {
			return
		}
		for i := 0; i < len(pattern); i++ {
			if pattern[i] <= ' ' || pattern[i] == 0x7f {
				return // white space and controls end or trim a value
			}
		}
		file := "User-agent: *\nDisallow: /\nAllow: " + pattern + "\nContent-Usage: " + pattern + " train-ai=n\n"
		gf := grammar.ParseString("f", file, grammar.Options{})
		for _, p := range []Profile{RFC9309, Google, Draft} {
			a := Compile(gf, p).Agent("*")
			d := a.Decide(url)
			allowRule := d.Rule != nil && d.Rule.Allow
			u := a.Usage(url)
			if !d.Allowed && (u.Applies || len(u.Rules) > 0) {
				t.Fatalf("%s: URL %q is disallowed, but Usage gives a preference %+v", p, url, u)
			}
			if p == Draft {
				continue // first match in file order: Disallow: / decides, so no usage rule applies
			}
			if d.Reason == ReasonRobotsTxt {
				continue
			}
			if got := len(u.Rules) > 0; got != allowRule {
				t.Fatalf("%s: pattern %q, URL %q: Allow rule matched %v, Content-Usage rule matched %v", p, pattern, url, allowRule, got)
			}
		}
	})
}

// FuzzParseContentUsage: a rule's statement reads as aipref.Parse reads
// it, with or without a path before it.
func FuzzParseContentUsage(f *testing.F) {
	for _, s := range []string{"train-ai=y, search=n", `train-ai;allow=n, train-ai=y`, "ai-use=?0", "search=n;a=(1 2)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, _ := aipref.Parse(s)
		if r := ParseContentUsage("/ " + s); r.Usage != u {
			t.Fatalf("ParseContentUsage(%q) = %+v, aipref.Parse = %+v", "/ "+s, r.Usage, u)
		}
	})
}

// BenchmarkUsage decides the usage preference of a URL under the attach
// draft's example file (a decision plus the Content-Usage lookup).
func BenchmarkUsage(b *testing.B) {
	a := Compile(grammar.ParseString("robots.txt", attachExample, grammar.Options{}), RFC9309).Agent("OtherBot")
	const url = "https://example.com/ai-ok/some/page.html?x=1"
	b.SetBytes(int64(len(url)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if u := a.Usage(url); u.Usage.TrainAI != aipref.Allow {
			b.Fatalf("Usage = %+v", u.Usage)
		}
	}
}
