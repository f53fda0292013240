package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/discover"
	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/audit"
	"github.com/sitetxt/sitetxt/internal/input"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/mobileagent"
	"github.com/sitetxt/sitetxt/robots"
)

// datasetsRequest is the body of POST /v1/datasets: a data.txt given as
// text or by the site to fetch it from, the URL it is published at
// (base; a fetched one's is its own), the agent whose access is decided
// under profile, and the output: "json" (the default: the entries of
// "datasets -o json") or a catalog document (schemaorg, dcat, datajson,
// datapackage, croissant), written as "datasets -o FORMAT" writes it.
//
// What a data.txt cannot say comes from the request, as from the
// command line's flags of the same names: title, publisher, contact and
// contact_email.
type datasetsRequest struct {
	DataTxt      *string `json:"datatxt"`
	Site         string  `json:"site"`
	Base         string  `json:"base"`
	Agent        *string `json:"agent"`
	Profile      string  `json:"profile"`
	Format       string  `json:"format"`
	Title        string  `json:"title"`
	Publisher    string  `json:"publisher"`
	Contact      string  `json:"contact"`
	ContactEmail string  `json:"contact_email"`
	// Discover reads site through these sources (discover.ParseKinds:
	// "all", or kind names) instead of its data.txt only, as
	// "datasets --discover"; MaxPages bounds the pages it reads (at most
	// DiscoverMaxPages).
	Discover []string `json:"discover"`
	MaxPages int      `json:"max_pages"`
}

// exportOptions are the request's answers to what a data.txt cannot say.
func (r *datasetsRequest) exportOptions() datatxt.ExportOptions {
	return datatxt.ExportOptions{Title: r.Title, Publisher: r.Publisher, ContactName: r.Contact, ContactEmail: r.ContactEmail}
}

// datasetsResponse is the answer of POST /v1/datasets in its JSON form.
type datasetsResponse struct {
	File        string                `json:"file"`
	Text        *string               `json:"text,omitempty"`
	Fetch       *jsonview.Fetch       `json:"fetch,omitempty"`
	Datasets    []jsonview.Dataset    `json:"datasets"`
	Diagnostics []jsonview.Diagnostic `json:"diagnostics"`
	// Documents and Stopped are a discovery's: every document it asked
	// for, and the bound that stopped it.
	Documents []discover.Document `json:"documents,omitempty"`
	Stopped   string              `json:"stopped,omitempty"`
}

// datasetsAnswer is the answer of POST /v1/datasets: its JSON form, or
// the catalog document the request asked for, made from the catalog.
type datasetsAnswer struct {
	resp    *datasetsResponse
	catalog *datatxt.Catalog
	format  string
	opts    datatxt.ExportOptions
}

// runDatasets answers a datasets request.
func (s *Server) runDatasets(ctx context.Context, req *datasetsRequest) (*datasetsAnswer, *apiError) {
	c, resp, aerr := s.readDatasets(ctx, req)
	if aerr != nil {
		return nil, aerr
	}
	return &datasetsAnswer{resp: resp, catalog: c, format: req.Format, opts: req.exportOptions()}, nil
}

// maxHeaderDiagnostics bounds the diagnostics a catalog answer carries in
// its Sitetxt-Diagnostics header.
const maxHeaderDiagnostics = 50

// writeAnswer writes the JSON form, or the catalog document as an
// attachment. The document's diagnostics, those "datasets -o FORMAT"
// prints on standard error (the file's, and each field the format needs
// that the file did not give), come with it: Sitetxt-Errors counts the
// errors (the command line then exits 1), Sitetxt-Diagnostics holds the
// first 50 as a JSON array of diagnostic objects (ASCII, \u escapes).
func (a *datasetsAnswer) writeAnswer(s *Server, w http.ResponseWriter) {
	if a.format == "" || a.format == "json" {
		s.writeJSON(w, a.resp)
		return
	}
	var buf bytes.Buffer
	probs, err := datatxt.Export(&buf, a.catalog, a.format, a.opts)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, "export: "+err.Error())
		return
	}
	ds := append(append(grammar.Diagnostics(nil), a.catalog.Diagnostics...), probs.Diagnostics()...)
	ds.Sort()
	w.Header().Set("Sitetxt-Errors", strconv.Itoa(ds.Count(grammar.Error)))
	w.Header().Set("Sitetxt-Diagnostics", asciiJSON(jsonview.Diagnostics(ds[:min(len(ds), maxHeaderDiagnostics)])))
	w.Header().Set("Content-Type", datatxt.MediaType(a.format))
	w.Header().Set("Content-Disposition", `attachment; filename="`+a.format+`.json"`)
	w.Write(buf.Bytes())
}

// readDatasets reads the data.txt of a request and lists its datasets.
func (s *Server) readDatasets(ctx context.Context, req *datasetsRequest) (*datatxt.Catalog, *datasetsResponse, *apiError) {
	if aerr := oneSource(manifest.DataTxt.Name, req.DataTxt, req.Site); aerr != nil {
		return nil, nil, aerr
	}
	if !datatxt.IsCatalogFormat(req.Format) && req.Format != "" && req.Format != "json" {
		return nil, nil, badRequest(`"format" %q: want json, %s`, req.Format, strings.Join(datatxt.CatalogFormats, ", "))
	}
	if req.Base != "" {
		if err := input.Base(req.Base); err != nil {
			return nil, nil, badRequest(`"base": %v`, err)
		}
	}
	agent := agentOr(req.Agent)
	prof, aerr := s.profileOf(req.Profile)
	if aerr != nil {
		return nil, nil, aerr
	}
	if len(req.Discover) > 0 {
		return s.discoverDatasets(ctx, req, agent, prof)
	}
	resp := &datasetsResponse{File: manifest.DataTxt.File}
	text, base := "", req.Base
	if req.DataTxt != nil {
		text = *req.DataTxt
	} else {
		u, aerr := siteURL(req.Site, manifest.DataTxt)
		if aerr != nil {
			return nil, nil, aerr
		}
		res := s.siteFetch.Fetch(fetch.WithLimit(ctx, s.flights), u, fetch.AccessDataTxt)
		resp.File, resp.Fetch = u, s.fetchView(res)
		if res.Status == fetch.Parse {
			text = string(res.Body)
		}
		if base == "" {
			base = res.FinalURL
		}
		resp.Text = &text
	}
	c := datatxt.Parse(resp.File, []byte(text), datatxt.Options{Base: base, Agent: agent,
		Rules: datatxt.CompileRules(robots.Compile, prof)})
	resp.datasetsOf(c)
	return c, resp, nil
}

// datasetsOf fills in the catalog's datasets and diagnostics.
func (resp *datasetsResponse) datasetsOf(c *datatxt.Catalog) {
	resp.Datasets = make([]jsonview.Dataset, 0, len(c.Entries))
	for _, e := range c.Entries {
		resp.Datasets = append(resp.Datasets, jsonview.DatasetOf(e))
	}
	resp.Diagnostics = jsonview.Diagnostics(c.Diagnostics)
}

// agentsRequest is the body of POST /v1/agents: a robots.txt with
// Mobile-agent-server lines, given as text or by the site to fetch it
// from, the URLs to dispatch, the agent and the profile that read its
// Allow and Disallow lines.
type agentsRequest struct {
	Robots  *string  `json:"robots"`
	Site    string   `json:"site"`
	URLs    []string `json:"urls"`
	Agent   *string  `json:"agent"`
	Profile string   `json:"profile"`
}

// agentsResponse is the answer of POST /v1/agents: one answer per URL, as
// "agents -o json" prints them, and the Mobile-agent-server lines'
// diagnostics.
type agentsResponse struct {
	File        string                `json:"file"`
	Text        *string               `json:"text,omitempty"`
	Fetch       *jsonview.Fetch       `json:"fetch,omitempty"`
	Refused     string                `json:"refused,omitempty"` // as POST /v1/test's
	Answers     []jsonview.Agent      `json:"answers"`
	Diagnostics []jsonview.Diagnostic `json:"diagnostics"`
}

func (s *Server) runAgents(ctx context.Context, req *agentsRequest) (*agentsResponse, *apiError) {
	agent, aerr := checkQuestion(req.Robots, req.Site, req.Agent)
	if aerr != nil {
		return nil, aerr
	}
	prof, aerr := s.profileOf(req.Profile)
	if aerr != nil {
		return nil, aerr
	}
	rf, aerr := s.robotsFrom(ctx, req.Robots, req.Site, []robots.Profile{prof})
	if aerr != nil {
		return nil, aerr
	}
	table := mobileagent.Compile(rf.files[0])
	resp := &agentsResponse{File: rf.name, Answers: make([]jsonview.Agent, 0, len(req.URLs)),
		Diagnostics: jsonview.Diagnostics(table.Diagnostics())}
	if rf.fetched {
		resp.Text, resp.Fetch, resp.Refused = &rf.text, rf.fetch, rf.refused
	}
	for _, u := range req.URLs {
		iu, err := input.ReadURL(u)
		if err == nil && rf.fetch != nil {
			err = iu.Governs(rf.fetch.URL)
		}
		if err == nil && rf.refused != "" {
			err = errors.New(rf.refused)
		}
		if err != nil {
			resp.Answers = append(resp.Answers, jsonview.Agent{URL: u, Agent: agent, Profile: prof.String(), File: rf.name, Error: err.Error()})
			continue
		}
		d := table.Dispatch(rf.readings[0], agent, iu.Decide)
		d.URL = u
		resp.Answers = append(resp.Answers, jsonview.AgentOf(d, agent, prof, rf.name))
	}
	return resp, nil
}

// profileOf parses a request's profile, the service's default when "".
func (s *Server) profileOf(name string) (robots.Profile, *apiError) {
	if name == "" {
		return s.cfg.Profile, nil
	}
	p, err := robots.ParseProfile(name)
	if err != nil {
		return 0, badRequest("%v", err)
	}
	return p, nil
}

// crawlers answers GET /v1/crawlers: the registry of known crawlers that
// "sitetxt audit" checks (internal/audit/crawlers.yaml), with where and
// when its facts were read.
func (s *Server) crawlers(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "max-age=3600")
	reg := audit.DefaultRegistry()
	s.writeJSON(w, struct {
		Source   string          `json:"source"`
		Date     string          `json:"date"`
		Crawlers []audit.Crawler `json:"crawlers"`
	}{reg.Source, reg.Date, reg.Crawlers})
}

// asciiJSON is v as compact JSON in ASCII only (other characters as \u
// escapes), fit for an HTTP header.
func asciiJSON(v any) string {
	b, _ := json.Marshal(v)
	var out strings.Builder
	for _, r := range string(b) {
		switch {
		case r < 0x80:
			out.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&out, "\\u%04x\\u%04x", r1, r2)
		default:
			fmt.Fprintf(&out, "\\u%04x", r)
		}
	}
	return out.String()
}
