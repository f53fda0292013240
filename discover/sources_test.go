package discover

import (
	"slices"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// TestSiteSources reads the test site through one kind of source at a
// time, and through broken copies of its files: each kind gives its own
// datasets, and a broken source is a diagnostic at its URL and position
// while the other sources' datasets are still listed.
func TestSiteSources(t *testing.T) {
	tests := []struct {
		name     string
		kinds    []Kind
		override map[string]string
		want     []string // dataset titles, sorted
		diag     string   // a diagnostic's text, "" for none expected
	}{
		{"data.txt", []Kind{DataTxt}, nil, []string{"Bird counts", "River levels"}, ""},
		{"data.json", []Kind{DataJSON}, nil, []string{"Air quality", "River Levels"}, ""},
		{"dcat", []Kind{DCAT}, nil, []string{"Air quality", "Soil samples"}, "catalog.ttl is text/turtle, not read"},
		{"schema.org", []Kind{SchemaOrg}, nil, []string{"Bird counts", "Ocean temperature"}, "/datasets/ocean.html:4:74: error: JSON-LD block is not JSON at byte 170"},
		{"croissant", []Kind{Croissant}, nil, []string{"Forest cover"}, ""},
		{"signposting", []Kind{Signposting}, nil, []string{"Forest cover"}, ""}, // the landing page's <title>
		{"data.json cut off", nil, map[string]string{"/data.json": `{"dataset": [{"title": "A", "identifier": "a"}, {"title": "B"`},
			[]string{"A", "Air quality", "Bird counts", "Forest cover", "Ocean temperature", "River levels", "Soil samples"},
			"/data.json:1:62: error: data.json is not JSON at byte 61: the document ends inside a JSON value"},
		{"data.json not JSON", []Kind{DataJSON, DataTxt}, map[string]string{"/data.json": "{\n  \"dataset\": [\n    {\"title\": 'x'}\n  ]\n}"},
			[]string{"Bird counts", "River levels"}, "/data.json:3:15: error: data.json is not JSON at byte 31: invalid character"},
		{"no title", []Kind{DataJSON}, map[string]string{"/data.json": `{"dataset": [{"identifier": "https://doi.org/10.9/x", "description": "d"}]}`},
			[]string{"https://doi.org/10.9/x"}, "/data.json:1:14: error: data.json dataset 1 has no title"},
		{"schema.org without a name", []Kind{SchemaOrg}, map[string]string{"/datasets/birds.html": `<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Dataset", "url": "https://x.example/d"}</script>`},
			[]string{"$SITE/datasets/birds.html", "Ocean temperature"}, "/datasets/birds.html:1:36: error: schema.org dataset without a name"},
		{"robots.txt unreachable", nil, map[string]string{"/robots.txt": "status:503"}, nil, "robots.txt: error: unreachable (HTTP 503 Service Unavailable)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sitetest.FromDir(t, "../testdata/discover/site", tt.override)
			res := discoverSite(t, s, Options{Kinds: tt.kinds, Pacer: &recordingPacer{}})
			var got []string
			for _, e := range res.Catalog.Entries {
				got = append(got, strings.ReplaceAll(e.Title(), s.URL, "$SITE"))
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("datasets %q, want %q", got, tt.want)
			}
			if tt.diag != "" {
				wantDiag(t, res.Catalog.Diagnostics, "", tt.diag)
			}
			for _, e := range res.Catalog.Entries {
				for _, src := range e.Sources {
					if tt.kinds != nil && !slices.Contains(tt.kinds, Kind(src.Kind)) {
						t.Errorf("dataset %q has a %s source; only %v were read", e.Title(), src.Kind, tt.kinds)
					}
				}
			}
		})
	}
}

// TestSignpostingPage: a dataset only Signposting describes takes its
// landing page's og:title, else its <title>, as its name and its meta
// description as its description, with the page as their source; other
// sources' names win without a disagreement; a page with no title keeps
// the no-name warning.
func TestSignpostingPage(t *testing.T) {
	const head = `<link rel="type" href="https://schema.org/Dataset"><link rel="cite-as" href="https://doi.org/10.1234/forest">`
	tests := []struct {
		name     string
		kinds    []Kind
		page     string
		wantName string // Title(): its first file's URL for a dataset without a name
		wantDesc string
		noName   bool // the no-name warning expected
	}{
		{"title", []Kind{Signposting}, "<html><head><title>\n  Forest  cover &amp; stands </title>" + head, "Forest cover & stands", "", false},
		{"og:title and description", []Kind{Signposting}, `<html><head><title>Forest | County</title><meta property="og:title" content="Forest cover">` +
			`<meta name="description" content="Tree cover of the county's forests.">` + head, "Forest cover", "Tree cover of the county's forests.", false},
		{"an svg's title is not the page's", []Kind{Signposting}, "<html><head>" + head + "</head><body><svg><title>icon</title></svg>", "$SITE/forest/forest.csv", "", true},
		{"no title", []Kind{Signposting}, "<html><head>" + head, "$SITE/forest/forest.csv", "", true},
		{"other sources' name wins", []Kind{Croissant, Signposting}, "<html><head><title>Forest | County</title>" + head, "Forest cover",
			"Tree cover of the county's forests from aerial surveys, one polygon per stand, 2000 to 2024.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sitetest.FromDir(t, "../testdata/discover/site", map[string]string{"/datasets/forest.html": tt.page})
			c := discoverSite(t, s, Options{Kinds: tt.kinds, Pacer: &recordingPacer{}}).Catalog
			var e *datatxt.Entry
			for _, x := range c.Entries {
				if x.ID == "https://doi.org/10.1234/forest" || strings.Contains(x.Title(), "Forest") {
					e = x
				}
			}
			if e == nil {
				t.Fatalf("no forest dataset in %d entries", len(c.Entries))
			}
			if got := strings.ReplaceAll(e.Title(), s.URL, "$SITE"); got != tt.wantName {
				t.Errorf("name %q, want %q", got, tt.wantName)
			}
			if got := e.Text("description"); got != tt.wantDesc {
				t.Errorf("description %q, want %q", got, tt.wantDesc)
			}
			page := datatxt.SourceRef{Kind: "signposting", URL: s.URL + "/datasets/forest.html"}
			if tt.kinds[0] == Signposting && !tt.noName && e.Provenance["/name"] != page {
				t.Errorf("name's provenance %+v, want %+v", e.Provenance["/name"], page)
			}
			if tt.wantDesc != "" && tt.kinds[0] == Signposting && e.Provenance["/metadata/description"] != page {
				t.Errorf("description's provenance %+v, want %+v", e.Provenance["/metadata/description"], page)
			}
			noName := false
			for _, d := range c.Diagnostics {
				noName = noName || d.Code == "no-name"
				if d.Code == "sources-disagree" {
					t.Errorf("the page's title disagrees with a source: %v", d)
				}
			}
			if noName != tt.noName {
				t.Errorf("no-name warning %v, want %v: %v", noName, tt.noName, c.Diagnostics)
			}
		})
	}
}
