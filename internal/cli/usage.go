package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/audit"
	"github.com/sitetxt/sitetxt/robots"
)

// writeUsage writes a usage preference for people, under its decision.
func writeUsage(w io.Writer, u *audit.UsageView) error {
	_, err := fmt.Fprintf(w, "  %s\n", usageText(u))
	return err
}

// usageText says a usage preference for people, each field in its own
// terms with its lines, then sitetxt's derived view and which field
// decided it: "usage: Content-Usage train-ai=y (line 20); Content-Signal
// search=yes, ai-train=no (line 21); derived by sitetxt: train-ai
// disallow (Content-Signal ai-train=no is stricter than Content-Usage),
// search allow (Content-Signal)".
func usageText(u *audit.UsageView) string {
	var parts []string
	cu := usageWords("train-ai", u.ContentUsage.TrainAI, "search", u.ContentUsage.Search)
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
	s := "usage: " + strings.Join(parts, "; ")
	// The derived view only where the two fields say different things
	// about one category: then it says which wins and why.
	if d := u.Derived; len(u.ContentUsage.Lines) > 0 && len(u.ContentSignal.Lines) > 0 &&
		(conflict(u.ContentUsage.TrainAI, u.ContentSignal.AITrain) || conflict(u.ContentUsage.Search, u.ContentSignal.Search)) {
		s += "; derived by sitetxt (its own mapping): train-ai " + d.TrainAI + " " + fromWhy(d.TrainAIFrom, u.ContentUsage.TrainAI, u.ContentSignal.AITrain, "ai-train") +
			", search " + d.Search + " " + fromWhy(d.SearchFrom, u.ContentUsage.Search, u.ContentSignal.Search, "search")
	}
	return s
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

func signalWords(s audit.ContentSignalView) string {
	var ps []string
	for _, f := range [][2]string{{"search", s.Search}, {"ai-input", s.AIInput}, {"ai-train", s.AITrain}} {
		if f[1] != "unknown" {
			ps = append(ps, f[0]+" "+f[1])
		}
	}
	return strings.Join(ps, ", ")
}

// fromWhy says which field decided a derived category, and why.
func fromWhy(from, cu, cs, signal string) string {
	switch from {
	case "content-usage":
		if cs != "unknown" {
			return "(Content-Usage disallows, stricter than Content-Signal " + signal + " " + cs + ")"
		}
		return "(from Content-Usage)"
	case "content-signal":
		if cu != "unknown" {
			return "(Content-Signal " + signal + " " + cs + " is stricter than Content-Usage)"
		}
		return "(from Content-Signal " + signal + ")"
	case "both":
		return "(both agree)"
	}
	return "(neither says)"
}

func lineList(ls []audit.Line) string {
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
	Search     string `json:"search,omitempty" yaml:"search,omitempty"`         // Content-Usage and Content-Signal
	AIInput    string `json:"ai_input,omitempty" yaml:"ai_input,omitempty"`     // Content-Signal
	AITrain    string `json:"ai_train,omitempty" yaml:"ai_train,omitempty"`     // Content-Signal
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
			TrainAI: r.Usage.TrainAI.String(), Search: r.Usage.Search.String()}
		if r.Err != nil {
			v.Error = "not a Structured Field Dictionary: " + r.Err.Error()
		}
		return v
	case l.FieldIs("content-signal"):
		v := &usageLineJSON{Type: "content-signal"}
		s, err := robots.ParseContentSignal(l.Value)
		if err != nil {
			v.Error = err.Error()
			return v
		}
		v.Search, v.AIInput, v.AITrain = s.Search.String(), s.AIInput.String(), s.AITrain.String()
		return v
	case l.FieldIs("license") && !dataTxt:
		return &usageLineJSON{Type: "license", URL: l.Value}
	}
	return nil
}
