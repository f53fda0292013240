package discover

import (
	"bytes"
	"github.com/sitetxt/sitetxt/internal/sitetest"
	"os"
	"path/filepath"
	"testing"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/slowtest"
	"github.com/sitetxt/sitetxt/internal/validators"
)

// TestExportsValidate exports what TestSiteEverySource's site publishes
// in every catalog format, with a publisher and contact and without, and
// runs the real validators: each document is valid, or every field the
// validator names was reported missing by the export (so that the
// command exits 1 naming it). Without the flags, the publisher, creator
// and contact point are those the sources state: the DCAT catalog's
// publisher is the one its datasets' sources name (County Environment
// Office, in the data.json and the DCAT catalog), so DCAT is valid too.
func TestExportsValidate(t *testing.T) {
	slowtest.Only(t, "runs the node validators over 10 documents (about 10 s on 2 cores)")
	node, modules := validators.Find(t)
	s := sitetest.FromDir(t, "../testdata/discover/site", nil)
	c := discoverSite(t, s, Options{Pacer: &recordingPacer{}}).Catalog
	dir := t.TempDir()
	type export struct {
		tag   string
		probs datatxt.Problems
	}
	exports := map[string]export{}
	var docs []validators.Doc
	for tag, opts := range map[string]datatxt.ExportOptions{
		"full": {Publisher: "County Environment Office", ContactName: "Data Desk", ContactEmail: "data@example.org"},
		"bare": {},
	} {
		for _, format := range datatxt.CatalogFormats {
			var buf bytes.Buffer
			probs, err := datatxt.Export(&buf, c, format, opts)
			if err != nil {
				t.Fatalf("Export(%s): %v", format, err)
			}
			out := filepath.Join(dir, tag+"."+format+".json")
			if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			exports[out] = export{tag, probs}
			docs = append(docs, validators.Doc{Format: validators.Format(format, false), File: out})
		}
	}
	results := validators.Run(t, node, modules, dir, docs)
	valid := map[string]int{}
	for _, d := range docs {
		res, x := results[d.File], exports[d.File]
		if res.Valid {
			valid[x.tag]++
			continue
		}
		for _, e := range res.Errors {
			t.Logf("%s %s: %s: %s", x.tag, d.Format, e.Field, e.Message)
		}
		if x.tag == "bare" && d.Format == "dcat" {
			t.Errorf("dcat without flags is invalid: %v; its datasets' sources name one publisher", res.Errors)
		}
		reported := map[string]bool{}
		for _, p := range x.probs {
			if p.Severity == grammar.Error {
				reported[p.Field] = true
				if p.Field == "mediaType" || p.Field == "downloadURL" {
					reported["distribution"] = true
				}
			}
		}
		for _, e := range res.Errors {
			if !reported[e.Field] {
				t.Errorf("%s %s: the validator says %s: %s; the export reported no missing %q", x.tag, d.Format, e.Field, e.Message, e.Field)
			}
		}
		if x.tag == "full" {
			t.Errorf("%s with a publisher and contact is invalid: %v", d.Format, res.Errors)
		}
	}
	t.Logf("%d datasets; exports valid: %d/%d with --publisher and --contact, %d/%d without (each failure named by the export)",
		len(c.Entries), valid["full"], len(datatxt.CatalogFormats), valid["bare"], len(datatxt.CatalogFormats))
}
