package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/internal/input"
	"github.com/sitetxt/sitetxt/internal/jsonview"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/sitemap"
)

// The bounds of one POST /v1/sitemaps: the sitemap files it fetches and
// the URLs it answers (a request may ask for fewer); its time is
// Config.RequestTimeout.
const (
	SitemapMaxFiles = 100
	SitemapMaxURLs  = 200000
)

// sitemapCost is what one POST /v1/sitemaps is charged beyond its body
// (Limits.Work): the set of URLs already listed (at most SitemapMaxURLs
// hashes, about 4 MiB), the reader's buffers and longest token, the
// decisions and the answer's encoder. TestHostileServeSitemaps measures a
// serve process under 32 of them.
const sitemapCost = 8 << 20

// sitemapsRequest is the body of POST /v1/sitemaps.
type sitemapsRequest struct {
	// Site is a site ("https://example.org/": the sitemaps its robots.txt
	// lists, or /sitemap.xml) or a sitemap's URL (start there).
	Site string `json:"site"`
	// Agent, when set, decides each URL against its site's robots.txt.
	Agent   string `json:"agent"`
	Profile string `json:"profile"`
	// MaxURLs bounds the URLs answered; 0 or more than SitemapMaxURLs
	// means SitemapMaxURLs.
	MaxURLs int `json:"max_urls"`
}

// sitemapsHeader is the first line of the answer: the question, said
// once, as it was read: the site (a host name read as https, input.Site),
// the agent (null without one) and the profile deciding the URLs.
type sitemapsHeader struct {
	Header struct {
		Site    string  `json:"site"`
		Agent   *string `json:"agent"`
		Profile string  `json:"profile"`
	} `json:"header"`
}

// sitemapLine is one line of the answer: a URL (sitetxt sitemaps -o json),
// with the decision of POST /v1/check when an agent was given, less its
// "agent": the header says it once, not on every line (an agent may be
// MaxAgent bytes, a sitemap SitemapMaxURLs lines).
type sitemapLine struct {
	jsonview.SitemapURL
	*sitemapDecision
}

// sitemapDecision holds the decision one level below the URL, so that the
// URL's "url" is the one that shows (jsonview.SitemapURL). Its own
// "agent", always nil, hides the decision's (encoding/json writes the
// least nested of two fields of one name, and omits a nil one).
type sitemapDecision struct {
	Result
	Agent *struct{} `json:"agent,omitempty"`
}

// sitemapsSummary is the last line of the answer.
type sitemapsSummary struct {
	Summary struct {
		URLs       int               `json:"urls"`
		Disallowed *int              `json:"disallowed,omitempty"`
		Files      []sitemapFileJSON `json:"files"`
		Stopped    string            `json:"stopped"`
		Error      string            `json:"error"`
	} `json:"summary"`
}

// sitemapFileJSON is one sitemap file read, in the summary.
type sitemapFileJSON struct {
	URL      string `json:"url"`
	Parent   string `json:"parent"`
	Format   string `json:"format"`
	URLs     int    `json:"urls"`
	Repeated int    `json:"repeated"`
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
	Error    string `json:"error"`
}

// sitemaps answers POST /v1/sitemaps: a header line (the site, agent and
// profile), the URLs a site's sitemaps list, as JSON Lines written as
// they are found, then a summary line. The fetches
// go through the guarded client (no private addresses unless
// AllowPrivate), within the process-wide fetch cap, and the robots.txt
// cache the decisions use; the gate has charged the request sitemapCost.
func (s *Server) sitemaps(ctx context.Context, w http.ResponseWriter, req *sitemapsRequest) *apiError {
	site, err := input.Site(req.Site)
	if err != nil {
		return badRequest(`"site": %v (a site, or a sitemap's URL)`, err)
	}
	prof, aerr := s.profileOf(req.Profile)
	if aerr != nil {
		return aerr
	}
	if req.MaxURLs <= 0 || req.MaxURLs > SitemapMaxURLs {
		req.MaxURLs = SitemapMaxURLs
	}
	c := s.clients[prof]
	d := manifest.SitemapsOf(ctx, s.sitemapFetch, c, site)
	w.Header().Set("Content-Type", "application/x-ndjson")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	var head sitemapsHeader
	head.Header.Site, head.Header.Profile = site, prof.String()
	if req.Agent != "" {
		head.Header.Agent = &req.Agent
	}
	if err := enc.Encode(head); err != nil {
		return nil // the client went away
	}
	flusher, _ := w.(http.Flusher)
	var sum sitemapsSummary
	disallowed := 0
	for found, file := range d.All() {
		if file != nil {
			sum.Summary.Files = append(sum.Summary.Files, s.fileJSON(file))
			continue
		}
		if sum.Summary.URLs >= req.MaxURLs {
			sum.Summary.Stopped = fmt.Sprintf("%d URLs answered (max_urls, at most %d)", req.MaxURLs, SitemapMaxURLs)
			break
		}
		line := sitemapLine{SitemapURL: jsonview.SitemapURLOf(found)}
		if req.Agent != "" {
			a, err := c.Check(ctx, req.Agent, found.URL)
			line.sitemapDecision = &sitemapDecision{Result: s.decisionOf(found.URL, req.Agent, prof, a, err)}
			if !line.Allowed {
				disallowed++
			}
		}
		if err := enc.Encode(line); err != nil {
			return nil // the client went away
		}
		if sum.Summary.URLs++; flusher != nil && sum.Summary.URLs%64 == 1 {
			flusher.Flush()
		}
	}
	if sum.Summary.Stopped == "" {
		sum.Summary.Stopped = d.Stopped()
	}
	if err := d.Err(); err != nil {
		// Why the site's robots.txt gave no sitemaps.
		robotsURL, _ := fetch.ManifestURL(site, manifest.Robots.File)
		sum.Summary.Error = s.publicFetchError(robotsURL, err)
	}
	if req.Agent != "" {
		sum.Summary.Disallowed = &disallowed
	}
	if sum.Summary.Files == nil {
		sum.Summary.Files = []sitemapFileJSON{}
	}
	if rec, ok := w.(*recorder); ok {
		rec.urls = sum.Summary.URLs
	}
	if err := enc.Encode(sum); err != nil {
		s.log.Debug("writing response", "err", err)
	}
	return nil
}

// fileJSON is a sitemap file read, for the summary; why it could not be
// fetched is told in public words.
func (s *Server) fileJSON(f *sitemap.File) sitemapFileJSON {
	v := sitemapFileJSON{URL: f.URL, Parent: f.Parent, Format: f.Format.String(), URLs: f.URLs, Repeated: f.Repeated,
		Errors: f.Diagnostics.Count(grammar.Error), Warnings: f.Diagnostics.Count(grammar.Warning)}
	if f.Err != nil {
		v.Error = s.publicFetchError(f.URL, f.Err)
	}
	return v
}
