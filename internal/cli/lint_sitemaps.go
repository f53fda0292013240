package cli

import (
	"context"
	"fmt"
	neturl "net/url"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/robots"
	"github.com/sitetxt/sitetxt/sitemap"
)

// lintSitemaps follows the Sitemap lines of the robots.txt src (lint
// --sitemaps) and returns what it finds: at each Sitemap line, a sitemap
// that cannot be fetched, is not a sitemap, or lists URLs the robots.txt
// disallows for every crawler ("*", the rules a crawler with no group of
// its own follows); and each sitemap file's own diagnostics, at their
// positions. A robots.txt read from a file is taken to be the robots.txt
// of the sites its Sitemap lines name.
func lintSitemaps(ios *IOStreams, ff *fetchFlags, src *source, prof robots.Profile) grammar.Diagnostics {
	pol := robots.Compile(parseFor(src, prof), prof)
	maps := pol.Sitemaps()
	if len(maps) == 0 {
		return nil
	}
	if err := ff.prepare(ios); err != nil {
		return grammar.Diagnostics{{Severity: grammar.Error, Code: "sitemap-fetch", Filename: src.name, Summary: err.Error()}}
	}
	var urls []string
	for _, m := range maps {
		urls = append(urls, m.URL)
	}
	own := map[string]bool{} // the sites this robots.txt is the robots.txt of
	if src.fetched != nil {
		own[originOf(src.fetched.URL)] = true
	} else {
		for _, u := range urls {
			own[originOf(u)] = true
		}
	}
	lister := &lintLister{own: own, maps: urls, other: newRobotsLister(ff.robotsClient(prof))}
	f := &sitemap.Fetcher{Fetcher: ff.Fetcher()}
	agent := pol.Agent(globalAgent)
	fixed, isFixed := src.fixed()
	var out grammar.Diagnostics
	for _, m := range maps {
		at := grammar.Range{Start: m.Line.FieldPos(), End: m.Line.End()}
		finding := func(sev grammar.Severity, code, format string, args ...any) {
			out = append(out, &grammar.Diagnostic{Severity: sev, Code: code, Filename: src.name, Range: at, Summary: fmt.Sprintf(format, args...)})
		}
		blocked, first := 0, ""
		d := f.Walk(context.Background(), lister, m.URL)
		for found, file := range d.All() {
			if found != nil && own[originOf(found.URL)] {
				dec := fixed
				if !isFixed {
					dec = agent.Decide(found.URL)
				}
				if !dec.Allowed {
					if blocked++; first == "" {
						first = found.URL + ": " + decisionWhy(src.name, dec)
					}
				}
			}
			if file == nil {
				continue
			}
			out = append(out, file.Diagnostics...)
			name := file.URL
			if file.Parent != "" {
				name += " (listed by " + file.Parent + ")"
			}
			switch {
			case file.Err != nil:
				finding(grammar.Error, "sitemap-fetch", "Sitemap %s cannot be fetched: %v", name, file.Err)
			case file.Format == sitemap.Unknown:
				why := "no sitemap in it"
				for _, d := range file.Diagnostics {
					if d.Code == "not-xml" || d.Code == "not-sitemap" {
						why = d.Summary
						break
					}
				}
				finding(grammar.Error, "sitemap-not-xml", "Sitemap %s is not a sitemap: %s", name, why)
			}
		}
		if s := d.Stopped(); s != "" {
			finding(grammar.Warning, "sitemap-stopped", "Sitemap %s: stopped: %s", m.URL, s)
		}
		if blocked > 0 {
			finding(grammar.Error, "sitemap-blocked", "Sitemap %s lists %s that this robots.txt disallows for every crawler (*), the first %s",
				m.URL, plural(blocked, "URL"), first)
		}
	}
	return out
}

// lintLister answers for the sites a linted robots.txt belongs to with its
// own Sitemap lines, and for others with theirs, fetched.
type lintLister struct {
	own   map[string]bool
	maps  []string
	other *robotsLister
}

func (l *lintLister) Sitemaps(ctx context.Context, site string) ([]string, error) {
	if l.own[originOf(site)] {
		return l.maps, nil
	}
	return l.other.Sitemaps(ctx, site)
}

// originOf returns "scheme://host[:port]" of a URL, as the sitemap
// package compares sites, or "" for one that does not parse.
func originOf(u string) string {
	p, err := neturl.Parse(u)
	if err != nil || p.Host == "" {
		return ""
	}
	return sitemap.Origin(p)
}
