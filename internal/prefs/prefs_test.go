package prefs

import (
	"context"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/internal/sitetest"
	"github.com/sitetxt/sitetxt/robots"
)

const siteRobots = `User-agent: *
Disallow: /private/
Content-Usage: search=y
Content-Usage: /news/ train-ai=y, ai-use=y
Content-Signal: search=yes, ai-train=no, use=reference
`

// newAsker serves siteRobots and a few pages with preference headers on a
// loopback site.
func newAsker(t *testing.T) (*Asker, *sitetest.Site) {
	site := sitetest.New(t, map[string]string{
		"/robots.txt":   siteRobots,
		"/page":         "hello",
		"/news/a":       "news",
		"/private/x":    "secret",
		"/plain":        "plain",
		"/bad":          "bad",
		"/licensed":     "licensed",
		"/signal":       "signal",
		"/tagged":       "tagged",
		"/other/robots": "x",
	})
	site.SetHeader("/page", "Content-Usage", "train-ai=n")
	site.SetHeader("/news/a", "Content-Usage", "train-ai=n", "search=y")
	site.SetHeader("/private/x", "Content-Usage", "train-ai=y")
	site.SetHeader("/bad", "Content-Usage", "Train-AI=n")
	site.SetHeader("/licensed", "Link", `</license.xml>; rel="license"; type="application/rsl+xml"`)
	site.SetHeader("/signal", "Content-Signal", "ai-train=yes, ai-input=no, use=full")
	site.SetHeader("/tagged", "X-Robots-Tag", "noai, noimageai", "otherbot: noindex")
	f := &fetch.Fetcher{UserAgent: "sitetxt-test"}
	return &Asker{Robots: &robots.Client{Profile: robots.RFC9309, Fetcher: f}, Fetcher: f}, site
}

func TestAsk(t *testing.T) {
	a, site := newAsker(t)
	tests := []struct {
		path    string
		fetched bool
		usage   string // combined train_ai ai_use search, then the statements
		signal  string // combined search ai_input ai_train use
		extra   string // what else the answer must say (a JSON-ish probe on the Result)
	}{
		{"/page", true, "disallow unknown allow [robots.txt line 3 Content-Usage header]", "allow unknown disallow reference", ""},
		{"/news/a", true, "disallow allow allow [robots.txt line 4 Content-Usage header]", "allow unknown disallow reference", ""},
		{"/private/x", false, "unknown unknown unknown []", "unknown unknown unknown unknown", "not fetched"},
		{"/plain", true, "unknown unknown allow [robots.txt line 3]", "allow unknown disallow reference", ""},
		{"/bad", true, "unknown unknown allow [robots.txt line 3 Content-Usage header]", "allow unknown disallow reference", "header error"},
		{"/licensed", true, "unknown unknown allow [robots.txt line 3]", "allow unknown disallow reference", "license " + site.URL + "/license.xml"},
		{"/signal", true, "unknown unknown allow [robots.txt line 3]", "allow disallow disallow reference", ""},
		{"/tagged", true, "unknown unknown allow [robots.txt line 3]", "allow unknown disallow reference", "robots-tag noai noimageai"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			before := site.Hits()[tt.path]
			r := a.Ask(context.Background(), "ExampleBot", site.URL+tt.path)
			if r.Fetched != tt.fetched || (site.Hits()[tt.path] > before) != tt.fetched {
				t.Errorf("Ask(%q).Fetched = %v (requests %d), want %v", tt.path, r.Fetched, site.Hits()[tt.path]-before, tt.fetched)
			}
			c := r.ContentUsage
			if got := c.TrainAI + " " + c.AIUse + " " + c.Search + " [" + strings.Join(c.Statements, " ") + "]"; got != tt.usage {
				t.Errorf("Ask(%q).ContentUsage = %q, want %q", tt.path, got, tt.usage)
			}
			s := r.ContentSignal
			if got := s.Search + " " + s.AIInput + " " + s.AITrain + " " + s.Use; got != tt.signal {
				t.Errorf("Ask(%q).ContentSignal = %q, want %q", tt.path, got, tt.signal)
			}
			switch tt.extra {
			case "not fetched":
				if r.NotFetched == "" || r.Response != nil || r.Headers != nil || r.Allowed {
					t.Errorf("Ask(%q) = %+v, want a disallowed answer that says it was not fetched", tt.path, r)
				}
			case "header error":
				if h := r.Headers.ContentUsage; h == nil || h.Error == "" {
					t.Errorf("Ask(%q).Headers.ContentUsage = %+v, want a parse error", tt.path, h)
				}
			case "":
			default:
				if got := extra(r); got != tt.extra {
					t.Errorf("Ask(%q) headers = %q, want %q", tt.path, got, tt.extra)
				}
			}
		})
	}
}

// extra is every license and X-Robots-Tag line of r's headers, so that a
// line that does not apply (otherbot's) shows.
func extra(r Result) string {
	var items []string
	for _, l := range r.Headers.Licenses {
		items = append(items, "license "+l.URL)
	}
	for _, t := range r.Headers.RobotsTag {
		items = append(items, "robots-tag "+strings.Join(t.Directives, " "))
	}
	return strings.Join(items, " ")
}

// TestAskNoRobots: a site without robots.txt (404) allows everything;
// the header alone speaks.
func TestAskNoRobots(t *testing.T) {
	site := sitetest.New(t, map[string]string{"/page": "x"})
	site.SetHeader("/page", "Content-Usage", "train-ai=n")
	f := &fetch.Fetcher{UserAgent: "sitetxt-test"}
	a := &Asker{Robots: &robots.Client{Profile: robots.RFC9309, Fetcher: f}, Fetcher: f}
	r := a.Ask(context.Background(), "ExampleBot", site.URL+"/page")
	if !r.Allowed || !r.Fetched || r.ContentUsage.TrainAI != "disallow" || r.RobotsTxt != nil || r.Fetch.Meaning != "allow-all" {
		t.Errorf("Ask = %+v, want allowed, fetched, train-ai disallow from the header alone", r)
	}
	if txt := Text(r); !strings.Contains(txt, "Content-Usage header: train-ai=n") {
		t.Errorf("Text = %q, want the header named", txt)
	}
}

// TestAskNoLineApplies: robots.txt has usage lines, but none for this
// crawler: robots_txt is null (as documented), not a block of unknowns.
func TestAskNoLineApplies(t *testing.T) {
	site := sitetest.New(t, map[string]string{
		"/robots.txt": "User-agent: GPTBot\nContent-Usage: train-ai=n\n\nUser-agent: *\nAllow: /\n",
		"/page":       "x",
	})
	f := &fetch.Fetcher{UserAgent: "sitetxt-test"}
	a := &Asker{Robots: &robots.Client{Profile: robots.RFC9309, Fetcher: f}, Fetcher: f}
	if r := a.Ask(context.Background(), "ExampleBot", site.URL+"/page"); !r.Allowed || r.RobotsTxt != nil {
		t.Errorf("Ask(ExampleBot) = allowed %v, robots_txt %+v; want allowed and null", r.Allowed, r.RobotsTxt)
	}
	if r := a.Ask(context.Background(), "GPTBot", site.URL+"/page"); r.RobotsTxt == nil || r.RobotsTxt.ContentUsage.TrainAI != "disallow" {
		t.Errorf("Ask(GPTBot) robots_txt = %+v, want train-ai disallow", r.RobotsTxt)
	}
}
