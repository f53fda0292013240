// Package audit says, for a robots.txt file or a million of them, which
// known crawlers may fetch what, and with which usage preferences.
//
// Since 2023 a robots.txt file answers two questions: may a crawler fetch a
// URL (Allow and Disallow), and may it use what it fetched to train or
// answer with AI (Content-Usage, Content-Signal, License; see package
// robots). Sites name AI crawlers one by one, so the answer depends on
// which crawlers one asks about: the Registry lists the known ones, as data
// (crawlers.yaml, embedded), with their operator, category and the source
// of each fact.
//
// File audits one parsed file for every crawler of the registry under the
// four profiles: whether it may fetch "/" and the given paths, the deciding
// line, the usage preference, and where the profiles disagree. Summary
// counts, over many files, how many block each crawler fully, partly or not
// at all under each profile; it keeps only counts, so it runs in bounded
// memory over any number of files. docs/ai-preferences.md describes how
// the answers are decided.
package audit

import (
	_ "embed"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/sitetxt/sitetxt/aipref"
	"github.com/sitetxt/sitetxt/robots"
	"gopkg.in/yaml.v3"
)

// The categories of crawler, in report order.
const (
	SearchEngine = "search-engine"
	AITraining   = "ai-training"
	AISearch     = "ai-search"
	AIAssistant  = "ai-assistant"
	SEO          = "seo"
	Archive      = "archive"
	Other        = "other"
)

// Categories lists the categories in report order.
var Categories = []string{SearchEngine, AITraining, AISearch, AIAssistant, SEO, Archive, Other}

// categoryTitles are the categories as a sentence names them.
var categoryTitles = map[string]string{
	SearchEngine: "Search engines",
	AITraining:   "AI training crawlers",
	AISearch:     "AI search crawlers",
	AIAssistant:  "AI assistants (user-triggered)",
	SEO:          "SEO crawlers",
	Archive:      "Archive crawlers",
	Other:        "Other crawlers",
}

// CategoryTitle returns the category as a heading names it ("AI training
// crawlers").
func CategoryTitle(c string) string {
	if t, ok := categoryTitles[c]; ok {
		return t
	}
	return c
}

// purposes maps each category of crawler onto the vocabulary category
// its fetches are used for (draft-ietf-aipref-vocab-08 section 4), when
// there is one: sitetxt's mapping, docs/ai-preferences.md says why.
var purposes = map[string]aipref.Category{
	SearchEngine: aipref.Search,  // an index that links to the pages (4.3)
	AITraining:   aipref.TrainAI, // training generative models (4.1)
	AISearch:     aipref.AIUse,   // generated answers grounded in the pages (4.2)
	AIAssistant:  aipref.AIUse,   // pages fetched as a generative model's input (4.2)
}

// Crawler is one entry of the registry.
type Crawler struct {
	Token    string `yaml:"token" json:"token"`
	Operator string `yaml:"operator" json:"operator"`
	Category string `yaml:"category,omitempty" json:"category"`
	// RespectsRobots says whether the operator (or, failing that, the
	// community list) says the crawler obeys robots.txt: yes, no,
	// unclear, or user (its users decide).
	RespectsRobots string `yaml:"respects_robots" json:"respects_robots"`
	// FallsBackTo is the token whose groups the crawler obeys when no
	// group names it (Googlebot-Image obeys Googlebot's), as its
	// operator documents.
	FallsBackTo string `yaml:"falls_back_to,omitempty" json:"falls_back_to,omitempty"`
	// FetchedBy is the crawler that fetches robots.txt and the pages for
	// a token that makes no request of its own (Google-Extended: what
	// Googlebot fetches): its group says how that fetch may be used.
	FetchedBy string   `yaml:"fetched_by,omitempty" json:"fetched_by,omitempty"`
	Note      string   `yaml:"note,omitempty" json:"note,omitempty"`
	Source    []string `yaml:"source,flow" json:"source"`
	// Function is the community list's function for the crawler, which
	// the generated part (airobots.yaml) writes where it names no category
	// (free text), for whoever gives one in crawlers.yaml; empty elsewhere.
	Function string `yaml:"function,omitempty" json:"-"`
}

// Purpose returns the vocabulary category the crawler's fetches are used
// for (see purposes), and false when its category has none or c is nil.
func (c *Crawler) Purpose() (aipref.Category, bool) {
	if c == nil {
		return 0, false
	}
	p, ok := purposes[c.Category]
	return p, ok
}

// ValidToken reports whether the token is a product token as RFC 9309
// section 2.2.1 writes it (ASCII letters, '-' and '_'): a robots.txt line
// can name it exactly.
func (c *Crawler) ValidToken() bool { return robots.ValidAgentName(c.Token) }

// Registry is the list of known crawlers, with where and when its
// facts were read.
type Registry struct {
	// Source names where the facts come from (the community list, its
	// commit and date, and the hand-written part's sources); Date is the
	// day the hand-written part was last read (YYYY-MM-DD).
	Source string `yaml:"source" json:"source"`
	Date   string `yaml:"date" json:"date"`
	// List is the copy of the community list the generated part was read
	// from (airobots.yaml); zero for a registry of one file.
	List     ListRef   `yaml:"-" json:"list"`
	Crawlers []Crawler `yaml:"crawlers" json:"-"`

	byToken map[string]*Crawler // lower-case token -> entry
}

// Find returns the crawler whose token a User-Agent value or product
// token names (compared ignoring case: the whole value, then its product
// token), or nil.
func (r *Registry) Find(agent string) *Crawler {
	for _, k := range []string{strings.TrimSpace(agent), robots.ProductToken(agent)} {
		if r.byToken != nil {
			if c := r.byToken[strings.ToLower(k)]; c != nil {
				return c
			}
			continue
		}
		for i := range r.Crawlers { // a Registry built by hand, not by ParseRegistry
			if strings.EqualFold(r.Crawlers[i].Token, k) {
				return &r.Crawlers[i]
			}
		}
	}
	return nil
}

//go:embed crawlers.yaml
var registryYAML []byte

//go:embed airobots.yaml
var listYAML []byte

// DefaultRegistry returns the registry kept in the repository
// (internal/audit/crawlers.yaml over the generated airobots.yaml), read
// once; the caller must not modify it. It panics if those files are
// invalid, which TestRegistry rules out.
func DefaultRegistry() *Registry {
	defaultOnce.Do(func() {
		r, err := ParseRegistry(registryYAML, listYAML)
		if err != nil {
			panic("audit: crawlers.yaml, airobots.yaml: " + err.Error())
		}
		defaultReg = r
	})
	return defaultReg
}

var (
	defaultOnce sync.Once
	defaultReg  *Registry
)

// sourceAliases are the short source names crawlers.yaml may use.
var sourceAliases = map[string]bool{"ai-robots-txt": true}

// ParseRegistry reads and validates a registry: the hand-written file b
// and, when given, the generated part of the community list (airobots.yaml,
// ListFile). An entry of b whose token the list has (ignoring case)
// overrides each field it gives, in b's order; the list's other names
// follow in the list's order. Every entry of the result has a token
// (unique ignoring case), an operator, a known category and at least one
// source, each an absolute http(s) URL or a known alias.
func ParseRegistry(b []byte, list ...[]byte) (*Registry, error) {
	var r Registry
	if err := yaml.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	for _, lb := range list {
		lf, err := parseListFile(lb)
		if err != nil {
			return nil, fmt.Errorf("list: %w", err)
		}
		r.merge(lf)
	}
	if len(r.Crawlers) == 0 {
		return nil, fmt.Errorf("no crawlers")
	}
	seen := map[string]bool{}
	known := map[string]bool{}
	for _, c := range Categories {
		known[c] = true
	}
	var errs []string
	for i, c := range r.Crawlers {
		at := fmt.Sprintf("crawler %d (%q)", i+1, c.Token)
		switch {
		case strings.TrimSpace(c.Token) == "":
			errs = append(errs, at+": no token")
		case seen[strings.ToLower(c.Token)]:
			errs = append(errs, at+": token listed twice")
		}
		seen[strings.ToLower(c.Token)] = true
		if strings.TrimSpace(c.Operator) == "" {
			errs = append(errs, at+": no operator")
		}
		if !known[c.Category] {
			errs = append(errs, fmt.Sprintf("%s: unknown category %q", at, c.Category))
		}
		if len(c.Source) == 0 {
			errs = append(errs, at+": no source")
		}
		for _, s := range c.Source {
			if sourceAliases[s] {
				continue
			}
			u, err := url.Parse(s)
			if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
				errs = append(errs, fmt.Sprintf("%s: source %q is not an http(s) URL", at, s))
			}
		}
	}
	for i, c := range r.Crawlers {
		at := fmt.Sprintf("crawler %d (%q)", i+1, c.Token)
		switch c.RespectsRobots {
		case "yes", "no", "unclear", "user":
		default:
			errs = append(errs, fmt.Sprintf("%s: respects_robots %q is not yes, no, unclear or user", at, c.RespectsRobots))
		}
		for _, t := range []string{c.FallsBackTo, c.FetchedBy} {
			if t != "" && !seen[strings.ToLower(t)] {
				errs = append(errs, fmt.Sprintf("%s: %q is not in the registry", at, t))
			}
		}
	}
	if r.Source == "" || r.Date == "" {
		errs = append(errs, "the registry names no source or date")
	}
	if r.List.Source != "" {
		r.Source = r.List.String() + "; " + r.Source
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	r.byToken = make(map[string]*Crawler, len(r.Crawlers))
	for i := range r.Crawlers {
		r.byToken[strings.ToLower(r.Crawlers[i].Token)] = &r.Crawlers[i]
	}
	return &r, nil
}

// merge lays the hand-written entries over the list's (overlay), in the
// hand-written order, and appends the list's names the hand-written part
// does not give.
func (r *Registry) merge(lf *ListFile) {
	r.List = lf.ListRef
	hand := map[string]int{}
	for i, c := range r.Crawlers {
		hand[strings.ToLower(c.Token)] = i
	}
	for _, c := range lf.Crawlers {
		if i, ok := hand[strings.ToLower(c.Token)]; ok {
			r.Crawlers[i] = overlay(c, r.Crawlers[i])
			continue
		}
		r.Crawlers = append(r.Crawlers, c)
	}
}

// InvalidTokens returns the crawlers whose token breaks RFC 9309's
// product-token grammar.
func (r *Registry) InvalidTokens() []*Crawler {
	var out []*Crawler
	for i := range r.Crawlers {
		if !r.Crawlers[i].ValidToken() {
			out = append(out, &r.Crawlers[i])
		}
	}
	return out
}
