package robots

import (
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
)

// TestProfileTable checks each row of the profile table for what the code
// supports: a row may combine its fields freely except as below.
func TestProfileTable(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for i := range profiles {
		p, d := Profile(i), &profiles[i]
		t.Run(d.name, func(t *testing.T) {
			if d.name == "" || d.name != strings.ToLower(d.name) || seen[d.name] {
				t.Errorf("name %q: want a new lower-case name", d.name)
			}
			seen[d.name] = true
			if q, err := ParseProfile(strings.ToUpper(d.name)); q != p || err != nil {
				t.Errorf("ParseProfile(%q) = %v, %v, want %v", strings.ToUpper(d.name), q, err, p)
			}
			if p.String() != d.name || d.ref == "" {
				t.Errorf("String() = %q, ref %q: want the name and a reference", p, d.ref)
			}
			// The grammar's records are the drafts': they are placed by the
			// BNF's lines only, and end at no Content-Usage line.
			if d.records && (d.googleLines || d.usageRule) {
				t.Errorf("records with googleLines or usageRule: the grammar's records are placed by the BNF's lines only")
			}
			// Groups are merged by the names a value gives; a substring
			// match names no token to merge by.
			if d.merge && d.agents == matchContains {
				t.Errorf("merge with matchContains: groups are merged by token")
			}
			if d.access == fetch.AccessDataTxt {
				t.Errorf("access method %s is data.txt's", d.access)
			}
			if n := p.MaxSize(); n == 0 || p.ParseOptions().MaxSize != n {
				t.Errorf("MaxSize() = %d, ParseOptions().MaxSize = %d: want the same, not 0", n, p.ParseOptions().MaxSize)
			}
		})
	}
	if len(Profiles) != len(profiles) || Profiles[0] != RFC9309 {
		t.Errorf("Profiles = %v, want every row, rfc9309 first", Profiles)
	}
	if got := Profile(200).desc(); got != &profiles[RFC9309] {
		t.Errorf("Profile(200).desc() = %q, want rfc9309's row", got.name)
	}
}

// TestProfileAccess: the access method follows from the profile.
func TestProfileAccess(t *testing.T) {
	t.Parallel()
	want := map[Profile]*fetch.Access{RFC9309: fetch.AccessRFC9309, Google: fetch.AccessRFC9309, Draft: fetch.AccessDraft, NoRobots: fetch.AccessDraft}
	for p, m := range want {
		if got := p.Access(); got != m {
			t.Errorf("%s.Access() = %s, want %s", p, got, m)
		}
	}
}

// TestCompileReadsAsProfile: the profile decides how much of a file is
// read, whatever it was parsed with (issue 24, point 10). A 535 KB file
// whose last rule is past 500 KiB, parsed with grammar.Options{} (which
// stops at 500 KiB) and compiled under google, is read whole as Google's
// parser reads it, as `sitetxt check --profile google` does; the other
// profiles read their 500 KiB.
func TestCompileReadsAsProfile(t *testing.T) {
	t.Parallel()
	src := strings.Repeat("# padding line\n", 535_000/15) + "User-agent: *\nDisallow: /late\n"
	if len(src) < 535_000 || len(src) > 540_000 {
		t.Fatalf("test file is %d bytes, want 535 KB", len(src))
	}
	short := grammar.ParseString("big.txt", src, grammar.Options{})
	if short.Ignored == "" {
		t.Fatalf("grammar.Options{} read all %d bytes; the test needs a cut", len(src))
	}
	for _, p := range Profiles {
		whole := p.MaxSize() < 0
		got := Compile(short, p).Allowed("FooBot", "/late")
		if got != !whole {
			t.Errorf("Compile(Parse(535 KB, Options{}), %s).Allowed(/late) = %v, want %v (the profile reads all: %v)", p, got, !whole, whole)
		}
		if want := Compile(grammar.ParseString("big.txt", src, p.ParseOptions()), p).Allowed("FooBot", "/late"); got != want {
			t.Errorf("%s: a file parsed with Options{} gives %v, with the profile's ParseOptions %v", p, got, want)
		}
	}
	// A parse cut by its line limit is not read again: the second parse
	// would stop at the same line.
	lines := grammar.ParseString("big.txt", src, grammar.Options{MaxSize: -1, MaxLines: 10})
	if pol := Compile(lines, Google); !pol.Allowed("FooBot", "/late") || len(pol.Groups()) != 0 {
		t.Errorf("Compile(file cut at 10 lines, google) read past the cut")
	}
}

// TestKindTables holds each profile's kind table (kind: an index by the
// line's Kind and flags) to what the profile takes a line for, spelt out:
// under googleLines the field a line names whatever its spelling, else a
// misspelt field or a line with no colon is an extension line; Allow
// lines only for profiles that read them; blank, comment,
// Mobile-agent-server and invalid lines nothing.
func TestKindTables(t *testing.T) {
	t.Parallel()
	if k := grammar.Kind(8); k.String() != "kind?" {
		t.Fatalf("grammar has a Kind %v past Invalid: kindIndex keeps three bits of it", k)
	}
	for _, p := range Profiles {
		d := p.desc()
		c := &compiler{desc: d}
		for k := grammar.Blank; k <= grammar.Invalid; k++ {
			for _, flags := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
				want := kOther
				switch {
				case k != grammar.Extension && !k.IsRule() && k != grammar.AgentLine:
					want = kNone
				case (flags[0] || flags[1]) && !d.googleLines:
				case k == grammar.AgentLine:
					want = kAgent
				case k == grammar.DisallowLine:
					want = kDisallow
				case k == grammar.AllowLine && d.allow:
					want = kAllow
				}
				l := &grammar.Line{Kind: k, Typo: flags[0], NoColon: flags[1]}
				if got := c.kind(l); got != want {
					t.Errorf("%s: kind(%v, typo %v, no colon %v) = %d, want %d", p, k, flags[0], flags[1], got, want)
				}
			}
		}
	}
}
