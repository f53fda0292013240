package aipref

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func TestRobotsTags(t *testing.T) {
	lines := []string{"noindex, nofollow", "googlebot: noai, noimageai", "otherbot: noindex", "unavailable_after: 25 Jun 2010 15:00:00 PST", "max-snippet: 20"}
	tests := []struct {
		agent string
		want  string // directives of the lines that apply, "|" between lines
	}{
		{"Googlebot", "noindex nofollow|noai noimageai|unavailable_after: 25 jun 2010 15:00:00 pst|max-snippet: 20"},
		{"Googlebot/2.1 (+http://www.google.com/bot.html)", "noindex nofollow|noai noimageai|unavailable_after: 25 jun 2010 15:00:00 pst|max-snippet: 20"},
		{"*", "noindex nofollow|unavailable_after: 25 jun 2010 15:00:00 pst|max-snippet: 20"},
		{"OtherBot", "noindex nofollow|noindex|unavailable_after: 25 jun 2010 15:00:00 pst|max-snippet: 20"},
	}
	for _, tt := range tests {
		var got []string
		for _, r := range RobotsTags("X-Robots-Tag", lines, tt.agent) {
			got = append(got, strings.Join(r.Directives, " "))
		}
		if g := strings.Join(got, "|"); g != tt.want {
			t.Errorf("RobotsTags(%q) = %q, want %q", tt.agent, g, tt.want)
		}
	}
}

func TestLinkLicenses(t *testing.T) {
	base, _ := url.Parse("https://news.example/a/page.html")
	tests := []struct {
		lines []string
		want  string
	}{
		{[]string{`<https://news.example/license.xml>; rel="license"; type="application/rsl+xml"`}, "https://news.example/license.xml application/rsl+xml"},
		{[]string{`</license.xml>; rel=license`}, "https://news.example/license.xml "},
		{[]string{`<style.css>; rel=stylesheet, <l.xml>; rel="alternate license"`}, "https://news.example/a/l.xml "},
		{[]string{`<https://x.example/a,b>; rel="license"; title="a, b"`}, "https://x.example/a,b "},
		{[]string{`<https://x.example/l>; rel="nofollow"; rel="license"`}, ""}, // only the first rel counts
		{[]string{`https://x.example/l; rel=license`}, ""},
		// A ';' inside a quoted string does not start a parameter.
		{[]string{`<https://x.example/l>; title="a; rel=license"; rel="nofollow"`}, ""},
		{[]string{`<https://x.example/l>; title="x;y"; rel="license"`}, "https://x.example/l "},
		{[]string{`<https://x.example/l>; rel="license"; type="text/\"rsl\""`}, `https://x.example/l text/"rsl"`},
	}
	for _, tt := range tests {
		var got []string
		for _, l := range LinkLicenses(tt.lines, base) {
			got = append(got, l.URL+" "+l.Type)
		}
		if g := strings.Join(got, "|"); g != tt.want {
			t.Errorf("LinkLicenses(%q) = %q, want %q", tt.lines, g, tt.want)
		}
	}
}

// FuzzHeaders: the header readers never panic, and any text, written as
// a quoted string (RFC 9110 section 5.6.4), is one parameter value read
// back as it was: a quoted title before rel does not hide the license,
// and a quoted type is its text.
func FuzzHeaders(f *testing.F) {
	f.Add(`<a>; rel="license", <b>; rel=x`, "googlebot: noai")
	f.Add(`<a>`, `a; rel=nofollow, "b\`)
	quote := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	f.Fuzz(func(t *testing.T, link, tag string) {
		LinkLicenses([]string{link}, nil)
		RobotsTags("X-Robots-Tag", []string{tag}, "Googlebot")
		q := `"` + quote.Replace(tag) + `"`
		line := `<https://x.example/l>; title=` + q + `; rel="license"; type=` + q
		if got := LinkLicenses([]string{line}, nil); len(got) != 1 || got[0].Type != tag {
			t.Errorf("LinkLicenses(%q) = %+v, want the license of type %q", line, got, tag)
		}
	})
}

func ExampleLinkLicenses() {
	base, _ := url.Parse("https://news.example/page")
	for _, l := range LinkLicenses([]string{`</license.xml>; rel="license"; type="application/rsl+xml"`}, base) {
		fmt.Println(l.URL, l.Type)
	}
	// Output:
	// https://news.example/license.xml application/rsl+xml
}
