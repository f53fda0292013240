package cli

import (
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/lint"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// profileDiagnostics returns the diagnostics lint reports for f, a
// manifest of kind k (yaml for one in a YAML form), read under prof (package lint's ForProfile, shared with
// sitetxt serve): lint, summary, fetch and parse count through it, so one
// file gives one count.
func profileDiagnostics(f *grammar.File, k *manifest.Kind, yaml bool, prof robots.Profile, portability bool) (ds grammar.Diagnostics, leftOut int) {
	return lint.ForProfile(f, k, yaml, prof, portability)
}

// sourceDiagnostics is profileDiagnostics for a source whose kind is told
// by its name and content, as lint --type auto tells it.
func sourceDiagnostics(src *source, f *grammar.File, prof robots.Profile) grammar.Diagnostics {
	k := manifest.Of(src.name, src.data)
	ds, _ := profileDiagnostics(f, k, k.InYAML([]byte(src.data)), prof, false)
	return ds
}
