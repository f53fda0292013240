package jsonview

import (
	"github.com/sitetxt/sitetxt/aipref"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/robots"
)

// Usage is the usage preference of a path, its two sources kept
// apart: ContentUsage is draft-ietf-aipref's field in its vocabulary,
// ContentSignal Cloudflare's field in its own names and values, and
// Derived sitetxt's own combination of the two, labelled as such.
type Usage struct {
	ContentUsage  ContentUsage  `json:"content_usage"`
	ContentSignal ContentSignal `json:"content_signal"`
	Derived       Derived       `json:"derived"`
}

// ContentUsage is what the Content-Usage rules with the longest
// matching path say (draft-ietf-aipref-attach-05 section 3): per category
// of draft-ietf-aipref-vocab-08, allow, disallow or unknown.
type ContentUsage struct {
	TrainAI string `json:"train_ai"`
	AIUse   string `json:"ai_use"`
	Search  string `json:"search"`
	Lines   []Line `json:"lines"`
}

// ContentSignal is what the Content-Signal lines say, under the
// Content Signals Policy's own names: per signal allow (the policy's
// "yes"), disallow ("no") or unknown (not stated), the words every
// sitetxt output uses; Use is use='s value (immediate, reference, full)
// or unknown.
type ContentSignal struct {
	Search  string `json:"search"`
	AIInput string `json:"ai_input"`
	AITrain string `json:"ai_train"`
	Use     string `json:"use"`
	Lines   []Line `json:"lines"`
}

// Derived is sitetxt's combined view (aipref.Derive): By is always
// "sitetxt", since no standard maps one field onto the other; the *From
// fields name the field that decided each category (content-usage,
// content-signal, both or none). When the crawler is one the registry
// knows and its purpose is a category of the vocabulary, Purpose names
// it, Answer is the preference that governs that use, and Overridden
// lists the categories that state something but do not govern it: for a
// crawler whose purpose is search, train-ai and ai-use
// (draft-ietf-aipref-vocab-08 section 4.3).
type Derived struct {
	By          string   `json:"by"`
	TrainAI     string   `json:"train_ai"`
	AIUse       string   `json:"ai_use"`
	Search      string   `json:"search"`
	TrainAIFrom string   `json:"train_ai_from"`
	AIUseFrom   string   `json:"ai_use_from"`
	SearchFrom  string   `json:"search_from"`
	Purpose     string   `json:"purpose,omitempty"`
	Answer      string   `json:"answer,omitempty"`
	Overridden  []string `json:"overridden,omitempty"`
}

// IsZero reports whether neither field states anything.
func (u *Usage) IsZero() bool {
	d := u.Derived
	return d.TrainAIFrom == "none" && d.AIUseFrom == "none" && d.SearchFrom == "none" && u.ContentSignal.Use == "unknown"
}

// Purposer is a crawler whose purpose may be a category of the
// vocabulary (*audit.Crawler; a nil one has none).
type Purposer interface {
	Purpose() (aipref.Category, bool)
}

// UsageOf returns the JSON form of a usage decision for crawler c (nil, or
// a nil *audit.Crawler, when the registry does not know it), or nil when no
// preference applies (the URL may not be fetched).
func UsageOf(file string, u robots.UsageDecision, c Purposer) *Usage {
	if !u.Applies {
		return nil
	}
	d := u.Derived()
	uv := &Usage{
		ContentUsage: ContentUsage{TrainAI: u.Usage.TrainAI.String(), AIUse: u.Usage.AIUse.String(),
			Search: u.Usage.Search.String(), Lines: []Line{}},
		ContentSignal: ContentSignal{Search: u.Signal.Search.String(), AIInput: u.Signal.AIInput.String(),
			AITrain: u.Signal.AITrain.String(), Use: u.Signal.Use.String(), Lines: []Line{}},
		Derived: Derived{By: "sitetxt", TrainAI: d.Usage.TrainAI.String(), AIUse: d.Usage.AIUse.String(),
			Search: d.Usage.Search.String(), TrainAIFrom: string(d.From[aipref.TrainAI]),
			AIUseFrom: string(d.From[aipref.AIUse]), SearchFrom: string(d.From[aipref.Search])},
	}
	if p, ok := purposeOf(c); ok {
		uv.Derived.Purpose, uv.Derived.Answer = p.Label(), d.Usage.Get(p).String()
		for _, o := range d.Usage.Overridden(p) {
			uv.Derived.Overridden = append(uv.Derived.Overridden, o.Label())
		}
	}
	for _, r := range u.Rules {
		uv.ContentUsage.Lines = append(uv.ContentUsage.Lines, LineOf(file, r.Line, r.Line.Value))
	}
	for _, s := range u.Signals {
		uv.ContentSignal.Lines = append(uv.ContentSignal.Lines, LineOf(file, s.Line, s.Line.Value))
	}
	return uv
}

// DecisionUsage is the "usage" of a decision object (check -o json,
// serve's results, the tester): UsageOf, or nil when no Content-Usage
// or Content-Signal line applies to the URL, so that a file with usage
// lines for other crawlers or paths adds nothing to the answers they do
// not speak to (a batch's JSON and text carry a usage block only where a
// line applies).
func DecisionUsage(file string, u robots.UsageDecision, c Purposer) *Usage {
	if len(u.Rules) == 0 && len(u.Signals) == 0 {
		return nil
	}
	return UsageOf(file, u, c)
}

// purposeOf is c's purpose, none for a nil c.
func purposeOf(c Purposer) (aipref.Category, bool) {
	if c == nil {
		return 0, false
	}
	return c.Purpose()
}

// Line is a line of a file that says something file-wide or about a
// path (a License, a Sitemap, a usage rule, an unknown User-agent): what
// it says and where.
type Line struct {
	Value  string `json:"value"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// LineOf is the Line of l in file, saying v.
func LineOf(file string, l *grammar.Line, v string) Line {
	return Line{Value: v, File: file, Line: l.Pos.Line, Column: l.Pos.Column}
}
