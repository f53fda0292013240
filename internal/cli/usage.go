package cli

import (
	"fmt"
	"io"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/audit"
	"github.com/sitetxt/sitetxt/robots"
)

// writeUsage writes a usage preference for people, under its decision.
func writeUsage(w io.Writer, u *audit.UsageView) error {
	_, err := fmt.Fprintf(w, "  %s\n", usageText(u))
	return err
}

// usageText says a usage preference for people, with the lines it came
// from: "usage: train-ai disallow, ai-use unknown, search allow (line 11)".
func usageText(u *audit.UsageView) string {
	return fmt.Sprintf("usage: train-ai %s, ai-use %s, search %s%s", u.TrainAI, u.AIUse, u.Search, usageLines(u))
}

// usageLineJSON is the typed reading of a usage-preference line in parse
// -o json: Content-Usage (draft-ietf-aipref-attach), Content-Signal
// (Cloudflare) or License (RSL 1.0).
type usageLineJSON struct {
	Type       string `json:"type" yaml:"type"` // content-usage, content-signal or license
	Path       string `json:"path,omitempty" yaml:"path,omitempty"`
	Preference string `json:"preference,omitempty" yaml:"preference,omitempty"` // Content-Usage: the expression as written
	TrainAI    string `json:"train_ai,omitempty" yaml:"train_ai,omitempty"`
	AIUse      string `json:"ai_use,omitempty" yaml:"ai_use,omitempty"`
	Search     string `json:"search,omitempty" yaml:"search,omitempty"`
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
	set := func(v *usageLineJSON, u robots.Usage) {
		v.TrainAI, v.AIUse, v.Search = u.TrainAI.String(), u.AIUse.String(), u.Search.String()
	}
	switch {
	case l.FieldIs("content-usage"):
		v := &usageLineJSON{Type: "content-usage"}
		r, err := robots.ParseContentUsage(l.Value)
		if err != nil {
			v.Error = err.Error()
			return v
		}
		v.Path, v.Preference = r.Path, r.Pref
		set(v, r.Usage)
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
		v.Path = s.Path
		set(v, s.Usage())
		return v
	case l.FieldIs("license") && !dataTxt:
		return &usageLineJSON{Type: "license", URL: l.Value}
	}
	return nil
}
