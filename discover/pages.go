package discover

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/sitemap"
)

// pagesOf reads the site's pages: the one discovery started from (its
// front page, or the page named), the pages its sitemaps list, and the
// metadata documents they link to on the site, at most MaxPages in all.
func (r *run) pagesOf(ctx context.Context, start *url.URL) {
	first := r.site + "/"
	if start.Path != "" && start.Path != "/" {
		s := *start
		s.Fragment = ""
		first = s.String()
	}
	queue := []pageJob{{first, "page"}}
	queue = r.sitemapPages(ctx, queue)
	for i := 0; i < len(queue); i++ {
		if r.pages >= r.opts.MaxPages {
			if r.result.Stopped == "" {
				r.result.Stopped = fmt.Sprintf("%d pages and linked documents read (max pages): %d more not read", r.opts.MaxPages, len(queue)-i)
			}
			return
		}
		queue = append(queue, r.page(ctx, queue[i])...)
	}
}

// pageJob is a page or linked document to read.
type pageJob struct{ url, as string }

// sitemapPages walks the site's sitemaps (as "sitetxt sitemaps" does: the
// Sitemap lines of its robots.txt, else /sitemap.xml, through indexes)
// and adds the pages they list on the site that robots.txt allows, until
// there are MaxPages to read.
func (r *run) sitemapPages(ctx context.Context, queue []pageJob) []pageJob {
	listed := map[string]bool{queue[0].url: true}
	d := r.sitemapFetcher().Discover(ctx, r.site+"/", siteLister{r})
	for found, f := range d.All() {
		if f != nil {
			r.sitemapFile(f)
			continue
		}
		u := found.URL
		if listed[u] || !r.onSite(u) {
			continue
		}
		listed[u] = true
		if !r.allowed(ctx, u, "page") {
			r.read[u] = true
			continue // robots.txt disallows it: never fetched
		}
		if len(queue) >= r.opts.MaxPages {
			r.result.Stopped = fmt.Sprintf("%d pages (max pages): the sitemaps list more, not read", r.opts.MaxPages)
			break
		}
		queue = append(queue, pageJob{u, "page"})
	}
	if err := d.Err(); err != nil && r.policy != nil {
		r.diag(errorSev, "sitemaps", r.site+"/robots.txt", grammar.Pos{}, r.errText(r.site+"/robots.txt", err))
	}
	if s := d.Stopped(); s != "" && r.result.Stopped == "" {
		r.result.Stopped = s
	}
	return queue
}

// sitemapFile records a sitemap file the walk read, or could not.
func (r *run) sitemapFile(sf *sitemap.File) {
	doc := Document{URL: sf.URL, As: "sitemap", Status: "read"}
	r.diags = append(r.diags, sf.Diagnostics...)
	var refused *fetch.RefusedError
	var se *fetch.StatusError
	switch {
	case sf.Err == nil:
	case errors.As(sf.Err, &refused) && errors.Is(sf.Err, errDisallowed):
		doc.Status, doc.Reason = "disallowed", errDisallowed.Error()
	case errors.As(sf.Err, &refused):
		doc.Status, doc.Reason = "off-site", refused.Err.Error()
	case sf.Guessed && errors.As(sf.Err, &se) && se.Code/100 == 4:
		doc.Status, doc.Reason = "not-found", "robots.txt names no sitemap, and "+sf.Err.Error()
	default:
		doc.Status, doc.Reason = "failed", r.errText(sf.URL, sf.Err)
		r.diag(errorSev, "fetch-failed", sf.URL, grammar.Pos{}, "cannot fetch: "+doc.Reason)
	}
	r.result.Documents = append(r.result.Documents, doc)
}

// page reads one page or linked document: its JSON-LD and its links
// (Link header fields and <link> elements). It returns the metadata
// documents the page links to that are still to read.
func (r *run) page(ctx context.Context, job pageJob) []pageJob {
	res := r.get(ctx, job.url, job.as, job.as == "linked")
	if res == nil {
		return nil
	}
	r.pages++
	final := res.FinalURL
	base, _ := url.Parse(final)
	links, errs := parseLinkHeader(res.Header.Values("Link"), base)
	for _, err := range errs {
		r.diag(warnSev, "bad-link", job.url, grammar.Pos{}, "Link header: "+err.Error()+": that link is not read")
	}
	var lines *grammar.LineIndex
	var title, description string
	switch pageKind(res.ContentType, res.Body) {
	case "html":
		p := readHTML(res.Body, final)
		title, description = p.title, p.description
		lines = grammar.NewLineIndex(string(res.Body))
		for _, s := range p.scripts {
			r.readJSONLD(doc{url: job.url, lines: lines, base: s.off}, s.text, final, "JSON-LD block")
		}
		links = append(links, p.links...)
	case "json":
		lines = grammar.NewLineIndex(string(res.Body))
		r.readJSONLD(doc{url: job.url, lines: lines}, res.Body, "", "JSON-LD document")
	default:
		if job.as == "linked" {
			r.diag(warnSev, "not-read", job.url, grammar.Pos{}, fmt.Sprintf("a %q document: neither HTML nor JSON-LD, not read", res.ContentType))
		}
	}
	if rec := r.signposting(job.url, final, lines, links); rec != nil {
		rec.pageTitle, rec.pageDescription = title, description
		r.add(rec)
	}
	return r.linked(ctx, job.url, links)
}

// jsonTypes are the media types of the metadata documents followed.
var jsonTypes = map[string]bool{"application/ld+json": true, "application/json": true, "": true}

// rdfTypes are RDF syntaxes other than JSON-LD, which discovery does not
// read: no RDF library the Go module proxy serves is kept up.
var rdfTypes = map[string]bool{"text/turtle": true, "application/rdf+xml": true, "text/n3": true,
	"application/n-triples": true, "application/n-quads": true, "application/trig": true}

// linked returns the metadata documents links point to (describedby,
// alternate) that discovery reads: JSON-LD on the site, each once.
func (r *run) linked(ctx context.Context, from string, links []link) []pageJob {
	var out []pageJob
	for _, l := range links {
		if !l.has("describedby") && !l.has("alternate") {
			continue
		}
		mt, _, _ := strings.Cut(l.mediaType, ";")
		mt = strings.TrimSpace(mt)
		switch {
		case rdfTypes[mt]:
			if r.want[DCAT] && !r.read[l.href] {
				r.read[l.href] = true
				r.diag(warnSev, "rdf-not-read", from, grammar.Pos{}, fmt.Sprintf("%s is %s, not read: sitetxt reads DCAT in JSON-LD only", l.href, mt))
			}
		case !jsonTypes[mt] || (mt == "" && !l.has("describedby")):
		case r.read[l.href]:
		case !r.onSite(l.href):
			r.read[l.href] = true
			r.allowed(ctx, l.href, "linked") // recorded as off-site
		default:
			out = append(out, pageJob{l.href, "linked"})
		}
	}
	return out
}
