package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/sitemap"
)

// TestCountDiagnostics: a capped list counts the diagnostics it left out,
// in the words of each producer of a capped list (grammar.Diagnostics.Limit,
// the grammar's own cap, sitemap.Reader).
func TestCountDiagnostics(t *testing.T) {
	var many grammar.Diagnostics
	for i := range 250 {
		many = append(many, &grammar.Diagnostic{Severity: grammar.Warning, Code: "x", Summary: fmt.Sprint(i)})
	}
	var xml strings.Builder
	xml.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := range 300 {
		fmt.Fprintf(&xml, "<url><loc>https://other.example/%d</loc></url>\n", i)
	}
	xml.WriteString("</urlset>")
	rd := sitemap.NewReader(strings.NewReader(xml.String()), sitemap.Options{URL: "https://www.example.org/sitemap.xml"})
	for range rd.Entries() {
	}
	for _, tc := range []struct {
		name     string
		ds       grammar.Diagnostics
		errors   int
		warnings int
		notShown int
	}{
		{"Limit", many.Limit(100), 0, 250, 150},
		{"grammar's cap", grammar.ParseString("r", strings.Repeat("\x00\n", 1500), grammar.Options{}).Diagnostics, 0, 3000, 1000},
		{"sitemap.Reader", rd.Diagnostics(), 300, 0, 200},
		{"uncapped", many[:3], 0, 3, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := countDiagnostics(tc.ds)
			if c.bySeverity[grammar.Error] != tc.errors || c.bySeverity[grammar.Warning] != tc.warnings || c.notShown != tc.notShown {
				t.Errorf("countDiagnostics(%d diagnostics) = %v errors, %v warnings, %d not shown; want %d, %d, %d",
					len(tc.ds), c.bySeverity[grammar.Error], c.bySeverity[grammar.Warning], c.notShown, tc.errors, tc.warnings, tc.notShown)
			}
		})
	}
	// The sitemaps command's totals.
	stdout, _, _ := runCLI(t, xml.String(), "sitemaps", "--base", "https://www.example.org/sitemap.xml", "-")
	if want := "0 URLs from 1 sitemap file (300 errors, 0 warnings; 200 of them not printed)\n"; stdout != want {
		t.Errorf("sitemaps totals = %q, want %q", stdout, want)
	}
}
