package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sitetxt/sitetxt/aipref"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/robots"
)

// writeUsage writes a usage preference for people, under its decision.
func writeUsage(w io.Writer, u *jsonview.Usage) error {
	_, err := fmt.Fprintf(w, "  %s\n", usageText(u))
	return err
}

// usageText says a usage preference for people, each field in its own
// terms with its lines, then sitetxt's derived view where it adds
// something: which field decided a category the two disagree on, and
// for a crawler whose purpose the registry knows, the answer for that
// use ("usage: Content-Usage train-ai=n, search=y (line 3); derived by
// sitetxt (its own mapping): search use allow (search governs a search
// use whatever train-ai say: draft-ietf-aipref-vocab-08 section 4.3)").
func usageText(u *jsonview.Usage) string {
	s := usageStatements(u)
	if derived := usageDerived(u); len(derived) > 0 {
		s += "; derived by sitetxt (its own mapping): " + strings.Join(derived, ", ")
	}
	return s
}

// usageStatements says what the usage lines state, each field in its own
// terms, with their lines: the first half of usageText.
func usageStatements(u *jsonview.Usage) string {
	var parts []string
	cu := usageWords("train-ai", u.ContentUsage.TrainAI, "ai-use", u.ContentUsage.AIUse, "search", u.ContentUsage.Search)
	if len(u.ContentUsage.Lines) > 0 || cu != "" {
		parts = append(parts, "Content-Usage "+orNothing(cu)+lineList(u.ContentUsage.Lines))
	}
	cs := signalWords(u.ContentSignal)
	if len(u.ContentSignal.Lines) > 0 {
		parts = append(parts, "Content-Signal "+orNothing(cs)+lineList(u.ContentSignal.Lines))
	}
	if len(parts) == 0 {
		return "usage: no Content-Usage or Content-Signal line applies"
	}
	return "usage: " + strings.Join(parts, "; ")
}

// usageDerived says what sitetxt derives from the statements, where it
// says something: which field wins where the two disagree about a
// category, and the crawler's use: the second half of usageText.
func usageDerived(u *jsonview.Usage) []string {
	var derived []string
	// Which field wins, only where the two say different things about
	// one category.
	if len(u.ContentUsage.Lines) > 0 && len(u.ContentSignal.Lines) > 0 {
		d := u.Derived
		for _, c := range []struct{ label, cu, cs, signal, got, from string }{
			{"train-ai", u.ContentUsage.TrainAI, u.ContentSignal.AITrain, "ai-train", d.TrainAI, d.TrainAIFrom},
			{"ai-use", u.ContentUsage.AIUse, u.ContentSignal.AIInput, "ai-input", d.AIUse, d.AIUseFrom},
			{"search", u.ContentUsage.Search, u.ContentSignal.Search, "search", d.Search, d.SearchFrom},
		} {
			if conflict(c.cu, c.cs) {
				derived = append(derived, c.label+" "+c.got+" "+fromWhy(c.from, c.cs, c.signal))
			}
		}
	}
	if d := u.Derived; d.Purpose != "" && (d.Answer != "unknown" || len(d.Overridden) > 0) {
		p := d.Purpose + " use " + d.Answer
		if len(d.Overridden) > 0 {
			p += " (search governs a search use whatever " + strings.Join(d.Overridden, " and ") + " say: draft-ietf-aipref-vocab-08 section 4.3)"
		}
		derived = append(derived, p)
	}
	return derived
}

// conflict reports whether two known preferences differ.
func conflict(a, b string) bool { return a != "unknown" && b != "unknown" && a != b }

func orNothing(s string) string {
	if s == "" {
		return "states nothing"
	}
	return s
}

// usageWords writes the known categories as the vocabulary does.
func usageWords(kv ...string) string {
	var ps []string
	for i := 0; i < len(kv); i += 2 {
		switch kv[i+1] {
		case "allow":
			ps = append(ps, kv[i]+"=y")
		case "disallow":
			ps = append(ps, kv[i]+"=n")
		}
	}
	return strings.Join(ps, ", ")
}

func signalWords(s jsonview.ContentSignal) string {
	var ps []string
	for _, f := range [][2]string{{"search", s.Search}, {"ai-input", s.AIInput}, {"ai-train", s.AITrain}, {"use", s.Use}} {
		if f[1] != "unknown" {
			ps = append(ps, f[0]+" "+f[1])
		}
	}
	return strings.Join(ps, ", ")
}

// fromWhy says which field decided a category the two disagree on.
func fromWhy(from, cs, signal string) string {
	if from == "content-usage" {
		return "(Content-Usage disallows, stricter than Content-Signal " + signal + " " + cs + ")"
	}
	return "(Content-Signal " + signal + " " + cs + " is stricter than Content-Usage)"
}

func lineList(ls []jsonview.Line) string {
	if len(ls) == 0 {
		return ""
	}
	var ns []string
	for _, l := range ls {
		ns = append(ns, strconv.Itoa(l.Line))
	}
	if len(ns) == 1 {
		return " (line " + ns[0] + ")"
	}
	return " (lines " + strings.Join(ns, ", ") + ")"
}

// usageLineJSON is the typed reading of a usage-preference line in parse
// -o json: Content-Usage (draft-ietf-aipref-attach), Content-Signal
// (Cloudflare) or License (RSL 1.0).
type usageLineJSON struct {
	Type       string `json:"type" yaml:"type"` // content-usage, content-signal or license
	Path       string `json:"path,omitempty" yaml:"path,omitempty"`
	Preference string `json:"preference,omitempty" yaml:"preference,omitempty"` // Content-Usage: the expression as written
	TrainAI    string `json:"train_ai,omitempty" yaml:"train_ai,omitempty"`     // Content-Usage
	AIUse      string `json:"ai_use,omitempty" yaml:"ai_use,omitempty"`         // Content-Usage
	Search     string `json:"search,omitempty" yaml:"search,omitempty"`         // Content-Usage and Content-Signal
	AIInput    string `json:"ai_input,omitempty" yaml:"ai_input,omitempty"`     // Content-Signal
	AITrain    string `json:"ai_train,omitempty" yaml:"ai_train,omitempty"`     // Content-Signal
	Use        string `json:"use,omitempty" yaml:"use,omitempty"`               // Content-Signal
	URL        string `json:"url,omitempty" yaml:"url,omitempty"`
	Error      string `json:"error,omitempty" yaml:"error,omitempty"`
}

// looksLikeDataTxt reports whether a file has a Path field ("Path:" or
// "- path:"), as a data.txt does: there "License" is a dataset's license,
// not RSL's.
func looksLikeDataTxt(f *grammar.File) bool {
	for _, l := range f.Lines {
		if l.Kind == grammar.Extension && (l.FieldIs("path") || l.FieldIs("- path")) {
			return true
		}
	}
	return false
}

// usageLineView returns the typed reading of l, or nil for any other line
// (and for License lines of a data.txt).
func usageLineView(l *grammar.Line, dataTxt bool) *usageLineJSON {
	if l.Kind != grammar.Extension || l.NoColon {
		return nil
	}
	switch {
	case l.FieldIs("content-usage"):
		r := robots.ParseContentUsage(l.Value)
		v := &usageLineJSON{Type: "content-usage", Path: r.Path, Preference: r.Pref,
			TrainAI: r.Usage.TrainAI.String(), AIUse: r.Usage.AIUse.String(), Search: r.Usage.Search.String()}
		if r.Err != nil {
			v.Error = "not a Structured Field Dictionary: " + r.Err.Error()
		}
		return v
	case l.FieldIs("content-signal"):
		v := &usageLineJSON{Type: "content-signal"}
		s, err := aipref.ParseSignals(l.Value)
		if err != nil {
			v.Error = err.Error()
			return v
		}
		v.Search, v.AIInput, v.AITrain, v.Use = s.Search.String(), s.AIInput.String(), s.AITrain.String(), s.Use.String()
		return v
	case l.FieldIs("license") && !dataTxt:
		return &usageLineJSON{Type: "license", URL: l.Value}
	}
	return nil
}
