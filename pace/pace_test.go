package pace_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/robots"
)

func TestReadingOf(t *testing.T) {
	for _, tc := range []struct {
		name     string
		robots   string
		profile  robots.Profile
		reading  pace.Reading
		agent    string
		interval time.Duration
		source   string
		window   *pace.Window
		diags    []string // "line:col: code"
	}{
		{name: "nothing asked", robots: "User-agent: *\nDisallow: /x\n", interval: time.Second, source: "default"},
		{name: "crawl-delay with a fraction", robots: "User-agent: *\nCrawl-delay: 2.5\n", interval: 2500 * time.Millisecond, source: "crawl-delay"},
		{name: "request-rate", robots: "User-agent: *\nRequest-rate: 2/1s\n", interval: 500 * time.Millisecond, source: "request-rate"},
		{name: "request-rate in minutes", robots: "User-agent: *\nRequest-rate: 3/1m\n", interval: 20 * time.Second, source: "request-rate"},
		{name: "the slower of the two", robots: "User-agent: *\nCrawl-delay: 1\nRequest-rate: 1/5s\n", interval: 5 * time.Second, source: "request-rate"},
		{name: "crawl-delay slower", robots: "User-agent: *\nRequest-rate: 4/1s\nCrawl-delay: 3\n", interval: 3 * time.Second, source: "crawl-delay"},
		{name: "the agent's own group", robots: "User-agent: *\nDisallow: /x\nCrawl-delay: 9\n\nUser-agent: foobot\nDisallow: /y\nCrawl-delay: 0.5\n", agent: "FooBot", interval: 500 * time.Millisecond, source: "crawl-delay"},
		{name: "another agent gets the * group", robots: "User-agent: *\nDisallow: /x\nCrawl-delay: 9\n\nUser-agent: foobot\nDisallow: /y\nCrawl-delay: 0.5\n", agent: "BarBot", interval: 9 * time.Second, source: "crawl-delay"},
		{name: "crawl-delay 0", robots: "User-agent: *\nCrawl-delay: 0\n", interval: 0, source: "crawl-delay"},
		{name: "visit-time", robots: "User-agent: *\nVisit-time: 0600-0845\n", interval: time.Second, source: "default", window: &pace.Window{From: 360, To: 525}},
		{name: "capped", robots: "User-agent: *\nDisallow: /x\nCrawl-delay: 86400\n", interval: time.Minute, source: "crawl-delay", diags: []string{"3:1: pace-capped"}},
		{name: "own cap", robots: "User-agent: *\nRequest-rate: 1/1h\n", reading: pace.Reading{Max: 2 * time.Hour}, interval: time.Hour, source: "request-rate"},
		{name: "own default", robots: "User-agent: *\n", reading: pace.Reading{Default: 5 * time.Second}, interval: 5 * time.Second, source: "default"},
		{name: "no default", robots: "User-agent: *\n", reading: pace.Reading{Default: -1}, interval: 0, source: "default"},
		{name: "google ignores them", robots: "User-agent: *\nCrawl-delay: 5\nVisit-time: 0600-0845\n", profile: robots.Google, interval: time.Second, source: "default", diags: []string{"2:1: pace-ignored", "3:1: pace-ignored"}},
		{name: "google, honoured when asked", robots: "User-agent: *\nCrawl-delay: 5\n", profile: robots.Google, reading: pace.Reading{Lines: pace.Always}, interval: 5 * time.Second, source: "crawl-delay"},
		{name: "draft honours them", robots: "User-agent: *\nCrawl-delay: 5\n", profile: robots.Draft, interval: 5 * time.Second, source: "crawl-delay"},
		{name: "never", robots: "User-agent: *\nCrawl-delay: 5\n", reading: pace.Reading{Lines: pace.Never}, interval: time.Second, source: "default", diags: []string{"2:1: pace-ignored"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pol := robots.Compile(grammar.ParseString("robots.txt", tc.robots, grammar.Options{}), tc.profile)
			agent := tc.agent
			if agent == "" {
				agent = "ExampleBot"
			}
			p := tc.reading.Of(pol, agent)
			if p.Interval != tc.interval || p.Source != tc.source {
				t.Errorf("Of(%q) = %v from %s, want %v from %s", agent, p.Interval, p.Source, tc.interval, tc.source)
			}
			if (p.Window == nil) != (tc.window == nil) || p.Window != nil && *p.Window != *tc.window {
				t.Errorf("Of(%q).Window = %+v, want %+v", agent, p.Window, tc.window)
			}
			var diags []string
			for _, d := range p.Diagnostics {
				if d.Filename != "robots.txt" || d.Severity != grammar.Warning {
					t.Errorf("diagnostic %s: want a warning about robots.txt", d)
				}
				diags = append(diags, fmt.Sprintf("%d:%d: %s", d.Range.Start.Line, d.Range.Start.Column, d.Code))
			}
			if len(diags) != len(tc.diags) {
				t.Fatalf("Of(%q).Diagnostics = %q, want %q", agent, diags, tc.diags)
			}
			for i := range diags {
				if diags[i] != tc.diags[i] {
					t.Errorf("diagnostic %d = %q, want %q", i, diags[i], tc.diags[i])
				}
			}
		})
	}
	if p := (pace.Reading{}).Of(nil, "ExampleBot"); p.Interval != pace.DefaultInterval || p.Source != "default" {
		t.Errorf("Of(nil) = %v from %s, want the default", p.Interval, p.Source)
	}
}

func TestWindowNext(t *testing.T) {
	at := func(hm string) time.Time {
		tm, err := time.Parse("2006-01-02 15:04:05", "2026-01-01 "+hm)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	for _, tc := range []struct {
		w       *pace.Window
		t, want string
		nextDay bool
	}{
		{nil, "10:00:00", "10:00:00", false},
		{&pace.Window{From: 360, To: 525}, "06:00:00", "06:00:00", false},
		{&pace.Window{From: 360, To: 525}, "08:44:59", "08:44:59", false},
		{&pace.Window{From: 360, To: 525}, "08:45:00", "06:00:00", true},
		{&pace.Window{From: 360, To: 525}, "05:59:30", "06:00:00", false},
		{&pace.Window{From: 22 * 60, To: 120}, "23:30:10", "23:30:10", false},
		{&pace.Window{From: 22 * 60, To: 120}, "01:59:59", "01:59:59", false},
		{&pace.Window{From: 22 * 60, To: 120}, "02:00:00", "22:00:00", false},
		{&pace.Window{From: 600, To: 600}, "03:00:00", "03:00:00", false},
	} {
		want := at(tc.want)
		if tc.nextDay {
			want = want.Add(24 * time.Hour)
		}
		if got := tc.w.Next(at(tc.t)); !got.Equal(want) {
			t.Errorf("%+v.Next(%s) = %s, want %s", tc.w, tc.t, got.Format(time.DateTime), want.Format(time.DateTime))
		}
	}
}

func FuzzWindowNext(f *testing.F) {
	f.Add(360, 525, int64(1767261600))
	f.Add(1320, 120, int64(0))
	f.Fuzz(func(t *testing.T, from, to int, sec int64) {
		if from < 0 || to < 0 || from >= 1440 || to >= 1440 || sec < 0 || sec > 1<<40 {
			return
		}
		w := &pace.Window{From: from, To: to}
		tm := time.Unix(sec, 0).UTC()
		got := w.Next(tm)
		if got.Before(tm) || got.Sub(tm) > 24*time.Hour {
			t.Fatalf("%+v.Next(%s) = %s: not within a day after", w, tm, got)
		}
		if w.Next(got) != got {
			t.Fatalf("%+v.Next(%s) = %s, which is not in the window", w, tm, got)
		}
	})
}

func TestClassify(t *testing.T) {
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		status int
		ra     string
		out    pace.Outcome
		d      time.Duration
	}{
		{200, "", pace.Fine, 0},
		{301, "", pace.Fine, 0},
		{404, "120", pace.Fine, 0},
		{429, "120", pace.Paused, 2 * time.Minute},
		{503, now.Add(time.Hour).Format(http.TimeFormat), pace.Paused, time.Hour},
		{503, now.Add(-time.Hour).Format(http.TimeFormat), pace.Paused, 0},
		{503, "", pace.Failed, 0},
		{500, "x", pace.Failed, 0},
		{429, "", pace.Failed, 0},
		{0, "5", pace.Failed, 0},
		{503, "99999999", pace.Paused, 24 * time.Hour},
	} {
		out, d := pace.Classify(tc.status, tc.ra, now)
		if out != tc.out || d != tc.d {
			t.Errorf("Classify(%d, %q) = %v, %v; want %v, %v", tc.status, tc.ra, out, d, tc.out, tc.d)
		}
	}
}

// TestPaceStale: a slot is stale for a request leaving more than half the
// slack (at least pace.MinAllowance) after it, in a paced queue only.
func TestPaceStale(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		interval, slack, late time.Duration
		want                  bool
	}{
		{time.Second, 50 * ms, 0, false},
		{time.Second, 50 * ms, 25 * ms, false},
		{time.Second, 50 * ms, 26 * ms, true},
		{time.Second, 50 * ms, 128 * ms, true},
		{time.Second, 0, 5 * ms, false},
		{time.Second, 0, 6 * ms, true},
		{time.Second, 400 * ms, 150 * ms, false},
		{0, 50 * ms, time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%v+%v late %v", tt.interval, tt.slack, tt.late), func(t *testing.T) {
			p := pace.Pace{Interval: tt.interval, Slack: tt.slack}
			if got := p.Stale(tt.late); got != tt.want {
				t.Errorf("Pace{%v, slack %v}.Stale(%v) = %v, want %v (allowance %v)", tt.interval, tt.slack, tt.late, got, tt.want, p.Allowance())
			}
		})
	}
}

func TestBackoffAfter(t *testing.T) {
	b := pace.Backoff{Base: time.Second, Max: 10 * time.Second}
	for n, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 4: 8 * time.Second, 5: 10 * time.Second, 1000: 10 * time.Second} {
		if got := b.After(n); got != want {
			t.Errorf("After(%d) = %v, want %v", n, got, want)
		}
	}
}

func TestParseLines(t *testing.T) {
	for _, l := range []pace.Lines{pace.ByProfile, pace.Always, pace.Never} {
		got, err := pace.ParseLines(strings.ToUpper(l.String()))
		if err != nil || got != l {
			t.Errorf("ParseLines(%q) = %v, %v; want %v", strings.ToUpper(l.String()), got, err, l)
		}
	}
	if _, err := pace.ParseLines("sometimes"); err == nil {
		t.Error(`ParseLines("sometimes") = nil error, want one`)
	}
}

func TestSite(t *testing.T) {
	for in, want := range map[string]string{
		"https://Example.ORG/a/b?c": "https://example.org",
		"http://example.org:80/x":   "http://example.org",
		"http://127.0.0.1:8080/x":   "http://127.0.0.1:8080",
		"https://example.org.:443/": "https://example.org",
	} {
		if got, err := pace.Site(in); err != nil || got != want {
			t.Errorf("Site(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := pace.Site("ftp://example.org/"); err == nil {
		t.Error(`Site("ftp://example.org/") = nil error, want one`)
	}
}
