package robots

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/shareddata"
	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// TestGoogleControlBytes holds the google profile to Google's parser on
// the control bytes its C strings and white-space trimming treat
// specially (issue 12), and shows rfc9309 on the same lines: there white
// space is space and tab only.
func TestGoogleControlBytes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, agent, url string
		google, rfc           bool
	}{
		{"vt after star is the global group", "User-agent: *\vfoo\nDisallow: /a\n", "x", "/a", false, true},
		{"ff after star is the global group", "User-agent: *\ffoo\nDisallow: /a\n", "x", "/a", false, true},
		{"NUL in field name ends the line", "User-agent: x\nDisal\x00low: /a\n", "x", "/a", true, true},
		{"NUL in User-agent field name", "User-agent: *\nDisallow: /b\nUser\x00-agent: x\nDisallow: /a\n", "x", "/a", false, false},
		{"vt before colon", "User-agent: x\nDisallow\v: /a\n", "x", "/a", false, true},
		{"ff after colon", "User-agent: x\nDisallow:\f/a\n", "x", "/a", false, true},
		{"vt and ff around colon", "User-agent: x\nDisallow\v:\f/a\f\n", "x", "/a", false, true},
		{"NUL after value: trimmed before it", "User-agent: x\nDisallow: /a \x00b\n", "x", "/a", false, true},
		{"NUL after value: the rest is gone", "User-agent: x\nDisallow: /a\x00b\n", "x", "/ax", false, true},
		{"NUL hides a comment and a colon", "User-agent: x\nDisallow /a\x00: #b\n", "x", "/a", false, true},
		{"trailing vt is trimmed", "User-agent: x\nDisallow: /a\v\n", "x", "/a", false, true},
		{"leading ff is trimmed", "\fUser-agent: x\n\fDisallow: /a\n", "x", "/a", false, true},
		{"no colon: vt is not a separator", "User-agent: x\ndisallow\v/a\n", "x", "/a", true, true},
		{"no colon: vt inside the value", "User-agent: x\ndisallow /a\vb\n", "x", "/a\vb", false, true},
		{"no colon: a third word after vt", "User-agent: x\ndisallow\vx /a\n", "x", "/a", false, true},
		{"vt inside an agent value", "User-agent: x\vy\nDisallow: /a\n", "x", "/a", false, false},
		{"vt inside a rule value", "User-agent: x\nDisallow: /a\vb\n", "x", "/a", true, true},
		{"NUL before a star agent", "User-agent: \x00*\nDisallow: /a\n", "", "/a", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := grammar.ParseString("robots.txt", tt.src, grammar.Options{})
			if got := Compile(f, Google).Allowed(tt.agent, tt.url); got != tt.google {
				t.Errorf("google: Allowed(%q, %q) = %v, want %v", tt.agent, tt.url, got, tt.google)
			}
			if ref := refGoogle([]byte(tt.src), tt.agent, tt.url); ref != tt.google {
				t.Errorf("reference: Allowed(%q, %q) = %v, want %v", tt.agent, tt.url, ref, tt.google)
			}
			if got := Compile(f, RFC9309).Allowed(tt.agent, tt.url); got != tt.rfc {
				t.Errorf("rfc9309: Allowed(%q, %q) = %v, want %v", tt.agent, tt.url, got, tt.rfc)
			}
		})
	}
}

// perturbBytes are the bytes TestGooglePerturbed sprinkles into files:
// those Google's line handling treats specially, and separators.
const perturbBytes = "\x00\x00\v\v\f\f \t:#*$\r\n"

// TestGooglePerturbed is a differential test of the google profile
// against refGoogle (Google's parser restated from robots.cc) on real
// files from the corpus with control bytes and separators inserted or
// overwritten at random: lightly (1 to 6 changes) and densely (one byte
// in 8). By default it takes every 25th file of up to 16 KiB; with
// the slow tier every such file. Any disagreement fails.
func TestGooglePerturbed(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(shareddata.Path("corpus/robots/*.txt"))
	if len(files) == 0 {
		t.Skip("../../shared/corpus/robots is absent: the perturbed-file differential test needs the shared data")
	}
	step := 25
	if slowtest.On {
		step = 1
	} else if testing.Short() || raceEnabled {
		step = 250
	}
	decisions, bad := 0, 0
	for fi := 0; fi < len(files); fi += step {
		src, err := os.ReadFile(files[fi])
		if err != nil {
			t.Fatal(err)
		}
		if len(src) > 16<<10 || len(src) == 0 {
			continue
		}
		rng := rand.New(rand.NewSource(int64(fi)))
		for variant := 0; variant < 4; variant++ {
			b := append([]byte(nil), src...)
			n := 1 + rng.Intn(6)
			if variant == 3 {
				n = len(b) / 8
			}
			for k := 0; k < n; k++ {
				c := perturbBytes[rng.Intn(len(perturbBytes))]
				i := rng.Intn(len(b) + 1)
				if rng.Intn(2) == 0 && i < len(b) {
					b[i] = c
				} else {
					b = append(b[:i], append([]byte{c}, b[i:]...)...)
				}
			}
			agents, urls := perturbQuestions(b)
			pol := Compile(grammar.Parse(filepath.Base(files[fi]), b, grammar.Options{MaxSize: -1}), Google)
			for _, agent := range agents {
				a := pol.Agent(agent)
				for _, u := range urls {
					decisions++
					if got, want := a.Allowed(u), refGoogle(b, agent, u); got != want {
						if bad == 0 && os.Getenv("SITETXT_DUMP") != "" {
							os.WriteFile(os.Getenv("SITETXT_DUMP"), b, 0o644)
							t.Logf("dumped agent %q url %q", agent, u)
						}
						if bad++; bad <= 10 {
							t.Errorf("%s variant %d: google: Allowed(%q, %q) = %v, want %v (reference)\n%q",
								files[fi], variant, agent, u, got, want, b)
						}
					}
				}
			}
		}
	}
	t.Logf("%d decisions on perturbed files, %d disagreements", decisions, bad)
}

// perturbQuestions returns the agents and URLs to ask about a file: a few
// common names and the first names the file's User-agent lines give; "/"
// and the paths its rule lines name (up to 12, '*' and '$' made literal).
func perturbQuestions(b []byte) (agents, urls []string) {
	agents = []string{"Googlebot", "foo", ""}
	urls = []string{"/", "/index.html"}
	for _, line := range strings.FieldsFunc(string(b), func(r rune) bool { return r == '\n' || r == '\r' }) {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		switch {
		case strings.HasPrefix(k, "user") && len(agents) < 6:
			if tok := fileToken(v); tok != "" {
				agents = append(agents, tok)
			}
		case (strings.HasPrefix(k, "dis") || strings.HasPrefix(k, "allow")) && len(urls) < 12:
			v = strings.NewReplacer("*", "x", "$", "", "\x00", "").Replace(v)
			if strings.HasPrefix(v, "/") {
				urls = append(urls, v, v+"x")
			}
		}
	}
	return agents, urls
}
