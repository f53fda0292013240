package discover

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/jsonpos"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/robots"
	"github.com/sitetxt/sitetxt/sitemap"
)

// DefaultMaxPages bounds the pages (and the metadata documents they link
// to) one discovery reads.
const DefaultMaxPages = 100

// Options control a discovery. The zero value reads every kind of
// source as "*" under RFC 9309, with the defaults' bounds and pace.
type Options struct {
	// Kinds are the sources to read; nil means all of them.
	Kinds []Kind
	// Fetcher is the transport every request goes through (robots.txt
	// included, once); nil means a fetch.Fetcher with the defaults. Its
	// MaxSize bounds what is read of each document.
	Fetcher *fetch.Fetcher
	// Profile reads the site's robots.txt; Agent is the crawler whose
	// rules apply ("" means "*"). The requests carry the Fetcher's
	// UserAgent.
	Profile robots.Profile
	Agent   string
	// Robots is the robots.txt client the gate asks, when the caller has
	// one for this Fetcher and Profile (a command's, a service's: one
	// fetch and compile of robots.txt for all its users); nil means one
	// of this discovery.
	Robots *robots.Client
	// MaxPages bounds the pages and linked documents read (the site's
	// front page, the pages its sitemaps list, the metadata files pages
	// link to); 0 means DefaultMaxPages.
	MaxPages int
	// Pace reads the pace the site's robots.txt asks (Crawl-delay,
	// Request-rate, under Profile, at most Pace.Max); Pace.Default is the
	// least time between two requests when it asks for none: 0 means
	// pace.DefaultInterval (1 s), a negative value none.
	Pace pace.Reading
	// Pacer hands out the site's request slots; nil means a pace.Memory
	// of this discovery (a fleet passes its shared one).
	Pacer pace.Pacer
	// DataTxt are the options a data.txt is parsed with (Form, MaxSize,
	// Rules); Base, Agent and Robots are the discovery's. Board bounds
	// following a pins board from it.
	DataTxt datatxt.Options
	Board   datatxt.BoardLimits
	// MaxSitemaps bounds the sitemap files read; 0 means
	// sitemap.DefaultMaxFiles.
	MaxSitemaps int
	// ErrorText, when set, writes the error of a fetch of url that failed
	// for diagnostics and Documents (a service facing strangers says "the
	// site did not answer" where the cause would name an internal
	// address); nil means err.Error().
	ErrorText func(url string, err error) string
}

// Result is what a discovery found.
type Result struct {
	// Site is the site's root URL ("https://example.org/").
	Site string
	// Catalog holds one entry per dataset, merged across sources, each
	// with its Sources and Provenance, and the diagnostics of every
	// source, sorted; the datatxt exports write it as they write a
	// data.txt's.
	Catalog *datatxt.Catalog
	// Documents lists every document the discovery asked for, in order:
	// read, missing, failed, or disallowed and never fetched.
	Documents []Document
	// Stopped says which bound stopped the discovery before it read every
	// page the site lists; "" when none did.
	Stopped string
}

// Document is one document a discovery asked for.
type Document struct {
	URL string `json:"url"`
	// As is what it was asked for as: "robots.txt", "data.txt",
	// "data.json", "catalog.jsonld", "sitemap", "page" or "linked" (a
	// metadata document a page links to).
	As string `json:"as"`
	// Status is "read", "not-found", "failed", "disallowed" (robots.txt
	// disallows it: never fetched) or "off-site" (never fetched).
	Status string `json:"status"`
	// Reason says why, for a status other than "read".
	Reason string `json:"reason,omitempty"`
}

// run is the state of one discovery.
type run struct {
	opts    Options
	site    string // the origin, "https://example.org"
	agent   string
	want    map[Kind]bool
	fetcher *fetch.Fetcher
	client  *robots.Client
	pacer   pace.Pacer
	reading pace.Reading
	policy  *robots.Policy // the site's robots.txt when it parsed
	result  *Result
	records []*record
	diags   grammar.Diagnostics
	read    map[string]bool // documents asked for
	pages   int
	seq     int
}

// Site discovers the datasets site ("https://example.org/", or any URL
// on it) publishes, through each kind of source opts.Kinds names: its
// /data.txt (and the pins board it leads to), /data.json, /catalog.jsonld,
// the JSON-LD blocks and links of its front page and of the pages its
// sitemaps list (within MaxPages), and the metadata documents those
// pages link to on the site. Every request goes through opts.Fetcher
// behind the site's robots.txt, fetched once: a URL it disallows for
// opts.Agent is never fetched, nor is a URL on another site, and requests
// are spaced as it asks (opts.Pace). Entries that several sources
// give for one dataset (one identifier, distribution URL or landing page)
// are merged into one. A source that cannot be read is a diagnostic; the
// others' datasets are still listed. The error is set only when site is
// not an http or https URL.
func Site(ctx context.Context, site string, opts Options) (*Result, error) {
	u, err := url.Parse(site)
	if err != nil || !fetch.IsURL(site) {
		return nil, fmt.Errorf("%s: not an http or https site", site)
	}
	origin, err := fetch.Origin(u)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", site, err)
	}
	r := newRun(origin, opts)
	ctx = fetch.WithGate(ctx, r.gate)
	r.robotsTxt(ctx)
	if r.want[DataTxt] {
		r.dataTxt(ctx)
	}
	if r.want[DataJSON] {
		r.dataJSON(ctx)
	}
	if r.want[DCAT] {
		r.jsonDocument(ctx, origin+"/catalog.jsonld", "catalog.jsonld", "")
	}
	if r.want[DCAT] || r.want[SchemaOrg] || r.want[Croissant] || r.want[Signposting] {
		r.pagesOf(ctx, u)
	}
	r.result.Catalog = r.catalog(ctx)
	return r.result, nil
}

func newRun(origin string, opts Options) *run {
	kinds := opts.Kinds
	if kinds == nil {
		kinds = Kinds
	}
	r := &run{opts: opts, site: origin, agent: opts.Agent, want: map[Kind]bool{}, fetcher: opts.Fetcher,
		pacer: opts.Pacer, read: map[string]bool{}, result: &Result{Site: origin + "/"}}
	for _, k := range kinds {
		r.want[k] = true
	}
	if r.agent == "" {
		r.agent = "*"
	}
	if r.fetcher == nil {
		r.fetcher = &fetch.Fetcher{}
	}
	if r.pacer == nil {
		r.pacer = pace.NewMemory(pace.Options{})
	}
	r.reading = opts.Pace
	if r.opts.MaxPages <= 0 {
		r.opts.MaxPages = DefaultMaxPages
	}
	r.client = opts.Robots
	if r.client == nil {
		r.client = &robots.Client{Profile: opts.Profile, Fetcher: r.fetcher}
	}
	return r
}

// errDisallowed is the refusal of a URL the site's robots.txt disallows.
var errDisallowed = errors.New("robots.txt disallows it")

// errOffSite is the refusal of a URL on another site.
var errOffSite = errors.New("it is on another site than the one discovered")

// gate is asked before every request the discovery's Fetcher sends
// (fetch.Gate): robots.txt goes (it is the gate), a URL on another site
// or one robots.txt disallows does not, and the others wait for the
// site's next slot.
func (r *run) gate(ctx context.Context, u string) error {
	if isRobotsTxt(u) {
		return nil
	}
	if !r.onSite(u) {
		return errOffSite
	}
	a, err := r.client.Check(ctx, r.agent, u)
	if err != nil {
		return err
	}
	if !a.Allowed {
		return errDisallowed
	}
	p := r.reading.Of(a.Policy(), r.agent)
	site, err := pace.Site(u)
	if err != nil {
		return err
	}
	wait, err := r.pacer.Acquire(ctx, site, p)
	if err != nil || wait <= 0 {
		return err
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func isRobotsTxt(u string) bool {
	p, err := url.Parse(u)
	return err == nil && p.Path == "/robots.txt"
}

// onSite reports whether u is on the discovered site.
func (r *run) onSite(u string) bool {
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	o, err := fetch.Origin(p)
	return err == nil && o == r.site
}

// robotsTxt fetches the site's robots.txt (once: every later decision
// reads the same compiled copy) and says what it means.
func (r *run) robotsTxt(ctx context.Context) {
	robotsURL := r.site + "/robots.txt"
	a, err := r.client.Check(ctx, r.agent, r.site+"/")
	doc := Document{URL: robotsURL, As: "robots.txt", Status: "read"}
	switch {
	case err != nil:
		doc.Status, doc.Reason = "failed", err.Error()
	case a.Status == fetch.Parse:
		r.policy = a.Policy()
		for _, d := range r.reading.Of(r.policy, r.agent).Diagnostics {
			r.diags = append(r.diags, d)
		}
	case a.Err != nil || a.Status != fetch.AllowAll:
		reason := a.Reason
		if a.Err != nil && r.opts.ErrorText != nil {
			reason = r.opts.ErrorText(robotsURL, a.Err) + ": everything is disallowed"
		}
		doc.Status, doc.Reason = "failed", reason
		r.diag(errorSev, "robots-unreachable", robotsURL, grammar.Pos{}, reason+": nothing on the site is fetched")
	default:
		doc.Status, doc.Reason = "not-found", a.Reason
	}
	r.result.Documents = append(r.result.Documents, doc)
	r.read[robotsURL] = true
}

// allowed reports whether the discovery may ask for u, and records it as
// a Document when it may not.
func (r *run) allowed(ctx context.Context, u, as string) bool {
	if !r.onSite(u) {
		r.result.Documents = append(r.result.Documents, Document{URL: u, As: as, Status: "off-site", Reason: errOffSite.Error()})
		return false
	}
	if a, err := r.client.Check(ctx, r.agent, u); err != nil || !a.Allowed {
		reason := errDisallowed.Error()
		if a != nil && a.Decision != nil {
			reason = fmt.Sprintf("robots.txt disallows it for %s: %s", r.agent, a.Decision)
		} else if a != nil && a.Err != nil {
			reason = "robots.txt could not be read, which disallows everything"
		} else if a != nil {
			reason = "robots.txt: " + a.Reason
		}
		r.result.Documents = append(r.result.Documents, Document{URL: u, As: as, Status: "disallowed", Reason: reason})
		return false
	}
	return true
}

// get fetches a document the discovery reads itself, once, behind
// robots.txt: nil when it is disallowed, off-site, missing or failed
// (each recorded as a Document, failures as diagnostics too).
func (r *run) get(ctx context.Context, u, as string, missingIsError bool) *fetch.Result {
	if r.read[u] {
		return nil
	}
	r.read[u] = true
	if !r.allowed(ctx, u, as) {
		return nil
	}
	res := r.fetcher.Fetch(ctx, u, fetch.AccessDocument)
	doc := Document{URL: u, As: as, Status: "read"}
	switch {
	case res.Status == fetch.Parse:
		if res.Truncated {
			r.diag(warnSev, "too-large", u, grammar.Pos{}, fmt.Sprintf("larger than %d bytes (the fetch limit): the rest is not read", len(res.Body)))
		}
	case res.Status == fetch.NotFound:
		doc.Status, doc.Reason = "not-found", res.Reason
		if missingIsError {
			r.diag(warnSev, "not-found", u, grammar.Pos{}, "linked, but "+res.Reason)
		}
	default:
		doc.Status, doc.Reason = "failed", res.Reason
		if res.Err != nil {
			doc.Reason = r.errText(u, res.Err)
		}
		r.diag(errorSev, "fetch-failed", u, grammar.Pos{}, "cannot fetch: "+doc.Reason)
	}
	r.result.Documents = append(r.result.Documents, doc)
	if doc.Status != "read" {
		return nil
	}
	return res
}

// errText writes a fetch's error (Options.ErrorText).
func (r *run) errText(u string, err error) string {
	if r.opts.ErrorText != nil {
		return r.opts.ErrorText(u, err)
	}
	return err.Error()
}

// dataTxt reads /data.txt, following its pins board.
func (r *run) dataTxt(ctx context.Context) {
	u := r.site + "/data.txt"
	r.read[u] = true
	if !r.allowed(ctx, u, "data.txt") {
		return
	}
	popts := r.opts.DataTxt
	popts.Agent, popts.Base = r.agent, ""
	if r.policy != nil {
		popts.Robots, popts.RobotsSite = r.policy, r.site+"/robots.txt"
	}
	f := &datatxt.Fetcher{Fetcher: r.fetcher}
	c, err := f.Discover(ctx, r.site+"/", popts, r.opts.Board)
	doc := Document{URL: u, As: "data.txt", Status: "read"}
	switch {
	case errors.Is(err, datatxt.ErrNoDataTxt):
		doc.Status, doc.Reason = "not-found", "no data.txt"
	case err != nil:
		doc.Status, doc.Reason = "failed", r.errText(u, err)
		r.diag(errorSev, "fetch-failed", u, grammar.Pos{}, doc.Reason)
	}
	r.result.Documents = append(r.result.Documents, doc)
	if c == nil {
		return
	}
	r.diags = append(r.diags, c.Diagnostics...)
	for _, e := range c.Entries {
		rec := &record{kind: DataTxt, src: e.Source, pos: e.Pos, name: e.Name, entry: e, meta: map[string]any{}}
		for k, v := range e.Metadata {
			rec.meta[k] = v
		}
		for _, eu := range e.URLs {
			if isAbsURL(eu) {
				rec.files = append(rec.files, file{url: eu, size: -1})
			}
		}
		r.add(rec)
	}
}

// dataJSON reads /data.json.
func (r *run) dataJSON(ctx context.Context) {
	u := r.site + "/data.json"
	res := r.get(ctx, u, "data.json", false)
	if res == nil {
		return
	}
	d := doc{url: u, lines: grammar.NewLineIndex(string(res.Body))}
	root, jerr := jsonpos.Parse(res.Body, jsonpos.Options{})
	if jerr != nil {
		r.notJSON(d, jerr, "data.json")
	}
	if root != nil {
		for _, rec := range r.dataJSONRecords(d, root) {
			r.add(rec)
		}
	}
}

// notJSON reports a document (or block) that is not JSON, at the byte
// where it breaks.
func (r *run) notJSON(d doc, err *jsonpos.Error, what string) {
	r.diag(errorSev, "not-json", d.url, d.at(err.Offset),
		fmt.Sprintf("%s is not JSON at byte %d: %s; the datasets it completes before that are read", what, d.base+err.Offset, err.Msg))
}

// jsonDocument reads a JSON-LD document of its own: /catalog.jsonld, or a
// metadata file a page links to.
func (r *run) jsonDocument(ctx context.Context, u, as, page string) {
	res := r.get(ctx, u, as, as == "linked")
	if res == nil {
		return
	}
	r.readJSONLD(doc{url: u, lines: grammar.NewLineIndex(string(res.Body))}, res.Body, "", "JSON-LD document")
}

// readJSONLD reads the datasets of a JSON-LD document or block.
func (r *run) readJSONLD(d doc, body []byte, page, what string) {
	root, jerr := jsonpos.Parse(body, jsonpos.Options{})
	if jerr != nil {
		r.notJSON(d, jerr, what)
	}
	if root == nil {
		return
	}
	ld := readLD(root, d.url)
	for _, c := range ld.unknown {
		r.diag(warnSev, "remote-context", d.url, d.at(root.Offset),
			fmt.Sprintf("remote @context %s is not fetched: terms it defines are not read (prefixed and absolute ones are)", c))
	}
	for _, rec := range r.ldRecords(d, ld, page) {
		r.add(rec)
	}
}

// add keeps a record of a kind the discovery reads.
func (r *run) add(rec *record) {
	if !r.want[rec.kind] {
		return
	}
	r.seq++
	rec.seq = r.seq
	r.records = append(r.records, rec)
}

const (
	errorSev = grammar.Error
	warnSev  = grammar.Warning
)

// diag records a diagnostic of the document at file.
func (r *run) diag(sev grammar.Severity, code, file string, at grammar.Pos, msg string) {
	r.diags = append(r.diags, &grammar.Diagnostic{Severity: sev, Code: code, Summary: msg, Filename: file,
		Range: grammar.Range{Start: at, End: at}})
}

// siteLister gives the sitemap walk the Sitemap lines of the site's own
// robots.txt (the same compiled copy), and none for other sites: a
// discovery reads one site, and one robots.txt.
type siteLister struct{ r *run }

func (l siteLister) Sitemaps(ctx context.Context, site string) ([]string, error) {
	if !l.r.onSite(site) {
		return nil, nil
	}
	return l.r.client.Sitemaps(ctx, site)
}

// sitemapFetcher is the walk of the site's sitemaps.
func (r *run) sitemapFetcher() *sitemap.Fetcher {
	return &sitemap.Fetcher{Fetcher: r.fetcher, MaxFiles: r.opts.MaxSitemaps}
}

// pageKind reads a Content-Type: "html", "json", or "" for neither.
func pageKind(contentType string, body []byte) string {
	ct := strings.ToLower(contentType)
	switch {
	case strings.Contains(ct, "html"):
		return "html"
	case strings.Contains(ct, "json"):
		return "json"
	}
	trimmed := strings.TrimLeft(string(body[:min(len(body), 512)]), " \t\r\n\xEF\xBB\xBF")
	switch {
	case strings.HasPrefix(trimmed, "<"):
		return "html"
	case strings.HasPrefix(trimmed, "{"), strings.HasPrefix(trimmed, "["):
		return "json"
	}
	return ""
}
