package discover

import (
	"github.com/sitetxt/sitetxt/internal/sitetest"
	"slices"
	"strings"
	"testing"
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
		{"signposting", []Kind{Signposting}, nil, []string{"$SITE/forest/forest.csv"}, "its Signposting links give no name"},
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
