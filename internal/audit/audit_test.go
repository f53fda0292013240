package audit

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/shareddata"
	"github.com/sitetxt/sitetxt/robots"
)

func TestRegistry(t *testing.T) {
	reg, err := ParseRegistry(registryYAML, listYAML)
	if err != nil {
		t.Fatalf("crawlers.yaml over airobots.yaml: %v", err)
	}
	if len(reg.Crawlers) < 190 {
		t.Errorf("the registry has %d crawlers, want at least 190 (every crawler of ai.robots.txt's list of September 2026)", len(reg.Crawlers))
	}
	// The names of the list's robots.txt of 27 September 2026 that its
	// robots.json at 738c80df lacks (../shared/specs/ai-preferences-2026.md).
	for _, tok := range []string{"AgentDataBot", "BixelBot", "CloudflareBrowserRenderingCrawler", "Diffbot-User", "DoubaoBot",
		"ERNIEBot", "Kimi-Agent", "Kimi-SearchBot", "KimiBot", "MistralAI-Index", "MistralAI-Training", "OAI-AdsBot", "qodercli", "QwenBot"} {
		if c := reg.Find(tok); c == nil || c.Operator == "" || c.Category == "" {
			t.Errorf("Find(%q) = %+v, want an entry with an operator and a category", tok, c)
		}
	}
	if !strings.Contains(reg.Source, "738c80df") || reg.List.Names != 166 {
		t.Errorf("Source, List = %q, %+v; want the list's commit and its 166 names", reg.Source, reg.List)
	}
	cats := map[string]int{}
	for _, c := range reg.Crawlers {
		cats[c.Category]++
	}
	for _, c := range Categories {
		if cats[c] == 0 {
			t.Errorf("crawlers.yaml has no %s crawler", c)
		}
	}
	// Tokens that break RFC 9309's product-token grammar are flagged, and
	// each says so in its note.
	var bad []string
	for _, c := range reg.InvalidTokens() {
		bad = append(bad, c.Token)
		if c.Note == "" {
			t.Errorf("token %q breaks RFC 9309's token grammar but its entry has no note saying so", c.Token)
		}
	}
	t.Logf("tokens breaking RFC 9309's grammar: %q", bad)
	for _, want := range []string{"archive.org_bot", "MJ12bot", "Brightbot 1.0"} {
		found := false
		for _, b := range bad {
			found = found || b == want
		}
		if !found {
			t.Errorf("InvalidTokens() = %q, want it to include %q", bad, want)
		}
	}
	for _, c := range reg.Crawlers {
		if c.ValidToken() != robots.ValidAgentName(c.Token) {
			t.Errorf("ValidToken(%q) disagrees with robots.ValidAgentName", c.Token)
		}
	}
}

func TestParseRegistryErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "crawlers: []\n", "no crawlers"},
		{"no token", "crawlers:\n- {operator: X, category: other, source: [ai-robots-txt]}\n", "no token"},
		{"twice", "crawlers:\n- {token: A, operator: X, category: other, source: [ai-robots-txt]}\n- {token: a, operator: X, category: other, source: [ai-robots-txt]}\n", "listed twice"},
		{"category", "crawlers:\n- {token: A, operator: X, category: robots, source: [ai-robots-txt]}\n", `unknown category "robots"`},
		{"no source", "crawlers:\n- {token: A, operator: X, category: other}\n", "no source"},
		{"bad source", "crawlers:\n- {token: A, operator: X, category: other, source: [somewhere]}\n", "not an http(s) URL"},
		{"no operator", "crawlers:\n- {token: A, category: other, source: [ai-robots-txt]}\n", "no operator"},
		{"no category", "crawlers:\n- {token: A, operator: X, respects_robots: yes, source: [ai-robots-txt]}\n", `unknown category ""`},
		{"respects", "crawlers:\n- {token: A, operator: X, category: other, respects_robots: maybe, source: [ai-robots-txt]}\n", `respects_robots "maybe"`},
		{"fallback", "crawlers:\n- {token: A, operator: X, category: other, respects_robots: yes, falls_back_to: B, source: [ai-robots-txt]}\n", `"B" is not in the registry`},
		{"no date", "source: x\ncrawlers:\n- {token: A, operator: X, category: other, respects_robots: yes, source: [ai-robots-txt]}\n", "no source or date"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRegistry([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseRegistry(%q) error = %v, want one containing %q", tt.in, err, tt.want)
			}
		})
	}
}

const sample = `User-agent: GPTBot
User-agent: CCBot
Disallow: /

User-agent: Google-Extended
Disallow: /private
Content-Usage: / train-ai=n

User-agent: *
Allow: /
Content-Signal: search=yes, ai-train=no
License: https://example.com/license.xml
`

var testRegistry = &Registry{Crawlers: []Crawler{
	{Token: "Googlebot", Operator: "Google", Category: SearchEngine},
	{Token: "GPTBot", Operator: "OpenAI", Category: AITraining},
	{Token: "Google-Extended", Operator: "Google", Category: AITraining},
	{Token: "CCBot", Operator: "Common Crawl", Category: Archive},
}}

func TestFile(t *testing.T) {
	rep := File(grammar.ParseString("robots.txt", sample, grammar.Options{}), Options{Registry: testRegistry, Paths: []string{"/private/x"}})
	tests := []struct {
		token          string
		allowed        bool
		usage          string // derived train_ai at "/"
		privateAllowed bool
		disagree       bool
	}{
		{"Googlebot", true, "disallow", true, false},
		{"GPTBot", false, "", false, false},
		{"Google-Extended", true, "disallow", false, true}, // google reads Content-Usage as no group rule: the next group's lines join
		{"CCBot", false, "", false, false},
	}
	for i, tt := range tests {
		c := rep.Crawlers[i]
		if c.Token != tt.token || c.Allowed != tt.allowed || c.Paths[1].Allowed != tt.privateAllowed {
			t.Errorf("crawler %d = %s allowed %v (/private/x %v), want %s %v (%v)", i, c.Token, c.Allowed, c.Paths[1].Allowed, tt.token, tt.allowed, tt.privateAllowed)
		}
		got := ""
		if c.Usage != nil {
			got = c.Usage.Derived.TrainAI
		}
		if got != tt.usage {
			t.Errorf("%s: usage train_ai = %q, want %q", c.Token, got, tt.usage)
		}
	}
	var verdicts []string
	for _, c := range rep.Categories {
		verdicts = append(verdicts, c.Verdict)
	}
	want := "Search engines: 0 of 1 blocked from /; AI training crawlers: 1 of 2 blocked from /; Archive crawlers: 1 of 1 blocked from /"
	if got := strings.Join(verdicts, "; "); got != want {
		t.Errorf("category verdicts = %q, want %q", got, want)
	}
	if len(rep.Licenses) != 1 || rep.Licenses[0].Line != 12 {
		t.Errorf("Licenses = %+v, want one at line 12", rep.Licenses)
	}
}

func TestWARC(t *testing.T) {
	caps := []Capture{
		{URL: "https://a.example/robots.txt", Body: "User-agent: GPTBot\nDisallow: /\n"},
		{URL: "https://b.example/robots.txt", Status: 404, Body: "not found"},
		{URL: "https://c.example/robots.txt", Body: "User-agent: *\nDisallow: /x\n"},
	}
	var plain bytes.Buffer
	if err := WriteWARC(&plain, caps); err != nil {
		t.Fatal(err)
	}
	// Gzip members one after another, as Common Crawl writes one per
	// record: here cut mid-record, which a multistream reader reads through.
	var gz bytes.Buffer
	half := plain.Len() / 2
	for _, part := range [][]byte{plain.Bytes()[:half], plain.Bytes()[half:]} {
		zw := gzip.NewWriter(&gz)
		zw.Write(part)
		zw.Close()
	}
	for name, data := range map[string][]byte{"plain": plain.Bytes(), "gzip members": gz.Bytes()} {
		t.Run(name, func(t *testing.T) {
			var got []string
			err := ReadWARC(bytes.NewReader(data), func(in Input) error {
				s := in.Name + " "
				if in.Err != nil {
					s += "error: " + in.Err.Error()
				} else if in.Status != 200 {
					s += "status " + strconv.Itoa(in.Status)
				} else {
					s += string(in.Data)
				}
				got = append(got, s)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			want := []string{
				"https://a.example/robots.txt User-agent: GPTBot\nDisallow: /\n",
				"https://b.example/robots.txt status 404",
				"https://c.example/robots.txt User-agent: *\nDisallow: /x\n",
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("ReadWARC = %q, want %q", got, want)
			}
		})
	}
	// The WARC kept in testdata reads the same.
	f, err := os.Open(filepath.Join("testdata", "robots.warc"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	if err := ReadWARC(f, func(Input) error { n++; return nil }); err != nil || n != 4 {
		t.Errorf("ReadWARC(testdata/robots.warc) = %d records, %v; want 4, nil", n, err)
	}
}

func TestWARCErrors(t *testing.T) {
	for _, in := range []string{"HTTP/1.1 200 OK\r\n\r\n", "WARC/1.1\r\nContent-Length: x\r\n\r\n", "WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 99\r\n\r\nshort"} {
		if err := ReadWARC(strings.NewReader(in), func(Input) error { return nil }); err == nil {
			t.Errorf("ReadWARC(%q) = nil, want an error", in)
		}
	}
}

func TestSummarize(t *testing.T) {
	in := make(chan Input)
	go func() {
		in <- Input{Name: "a", Data: []byte(sample)}
		in <- Input{Name: "b", Data: []byte("User-agent: *\nDisallow: /\n")}
		in <- Input{Name: "c", Data: []byte("User-agent: *\nDisallow: /tmp\n")}
		in <- Input{Name: "d", Err: os.ErrNotExist}
		in <- Input{Name: "e", Status: 404}
		close(in)
	}()
	s := Summarize(in, testRegistry, 2)
	if s.Files != 3 || s.Errors != 1 || s.NotOK != 1 {
		t.Fatalf("Files, Errors, NotOK = %d, %d, %d; want 3, 1, 1", s.Files, s.Errors, s.NotOK)
	}
	// GPTBot under rfc9309: fully in a and b, partly in c.
	if got := s.Crawlers[1][0]; got != [3]int{0, 1, 2} {
		t.Errorf("GPTBot levels (none, partly, fully) = %v, want [0 1 2]", got)
	}
	// Googlebot: none in a, fully in b, partly in c.
	if got := s.Crawlers[0][0]; got != [3]int{1, 1, 1} {
		t.Errorf("Googlebot levels = %v, want [1 1 1]", got)
	}
	if s.ContentUsage != 1 || s.ContentSignal != 1 || s.License != 1 {
		t.Errorf("ContentUsage, ContentSignal, License = %d, %d, %d; want 1, 1, 1", s.ContentUsage, s.ContentSignal, s.License)
	}
	// AI training under rfc9309: a blocks GPTBot fully and Google-Extended
	// partly (partly), b both fully, c both partly.
	if got := s.Categories[1][0]; got != [3]int{0, 2, 1} {
		t.Errorf("AI training levels = %v, want [0 2 1]", got)
	}
}

func TestCorpusSummary(t *testing.T) {
	dir := shareddata.Path("corpus", "robots")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Skipf("corpus not available (%v): skipping the corpus summary", err)
	}
	if testing.Short() {
		t.Skip("-short: skipping the corpus summary")
	}
	in := make(chan Input, 16)
	go func() {
		for i, e := range ents {
			if i >= 500 {
				break
			}
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			in <- Input{Name: e.Name(), Data: b, Err: err}
		}
		close(in)
	}()
	s := Summarize(in, nil, 0)
	if s.Files+s.Errors != min(500, len(ents)) {
		t.Errorf("Summarize saw %d files, want %d", s.Files+s.Errors, min(500, len(ents)))
	}
	for i, c := range s.Crawlers {
		for p := range c {
			if n := c[p][0] + c[p][1] + c[p][2]; n != s.Files {
				t.Fatalf("%s under %s: levels add up to %d, want %d", s.Registry.Crawlers[i].Token, robots.Profiles[p], n, s.Files)
			}
		}
	}
}

func FuzzReadWARC(f *testing.F) {
	var b bytes.Buffer
	WriteWARC(&b, []Capture{{URL: "https://a.example/robots.txt", Body: "User-agent: *\nDisallow: /\n"}})
	f.Add(b.Bytes())
	f.Add([]byte("WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 5\r\n\r\nHTTP/"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		ReadWARC(bytes.NewReader(data), func(in Input) error {
			n++
			if len(in.Data) > maxRobotsBody {
				t.Fatalf("body of %d bytes, more than maxRobotsBody", len(in.Data))
			}
			return nil
		})
	})
}

// BenchmarkSummarize audits the first 1,000 files of the shared corpus
// per iteration, on every core.
func BenchmarkSummarize(b *testing.B) {
	dir := shareddata.Path("corpus", "robots")
	ents, err := os.ReadDir(dir)
	if err != nil {
		b.Skipf("corpus not available (%v)", err)
	}
	var files [][]byte
	size := 0
	for _, e := range ents[:min(1000, len(ents))] {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, data)
		size += len(data)
	}
	reg := DefaultRegistry()
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in := make(chan Input, 8)
		go func() {
			for j, d := range files {
				in <- Input{Name: strconv.Itoa(j), Data: d}
			}
			close(in)
		}()
		if s := Summarize(in, reg, 0); s.Files != len(files) {
			b.Fatalf("Files = %d, want %d", s.Files, len(files))
		}
	}
	b.ReportMetric(float64(len(files)*b.N)/b.Elapsed().Seconds(), "files/s")
}

// TestGoogleReadsWholeFile: a rule past 500 KiB counts under google only.
func TestGoogleReadsWholeFile(t *testing.T) {
	src := strings.Repeat("# padding\n", grammar.DefaultMaxSize/10+1) + "User-agent: GPTBot\nDisallow: /\n"
	reg := &Registry{Crawlers: []Crawler{{Token: "GPTBot", Operator: "OpenAI", Category: AITraining}}}
	rep := File(grammar.ParseString("big", src, grammar.Options{}), Options{Registry: reg})
	got := rep.Crawlers[0].Paths[0].Profiles
	if !got[0].Allowed || got[1].Allowed || !rep.Crawlers[0].Disagree {
		t.Errorf("File: profiles %+v, want rfc9309 allowed, google disallowed, a disagreement", got)
	}
	in := make(chan Input, 1)
	in <- Input{Name: "big", Data: []byte(src)}
	close(in)
	s := Summarize(in, reg, 1)
	if s.Crawlers[0][0][None] != 1 || s.Crawlers[0][1][Fully] != 1 || s.Disagree != 1 {
		t.Errorf("Summarize: rfc9309 %v, google %v, disagree %d; want none, fully, 1", s.Crawlers[0][0], s.Crawlers[0][1], s.Disagree)
	}
}

// TestSummarizeBoundedMemory feeds Summarize more bytes than the bound
// it is held to: memory in use must not grow with the number of files.
func TestSummarizeBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the memory bound test")
	}
	if raceEnabled {
		t.Skip("the memory bound test runs without -race (30 s under the race detector)")
	}
	const files, size, bound = 1500, 16 << 10, 12 << 20 // 24 MB through a 12 MiB bound
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "User-agent: Bot%c\nDisallow: /private/%d/\nAllow: /public/%d\n\n", 'a'+i%26, i, i)
	}
	body := b.String()
	in := make(chan Input, 4)
	peak := uint64(0)
	go func() {
		var ms runtime.MemStats
		for i := 0; i < files; i++ {
			if i%250 == 0 {
				runtime.GC()
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
			in <- Input{Name: strconv.Itoa(i), Data: []byte(body)} // a fresh copy per file
		}
		close(in)
	}()
	s := Summarize(in, nil, 0)
	if s.Files != files {
		t.Fatalf("Files = %d, want %d", s.Files, files)
	}
	if peak > bound {
		t.Errorf("heap in use reached %d MiB while auditing %d MB of files, want at most %d MiB", peak>>20, files*size>>20, bound>>20)
	}
	t.Logf("peak heap in use %d MiB over %d MB of input", peak>>20, files*size/1000000)
}

// TestFileChains: a crawler no group names answers by the groups of the
// crawler its operator says it falls back to; a token that makes no fetch
// of its own says whose fetch it governs; the crawlers a file names that
// the registry does not know are listed.
func TestFileChains(t *testing.T) {
	reg, err := ParseRegistry([]byte(`source: test
date: 2026-11-26
crawlers:
- {token: Googlebot, operator: Google, category: search-engine, respects_robots: "yes", source: [ai-robots-txt]}
- {token: Googlebot-Image, operator: Google, category: search-engine, respects_robots: "yes", falls_back_to: Googlebot, source: [ai-robots-txt]}
- {token: Google-Extended, operator: Google, category: ai-training, respects_robots: "yes", fetched_by: Googlebot, source: [ai-robots-txt]}
`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, file, token string
		allowed           bool
		fellBack          string
		fetcher           string // "" when not reported, else "true"/"false"
		unknown           string
	}{
		{"falls back to Googlebot", "User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "Googlebot-Image", false, "Googlebot", "", ""},
		{"its own group wins", "User-agent: Googlebot\nDisallow: /\n\nUser-agent: Googlebot-Image\nAllow: /\n", "Googlebot-Image", true, "", "", ""},
		{"no Googlebot group: the * group", "User-agent: *\nDisallow: /\n", "Googlebot-Image", false, "", "", ""},
		{"Google-Extended governs Googlebot's fetch", "User-agent: Google-Extended\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n", "Google-Extended", false, "", "true", ""},
		{"Googlebot may not fetch", "User-agent: Googlebot\nDisallow: /\n", "Google-Extended", true, "", "false", ""},
		{"unknown agents", "User-agent: FooBot\nUser-agent: googlebot\nUser-agent: *\nDisallow: /x\n\nUser-agent: BarBot/1.0\nDisallow: /\n", "Googlebot", true, "", "", "FooBot@1 BarBot/1.0@6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := File(grammar.ParseString("robots.txt", tt.file, grammar.Options{}), Options{Registry: reg})
			var c *CrawlerReport
			for _, cr := range rep.Crawlers {
				if cr.Token == tt.token {
					c = cr
				}
			}
			fetcher := ""
			if c.FetcherAllowed != nil {
				fetcher = strconv.FormatBool(*c.FetcherAllowed)
			}
			if c.Allowed != tt.allowed || c.FellBackTo != tt.fellBack || fetcher != tt.fetcher {
				t.Errorf("File: %s = {allowed %v, fell back to %q, fetcher %q}, want {%v, %q, %q}", tt.token, c.Allowed, c.FellBackTo, fetcher, tt.allowed, tt.fellBack, tt.fetcher)
			}
			var unknown []string
			for _, u := range rep.Unknown {
				unknown = append(unknown, u.Value+"@"+strconv.Itoa(u.Line))
			}
			if got := strings.Join(unknown, " "); got != tt.unknown {
				t.Errorf("File: unknown agents = %q, want %q", got, tt.unknown)
			}
			if rep.Registry.Source != "test" || rep.Registry.Crawlers != 3 {
				t.Errorf("File: registry = %+v, want source test, 3 crawlers", rep.Registry)
			}
		})
	}
}
