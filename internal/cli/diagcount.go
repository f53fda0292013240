package cli

import (
	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/lint"
	"github.com/sitetxt/sitetxt/robots"
)

// profileDiagnostics returns the diagnostics lint reports for f, a
// manifest of type typ ("robots" or "datatxt"; yaml for a data.txt in its
// YAML form), read under prof (package lint's ForProfile, shared with
// sitetxt serve): lint, summary, fetch and parse count through it, so one
// file gives one count.
func profileDiagnostics(f *grammar.File, typ string, yaml bool, prof robots.Profile, portability bool) (ds grammar.Diagnostics, leftOut int) {
	return lint.ForProfile(f, typ, yaml, prof, portability)
}

// sourceDiagnostics is profileDiagnostics for a source whose type is told
// by its name and content, as lint --type auto tells it.
func sourceDiagnostics(src *source, f *grammar.File, prof robots.Profile) grammar.Diagnostics {
	typ := manifestType("auto", src.name, src.data)
	yaml := typ == "datatxt" && datatxt.Detect([]byte(src.data)) == datatxt.FormYAML
	ds, _ := profileDiagnostics(f, typ, yaml, prof, false)
	return ds
}
