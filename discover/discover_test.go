package discover

import (
	"github.com/sitetxt/sitetxt/internal/sitetest"
	"sort"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/grammar"
)

// TestSiteEverySource is the scenario: datasets spread over a
// data.txt, a data.json, a DCAT catalog, sitemap-listed schema.org pages
// (one disallowed), a Croissant file and Signposting links. Each dataset
// comes out once with its sources; the disallowed page is never fetched;
// robots.txt is fetched once; every request is paced as robots.txt asks;
// the broken JSON-LD block is a positioned error and the rest is listed.
func TestSiteEverySource(t *testing.T) {
	s := sitetest.FromDir(t, "../testdata/discover/site", nil)
	pacer := &recordingPacer{}
	res := discoverSite(t, s, Options{Pacer: pacer})
	c := res.Catalog
	want := map[string]string{
		"Bird counts":       "data.txt schema.org",
		"River levels":      "data.txt data.json",
		"Air quality":       "data.json dcat",
		"Soil samples":      "dcat",
		"Forest cover":      "croissant signposting",
		"Ocean temperature": "schema.org",
	}
	got := map[string]string{}
	for _, e := range c.Entries {
		var kinds []string
		for _, src := range e.Sources {
			kinds = append(kinds, src.Kind)
		}
		if _, dup := got[e.Title()]; dup {
			t.Errorf("dataset %q listed twice", e.Title())
		}
		got[e.Title()] = strings.Join(kinds, " ")
	}
	for name, kinds := range want {
		if got[name] != kinds {
			t.Errorf("dataset %q: sources %q, want %q", name, got[name], kinds)
		}
	}
	if len(c.Entries) != len(want) {
		t.Errorf("%d datasets, want %d: %v", len(c.Entries), len(want), got)
	}
	// The parties the sources state, with their provenance: the exports
	// take them when no flag gives them.
	parties := []struct{ dataset, key, want, kind string }{
		{"Soil samples", "publisher", "County Environment Office", "dcat"}, // a blank node the catalog describes
		{"River levels", "contact_email", "data@example.org", "data.json"},
		{"Forest cover", "creator", "County Forestry", "croissant"},
		{"Forest cover", "creator_type", "Organization", "croissant"},
	}
	for _, p := range parties {
		for _, e := range c.Entries {
			if e.Title() != p.dataset {
				continue
			}
			if got, from := e.Metadata[p.key], e.Provenance["/metadata/"+p.key]; got != p.want || from.Kind != p.kind {
				t.Errorf("dataset %q %s = %v from %+v, want %q from %s", p.dataset, p.key, got, from, p.want, p.kind)
			}
		}
	}
	if n := s.Hits()["/robots.txt"]; n != 1 {
		t.Errorf("robots.txt fetched %d times, want 1", n)
	}
	if n := s.Hits()["/private/secret.html"]; n != 0 {
		t.Errorf("the disallowed page was fetched %d times, want never", n)
	}
	requests := 0
	for p, n := range s.Hits() {
		if p != "/robots.txt" {
			requests += n
		}
	}
	if len(pacer.paces) != requests {
		t.Errorf("%d requests paced, %d sent past robots.txt: every request waits for its slot", len(pacer.paces), requests)
	}
	for i, p := range pacer.paces {
		if p.Interval.Seconds() != 2 || p.Source != "crawl-delay" {
			t.Errorf("request %d paced at %v (%s), want robots.txt's Crawl-delay: 2", i, p.Interval, p.Source)
		}
	}
	wantDiag(t, c.Diagnostics, "/datasets/ocean.html:4:", "error: JSON-LD block is not JSON at byte")
	wantDiag(t, c.Diagnostics, "/data.json:", `dataset "River levels": name: data.json says "River Levels"`)
	wantDiag(t, c.Diagnostics, "/catalog.jsonld:", `dataset "Air quality": description: dcat says`)
	wantDiag(t, c.Diagnostics, "/:", "/catalog.ttl is text/turtle, not read")
	t.Logf("%d datasets from %d documents; robots.txt fetched %d time; %d requests paced; the disallowed page fetched %d times; %d diagnostics",
		len(c.Entries), len(res.Documents), s.Hits()["/robots.txt"], len(pacer.paces), s.Hits()["/private/secret.html"], len(c.Diagnostics))
	for _, d := range c.Diagnostics {
		t.Log(d)
	}
}

// wantDiag fails unless some diagnostic's text contains both at and msg.
func wantDiag(t *testing.T, ds grammar.Diagnostics, at, msg string) {
	t.Helper()
	var all []string
	for _, d := range ds {
		s := d.Error()
		if strings.Contains(s, at) && strings.Contains(s, msg) {
			return
		}
		all = append(all, s)
	}
	sort.Strings(all)
	t.Errorf("no diagnostic at %q saying %q; got:\n%s", at, msg, strings.Join(all, "\n"))
}

var _ = datatxt.Join
