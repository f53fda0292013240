package discover

import (
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
)

// datasetTypes are the "type" link targets that make a page a dataset's
// landing page.
var datasetTypes = map[string]bool{
	"https://schema.org/dataset": true, "http://schema.org/dataset": true,
	"http://www.w3.org/ns/dcat#dataset": true, "https://www.w3.org/ns/dcat#dataset": true,
}

// signposting returns the dataset a page's FAIR Signposting links
// describe (Link header fields and <link> elements): a page whose links
// give the dataset's files (item) or say it is a Dataset (type) is its
// landing page; cite-as is its identifier, license its licence, item
// links its files with their media types. nil when the links say neither.
// The describedby documents are followed by the caller (linked).
func (r *run) signposting(u, final string, lines *grammar.LineIndex, links []link) *record {
	rec := &record{kind: Signposting, src: u, landing: final, meta: map[string]any{}}
	dataset := false
	first := -1
	for _, l := range links {
		sign := false
		switch {
		case l.has("item"):
			rec.addFile(file{url: l.href, mediaType: mediaTypeOf(l.mediaType), size: -1})
			dataset, sign = true, true
		case l.has("type") && datasetTypes[strings.ToLower(l.href)]:
			dataset, sign = true, true
		}
		if l.has("cite-as") && rec.id == "" {
			rec.id, sign = l.href, true
		}
		if l.has("license") && rec.meta["license"] == nil {
			rec.set("license", l.href)
			sign = true
		}
		if sign && l.off >= 0 && (first < 0 || l.off < first) {
			first = l.off
		}
	}
	if !dataset {
		return nil
	}
	if first >= 0 && lines != nil {
		rec.pos = lines.Pos(first)
	}
	return rec
}
