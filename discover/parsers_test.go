package discover

import (
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/jsonpos"
	"net/url"
	"strings"
	"testing"
)

func TestParseLinkHeader(t *testing.T) {
	base, _ := url.Parse("https://example.org/d/page.html")
	tests := []struct {
		value string
		want  string // href rels type, per link, "|"-separated
		errs  int
	}{
		{`<a.csv>; rel="item"; type="text/csv"`, "https://example.org/d/a.csv item text/csv", 0},
		{`<https://doi.org/10.1/x>; rel=cite-as, </m.jsonld>; rel="describedby"; type="application/ld+json"`,
			"https://doi.org/10.1/x cite-as |https://example.org/m.jsonld describedby application/ld+json", 0},
		{`<x?a=1,2>; rel="item"`, "https://example.org/d/x?a=1,2 item ", 0},                      // a comma in the target
		{`<y>; title="a, b; c"; rel="item license"`, "https://example.org/d/y item license ", 0}, // in a quoted value
		{`<z>; rel="item"; rel="license"`, "https://example.org/d/z item ", 0},                   // the first rel counts
		{`<z>; title="never closed`, "", 1},
		{`junk, <ok>; rel=item`, "https://example.org/d/ok item ", 1},
		{`<no-end; rel=item`, "", 1},
		{`<a>`, "", 0}, // no rel: not a link anyone reads
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			links, errs := parseLinkHeader([]string{tt.value}, base)
			var got []string
			for _, l := range links {
				got = append(got, l.href+" "+strings.Join(l.rels, " ")+" "+l.mediaType)
			}
			if g := strings.Join(got, "|"); g != tt.want || len(errs) != tt.errs {
				t.Errorf("parseLinkHeader(%q) = %q, %d errors %v; want %q, %d errors", tt.value, g, len(errs), errs, tt.want, tt.errs)
			}
		})
	}
}

func TestReadHTML(t *testing.T) {
	src := `<html><head><base href="/sub/">
<!-- <script type="application/ld+json">{"no": 1}</script> -->
<script type="application/ld+json; charset=utf-8">{"a": 1}</script>
<script type="text/javascript">var x = "<script type='application/ld+json'>";</script>
<link rel="Item alternate" href="f.csv" type="Text/CSV">
<link rel="cite-as">
</head><body><script type="application/ld+json">{"b": 2}</script></body></html>`
	p := readHTML([]byte(src), "https://example.org/page")
	var got []string
	for _, s := range p.scripts {
		got = append(got, string(s.text)+"@"+src[s.off:s.off+len(s.text)])
	}
	if g := strings.Join(got, " "); g != `{"a": 1}@{"a": 1} {"b": 2}@{"b": 2}` {
		t.Errorf("readHTML scripts = %q, want the two JSON-LD blocks at their offsets", g)
	}
	if len(p.links) != 1 || p.links[0].href != "https://example.org/sub/f.csv" || !p.links[0].has("item") || p.links[0].mediaType != "text/csv" ||
		!strings.HasPrefix(src[p.links[0].off:], "<link rel=\"Item") {
		t.Errorf("readHTML links = %+v, want the one <link> with an href, resolved against <base>, at its offset", p.links)
	}
}

// TestReadLD: terms expand through @vocab, prefixes, term definitions
// (@type @id), a nested @context, and known remote contexts; references
// resolve within the document, to blank nodes too; relative @ids resolve
// against its URL.
func TestReadLD(t *testing.T) {
	src := `{"@context": ["https://schema.org", {"dct": "http://purl.org/dc/terms/", "about": {"@id": "dct:subject", "@type": "@id"}}],
	"@graph": [
	  {"@id": "d1", "@type": "Dataset", "name": [{"@value": "Le nom", "@language": "fr"}, {"@value": "The name", "@language": "en"}],
	   "dct:title": "T", "about": "topic", "creator": {"@id": "#org"}, "publisher": {"@id": "_:ann"}},
	  {"@id": "#org", "@type": "Organization", "name": "Org"},
	  {"@id": "_:ann", "@type": "Person", "name": "Ann"},
	  {"@context": {"@vocab": "http://www.w3.org/ns/dcat#"}, "@type": "Dataset", "keyword": ["a", "b"]}
	]}`
	v, jerr := jsonpos.Parse([]byte(src), jsonpos.Options{})
	if jerr != nil {
		t.Fatal(jerr)
	}
	ld := readLD(v, "https://example.org/cat/doc.jsonld")
	n := ld.byID["https://example.org/cat/d1"]
	if n == nil || !n.is(sdo+"Dataset") {
		t.Fatalf("readLD: no schema.org Dataset https://example.org/cat/d1 in %v", ld.byID)
	}
	checks := []struct{ what, got, want string }{
		{"name (English preferred)", n.text(sdo + "name"), "The name"},
		{"prefixed term", n.text(dct + "title"), "T"},
		{"IRI-typed term", ld.iri(n, dct+"subject"), "https://example.org/cat/topic"},
		{"referenced node's name", ld.name(n, sdo+"creator"), "Org"},
		{"referenced node's type", party(ld.party(n, sdo+"creator")), "Org (Organization)"},
		{"a literal's type", party(ld.party(n, dct+"title")), "T ()"},
		{"referenced blank node", party(ld.party(n, sdo+"publisher")), "Ann (Person)"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("readLD: %s = %q, want %q", c.what, c.got, c.want)
		}
	}
	var dcatNode *ldNode
	for _, m := range ld.nodes {
		if m.is(dcat + "Dataset") {
			dcatNode = m
		}
	}
	if dcatNode == nil || len(dcatNode.props[dcat+"keyword"]) != 2 {
		t.Errorf("readLD: the node with its own @vocab is not a dcat:Dataset with two keywords: %+v", dcatNode)
	}
}

func party(name, typ string) string { return name + " (" + typ + ")" }

func FuzzParseLinkHeader(f *testing.F) {
	f.Add(`<a.csv>; rel="item"; type="text/csv", <b>; rel=cite-as`)
	f.Add(`<x>; title="a\"b, c"; rel="item"`)
	base, _ := url.Parse("https://example.org/")
	f.Fuzz(func(t *testing.T, v string) {
		links, _ := parseLinkHeader([]string{v}, base)
		for _, l := range links {
			if len(l.rels) == 0 {
				t.Errorf("parseLinkHeader(%q): a link without rel: %+v", v, l)
			}
		}
	})
}

func FuzzReadHTML(f *testing.F) {
	f.Add(`<script type="application/ld+json">{"@type": "Dataset"}</script><link rel="item" href="a">`)
	f.Fuzz(func(t *testing.T, src string) {
		p := readHTML([]byte(src), "https://example.org/")
		for _, s := range p.scripts {
			if s.off < 0 || s.off+len(s.text) > len(src) || src[s.off:s.off+len(s.text)] != string(s.text) {
				t.Errorf("readHTML(%q): script at %d is not the page's bytes there", src, s.off)
			}
		}
	})
}

// FuzzJSONLD: any document parses and reads as JSON-LD and as a data.json
// without a panic,
// and where jsonpos puts an error lies inside the document.
func FuzzJSONLD(f *testing.F) {
	f.Add(`{"@context": "https://schema.org", "@type": "Dataset", "name": "x", "distribution": {"contentUrl": "a.csv"}}`)
	f.Add(`{"@graph": [{"@id": "_:a", "@type": "dcat:Dataset"}], "@context": {"dcat": "http://www.w3.org/ns/dcat#"}}`)
	f.Fuzz(func(t *testing.T, src string) {
		v, err := jsonpos.Parse([]byte(src), jsonpos.Options{})
		if err != nil && (err.Offset < 0 || err.Offset > len(src)) {
			t.Errorf("jsonpos.Parse(%q): error offset %d outside the document", src, err.Offset)
		}
		if v != nil {
			r := newRun("https://example.org", Options{})
			d := doc{url: "https://example.org/doc", lines: grammar.NewLineIndex(src)}
			r.ldRecords(d, readLD(v, d.url), "")
			r.dataJSONRecords(d, v)
		}
	})
}
