package aipref

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
)

// SpecExample is one example of ../shared/specs/ai-preferences-2026.md
// for draft-ietf-aipref-vocab-08 (sections 4, 6.5, 6.5.1, 6.5.2) with the
// answer it must get, plus the issue's own ("ai-use=n, search=y"). They
// are one data file, testdata/aipref/vocab-08-examples.json, that the
// tests of every surface read: here the library, in internal/cli check,
// audit and explain, in internal/serve POST /v1/check and the tester.
type SpecExample struct {
	In         string
	ParseError bool
	Why        string
	Want       Usage
}

// specExamples reads the examples.
func specExamples(t testing.TB) []SpecExample {
	b, err := os.ReadFile("../testdata/aipref/vocab-08-examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw []map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	words := map[string]Preference{"unknown": Unknown, "allow": Allow, "disallow": Disallow}
	// word fails on a misspelt answer, which the map alone would read as
	// Unknown, and the example would then want what a broken Parse gives.
	word := func(r map[string]any, key string) Preference {
		p, ok := words[r[key].(string)]
		if !ok {
			t.Fatalf("vocab-08-examples.json: %q's %s is %q, want unknown, allow or disallow", r["in"], key, r[key])
		}
		return p
	}
	var out []SpecExample
	for _, r := range raw {
		e := SpecExample{In: r["in"].(string), ParseError: r["parse_error"].(bool), Why: r["why"].(string)}
		e.Want = Usage{TrainAI: word(r, "train_ai"), AIUse: word(r, "ai_use"), Search: word(r, "search")}
		out = append(out, e)
	}
	if len(out) < 10 {
		t.Fatalf("%d examples, want the specs file's 9 and the issue's", len(out))
	}
	return out
}

func TestParseSpecExamples(t *testing.T) {
	for _, tt := range specExamples(t) {
		t.Run(tt.In, func(t *testing.T) {
			got, err := Parse(tt.In)
			if got != tt.Want || (err != nil) != tt.ParseError {
				t.Errorf("Parse(%q) = %+v, %v; want %+v, error %v (%s)", tt.In, got, err, tt.Want, tt.ParseError, tt.Why)
			}
		})
	}
}

// TestParse: the rules of draft-ietf-aipref-vocab-08 sections 6.1, 6.2,
// 6.4 and 6.5 beyond the examples, and RFC 9651's white space.
func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		want    Usage
		wantErr bool
	}{
		{"train-ai=y, ai-use=n, search=y", Usage{TrainAI: Allow, AIUse: Disallow, Search: Allow}, false},
		{"ai-use=n", Usage{AIUse: Disallow}, false}, // no inheritance: train-ai stays unknown
		{"train-ai=n", Usage{TrainAI: Disallow}, false},
		{`train-ai;has;parameters="?";`, Usage{}, true}, // -07's 6.5.2 example ends in ';', which RFC 9651 4.2.3.2 rejects
		{`train-ai;has;parameters="?"`, Usage{}, false},
		{"train-ai=?1", Usage{}, false}, // a Boolean
		{"foo=n, ai-use=y", Usage{AIUse: Allow}, false},
		{"train-ai=(n)", Usage{}, false}, // an inner list
		{"", Usage{}, false},             // the empty Dictionary
		{"search=n;why=\"x\"", Usage{Search: Disallow}, false},
		{"  train-ai=n  ", Usage{TrainAI: Disallow}, false},
		{"train-ai=n,\tsearch=y", Usage{TrainAI: Disallow, Search: Allow}, false},
		{"\ttrain-ai=n", Usage{}, true}, // a leading HTAB is not SP
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			if got != tt.want || (err != nil) != tt.wantErr {
				t.Errorf("Parse(%q) = %+v, %v; want %+v, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestParseField: the field lines of a header are one Dictionary; a
// later line's value for a key replaces an earlier one's.
func TestParseField(t *testing.T) {
	tests := []struct {
		lines []string
		want  Usage
	}{
		{[]string{"train-ai=n", "search=y"}, Usage{TrainAI: Disallow, Search: Allow}},
		{[]string{"train-ai=n", "train-ai=y"}, Usage{TrainAI: Allow}},
		{[]string{"train-ai=n", "Search=y"}, Usage{}}, // one bad line fails the whole field
	}
	for _, tt := range tests {
		if got, _ := ParseField(tt.lines); got != tt.want {
			t.Errorf("ParseField(%q) = %+v, want %+v", tt.lines, got, tt.want)
		}
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		in   string
		want string // "offset code" joined by "; "
	}{
		{"train-ai=n, ai-use=n, search=y", ""},
		{"train=n", "0 usage-label"},
		{"train-ai=no", "0 usage-value"},
		{"Train-AI=n", "0 usage-syntax"},
		{"train-ai=n;;", "11 usage-syntax"},
		{"train-ai=n, train-genai=n", "12 usage-legacy"},
		{"bots=n", "0 usage-legacy"},
		{"train-ai=n, train-ai=maybe", "12 usage-value"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if g := problemList(Check(tt.in)); g != tt.want {
				t.Errorf("Check(%q) = %q, want %q", tt.in, g, tt.want)
			}
		})
	}
	// The legacy hint names the label to write.
	for label, current := range map[string]string{"train-genai": "train-ai", "bots": "train-ai, ai-use and search"} {
		ps := Check(label + "=n")
		if len(ps) != 1 || !strings.Contains(ps[0].Msg, "write "+current) {
			t.Errorf("Check(%q) = %v, want one usage-legacy naming %q", label+"=n", ps, current)
		}
	}
}

// TestOverridden: a search use is governed by search (vocab-08 4.3); the
// other categories never borrow one another's preference.
func TestOverridden(t *testing.T) {
	u := Usage{TrainAI: Disallow, Search: Allow}
	if got := u.Overridden(Search); len(got) != 1 || got[0] != TrainAI {
		t.Errorf("Overridden(search) = %v, want [train-ai]", got)
	}
	if got := u.Overridden(TrainAI); got != nil {
		t.Errorf("Overridden(train-ai) = %v, want nothing", got)
	}
	if got := (Usage{AIUse: Disallow}).Get(TrainAI); got != Unknown {
		t.Errorf("Usage{ai-use=n}.Get(train-ai) = %v, want unknown (no inheritance)", got)
	}
}

func TestCombine(t *testing.T) {
	a := Usage{TrainAI: Allow, AIUse: Unknown, Search: Allow}
	b := Usage{TrainAI: Disallow, AIUse: Allow}
	if got, want := a.Combine(b), (Usage{TrainAI: Disallow, AIUse: Allow, Search: Allow}); got != want {
		t.Errorf("Combine = %+v, want %+v", got, want)
	}
}

// FuzzParse: the parsers never panic, a failed Dictionary leaves every
// category unknown, a Usage written back reads back the same, and Check
// finds a syntax problem exactly when Parse fails.
func FuzzParse(f *testing.F) {
	for _, e := range specExamples(f) {
		f.Add(e.In)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := Parse(s)
		if err != nil && !u.IsZero() {
			t.Fatalf("Parse(%q) = %+v with error %v, want all unknown", s, u, err)
		}
		back, berr := Parse(u.String())
		if berr != nil || back != u {
			t.Fatalf("Parse(%q) = %+v; its String %q reads back as %+v, %v", s, u, u.String(), back, berr)
		}
		ps := Check(s)
		syntax := len(ps) > 0 && ps[0].Code == CodeSyntax
		if syntax != (err != nil) {
			t.Fatalf("Check(%q) = %v, but Parse error = %v", s, ps, err)
		}
	})
}

// problemList is ps as "offset code" items joined by "; ", the form the
// tables of Check and CheckSignals want.
func problemList(ps []Problem) string {
	var items []string
	for _, p := range ps {
		items = append(items, strconv.Itoa(p.Offset)+" "+p.Code)
	}
	return strings.Join(items, "; ")
}
