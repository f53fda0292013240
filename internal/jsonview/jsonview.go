// Package jsonview is the JSON shape of the answers that both the command
// line (docs/cli.md) and the HTTP service of "sitetxt serve" (docs/fleet.md)
// write: the robots.txt decision object (check -o json, diff's verdicts,
// matrix's cells, POST /v1/check; decision.go), a diagnostic (lint -o json,
// and every response that reports a file's problems), a Mobile-agent-server
// answer (agents -o json, POST /v1/agents), a dataset entry (datasets -o
// json, POST /v1/datasets), a comparison of profiles (diff -o json, POST
// /v1/test), a URL a sitemap lists (sitemaps -o json, POST /v1/sitemaps),
// and a path's AI usage preference with the lines that state it (check's
// and audit's "usage", the results of POST /v1/check, /v1/test and
// /v1/prefs; usage.go).
//
// Each output builds them with the functions here, so an answer has one
// shape, built by one piece of code, whoever asks for it. Positions are
// flat ("file", "line", "column"), as everywhere in sitetxt's output.
package jsonview

import (
	"strconv"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/mobileagent"
	"github.com/sitetxt/sitetxt/robots"
	"github.com/sitetxt/sitetxt/sitemap"
)

// Diagnostic is a diagnostic in JSON and YAML: where it starts and ends,
// its severity ("error", "warning"), its code and its message.
type Diagnostic struct {
	File      string `json:"file" yaml:"file"`
	Line      int    `json:"line" yaml:"line"`
	Column    int    `json:"column" yaml:"column"`
	EndLine   int    `json:"end_line" yaml:"end_line"`
	EndColumn int    `json:"end_column" yaml:"end_column"`
	Severity  string `json:"severity" yaml:"severity"`
	Code      string `json:"code" yaml:"code"`
	Message   string `json:"message" yaml:"message"`
}

// DiagnosticOf returns the JSON form of d.
func DiagnosticOf(d *grammar.Diagnostic) Diagnostic {
	s, e := d.Range.Start, d.Range.End
	return Diagnostic{File: d.Filename, Line: s.Line, Column: s.Column, EndLine: e.Line, EndColumn: e.Column,
		Severity: d.Severity.String(), Code: d.Code, Message: d.Summary}
}

// Diagnostics returns the JSON form of ds: an empty list, never null.
func Diagnostics(ds grammar.Diagnostics) []Diagnostic {
	out := make([]Diagnostic, len(ds))
	for i, d := range ds {
		out[i] = DiagnosticOf(d)
	}
	return out
}

// Agent is the answer for one URL of "agents -o json": whether robots.txt
// lets the agent fetch it, and the Mobile-agent-server line that decides
// which server takes a mobile agent for it. Server is null when no line
// matches the URL ("none" when the deciding line says none); Line and
// Column are those of the deciding line, null when none matches.
type Agent struct {
	URL     string  `json:"url"`
	Agent   string  `json:"agent"`
	Profile string  `json:"profile"`
	Allowed bool    `json:"allowed"`
	Server  *string `json:"server"`
	File    string  `json:"file"`
	Line    *int    `json:"line"`
	Column  *int    `json:"column"`
	// Error says why the URL could not be answered (POST /v1/agents;
	// the command line writes {"url", "error"} in its place).
	Error string `json:"error,omitempty"`
}

// AgentOf returns the answer for d, a URL dispatched for agent under
// prof with the Mobile-agent-server lines of file.
func AgentOf(d mobileagent.Dispatched, agent string, prof robots.Profile, file string) Agent {
	v := Agent{URL: d.URL, Agent: agent, Profile: prof.String(), Allowed: d.Allowed, File: file}
	if d.Server != nil {
		s := d.Server.URL
		v.Server = &s
	}
	if d.Rule != nil {
		p := d.Rule.Pos()
		v.Line, v.Column = &p.Line, &p.Column
	}
	return v
}

// Dataset is one entry of "datasets -o json": the entry's view (name,
// paths, URLs, position, access, metadata) and the file that listed it.
type Dataset struct {
	datatxt.EntryView
	File string `json:"file"`
}

// DatasetOf returns the JSON form of e.
func DatasetOf(e *datatxt.Entry) Dataset {
	return Dataset{EntryView: e.View(), File: e.Source}
}

// Comparison is one URL under several profiles ("sitetxt diff -o json",
// each result of POST /v1/test): whether they agree, each profile's
// verdict as a decision object of type V, and why they differ.
type Comparison[V any] struct {
	URL      string   `json:"url"`
	Agent    string   `json:"agent"`
	Agree    bool     `json:"agree"`
	Verdicts []V      `json:"verdicts"`
	Why      []string `json:"why"`
	// Error says why the URL could not be decided (it does not parse, or
	// it is on another origin than the robots.txt fetched); Verdicts is
	// then empty.
	Error string `json:"error,omitempty"`
}

// ComparisonError is the comparison of a URL that could not be decided.
func ComparisonError[V any](url, agent string, err error) Comparison[V] {
	return Comparison[V]{URL: url, Agent: agent, Verdicts: []V{}, Why: []string{}, Error: err.Error()}
}

// ComparisonOf returns the JSON form of c for url and agent, each
// verdict made by verdict (its index in c.Verdicts, and the verdict).
func ComparisonOf[V any](c robots.Comparison, url, agent string, verdict func(i int, v robots.Verdict) V) Comparison[V] {
	out := Comparison[V]{URL: url, Agent: agent, Agree: c.Agree, Why: c.Why, Verdicts: make([]V, 0, len(c.Verdicts))}
	if out.Why == nil {
		out.Why = []string{}
	}
	for i, v := range c.Verdicts {
		out.Verdicts = append(out.Verdicts, verdict(i, v))
	}
	return out
}

// SitemapURL is one URL a sitemap lists, in the shape "sitetxt sitemaps
// -o json" and serve's POST /v1/sitemaps share: the URL, its lastmod
// (normalised), changefreq and priority (null when absent or invalid), the
// sitemap file that listed it, and the extensions it carries. Each output
// adds a robots.txt decision beside it when it has an agent: it embeds
// SitemapURL, and a struct that embeds the decision object, so the
// decision's fields lie one level deeper and SitemapURL's "url" is the one
// that shows (encoding/json drops two fields of one name at the same
// depth).
type SitemapURL struct {
	URL        string             `json:"url"`
	LastMod    *string            `json:"lastmod"`
	ChangeFreq *string            `json:"changefreq"`
	Priority   *float64           `json:"priority"`
	Sitemap    string             `json:"sitemap"`
	Images     []SitemapImage     `json:"images,omitempty"`
	Videos     []SitemapVideo     `json:"videos,omitempty"`
	News       *SitemapNews       `json:"news,omitempty"`
	Alternates []SitemapAlternate `json:"alternates,omitempty"`
}

// SitemapImage is an image:image.
type SitemapImage struct {
	Loc         string `json:"loc"`
	Caption     string `json:"caption,omitempty"`
	Title       string `json:"title,omitempty"`
	GeoLocation string `json:"geo_location,omitempty"`
	License     string `json:"license,omitempty"`
}

// SitemapVideo is a video:video.
type SitemapVideo struct {
	ThumbnailLoc    string `json:"thumbnail_loc,omitempty"`
	Title           string `json:"title,omitempty"`
	Description     string `json:"description,omitempty"`
	ContentLoc      string `json:"content_loc,omitempty"`
	PlayerLoc       string `json:"player_loc,omitempty"`
	Duration        string `json:"duration,omitempty"`
	PublicationDate string `json:"publication_date,omitempty"`
	ExpirationDate  string `json:"expiration_date,omitempty"`
	FamilyFriendly  string `json:"family_friendly,omitempty"`
}

// SitemapNews is a news:news.
type SitemapNews struct {
	Name            string `json:"name,omitempty"`
	Language        string `json:"language,omitempty"`
	PublicationDate string `json:"publication_date,omitempty"`
	Title           string `json:"title,omitempty"`
	Keywords        string `json:"keywords,omitempty"`
}

// SitemapAlternate is an xhtml:link hreflang alternate.
type SitemapAlternate struct {
	Hreflang string `json:"hreflang"`
	Href     string `json:"href"`
}

// SitemapURLOf returns the JSON shape of a URL a discovery found.
func SitemapURLOf(f *sitemap.Found) SitemapURL {
	e := f.Entry
	v := SitemapURL{URL: e.URL, Sitemap: f.Sitemap}
	if !e.LastMod.IsZero() {
		s := e.LastMod.String()
		v.LastMod = &s
	}
	if e.ChangeFreq != "" {
		s := string(e.ChangeFreq)
		v.ChangeFreq = &s
	}
	if e.HasPriority {
		p := e.Priority
		v.Priority = &p
	}
	for _, im := range e.Images {
		v.Images = append(v.Images, SitemapImage(im))
	}
	for _, vi := range e.Videos {
		v.Videos = append(v.Videos, SitemapVideo(vi))
	}
	if n := e.News; n != nil {
		v.News = &SitemapNews{Name: n.Name, Language: n.Language, PublicationDate: n.PublicationDate, Title: n.Title, Keywords: n.Keywords}
	}
	for _, a := range e.Alternates {
		v.Alternates = append(v.Alternates, SitemapAlternate(a))
	}
	return v
}

// Row returns the URL's columns as CSV and text show them: url, lastmod,
// changefreq, priority ("" when absent), sitemap.
func (v SitemapURL) Row() []string {
	row := []string{v.URL, "", "", "", v.Sitemap}
	if v.LastMod != nil {
		row[1] = *v.LastMod
	}
	if v.ChangeFreq != nil {
		row[2] = *v.ChangeFreq
	}
	if v.Priority != nil {
		row[3] = strconv.FormatFloat(*v.Priority, 'f', -1, 64)
	}
	return row
}

// SitemapHeader is the CSV header of SitemapURL.Row.
var SitemapHeader = []string{"url", "lastmod", "changefreq", "priority", "sitemap"}
