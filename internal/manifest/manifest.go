// Package manifest is the table of the manifests sitetxt reads: robots.txt,
// data.txt, the Mobile-agent-server lines of robots.txt, sitemaps, and Web
// Bot Auth key directories.
// Each kind is one row (Kind): its name, the file it lives in, the access
// method a fetched copy is read with, the interpreter's checks, how it is
// told from another kind, how a URL given where it is expected is read,
// and the commands and endpoints that show it. lint, the CLI and serve
// read the table instead of naming kinds themselves, so that a new kind of
// manifest is a new row (and its interpreter), not a search for every
// place that switches on "robots" and "datatxt".
package manifest

import (
	"context"
	"net/url"
	"strings"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/mobileagent"
	"github.com/sitetxt/sitetxt/robots"
	"github.com/sitetxt/sitetxt/sitemap"
	"github.com/sitetxt/sitetxt/webbotauth"
)

// Kind is one kind of manifest: a row of the table.
type Kind struct {
	// Name names the kind in lint --type, in JSON and in serve's request
	// bodies: "robots", "datatxt", "mobileagent", "sitemap", "signatures".
	Name string
	// File is the file at a site's root the kind lives in: a URL naming
	// the site where the manifest is expected means this file.
	File string
	// In is the Name of the kind whose file holds this kind's lines
	// (Mobile-agent-server lines live in robots.txt), "" for a file of its
	// own. A file's checks are those of its kind and of every kind in it.
	In string
	// Access reads a fetched copy (what a status means, how long a copy
	// is kept); nil means the robots.txt profile's (AccessFor).
	Access *fetch.Access
	// Lint is the interpreter's checks on the parsed file, beside the
	// grammar's own; nil for none.
	Lint func(*grammar.File) grammar.Diagnostics
	// Detect reports whether a source of unknown kind (its name and
	// content) is of this kind, for lint --type auto; nil: never told by
	// its content (the default kind, or one never linted alone).
	Detect func(name, data string) bool
	// YAML reports whether the data is in a YAML form, whose lines are not
	// "field: value" lines (the grammar's line diagnostics are noise
	// there); nil: never.
	YAML func(data []byte) bool
	// JSON: the manifest is a JSON document, not lines of fields: the
	// grammar's line diagnostics say nothing about it, and Lint reads the
	// file's text.
	JSON bool
	// Sitemaps: a URL given where this kind is expected names a site or its
	// robots.txt when its path is empty, "/" or ends in /robots.txt, and
	// then means the sitemaps that robots.txt lists (discovery); any other
	// URL is the manifest itself. Otherwise (Locate) a site means File.
	Sitemaps bool
	// Views are the commands and endpoints that show the kind: "lint"
	// offers it as a --type, "fetch" reports on it for each site.
	Views []string
}

// The kinds, one row each.
var (
	Robots = &Kind{Name: "robots", File: "robots.txt", Lint: robots.Lint,
		Views: []string{"check", "diff", "matrix", "explain", "summary", "audit", "parse", "lint", "fetch",
			"POST /v1/check", "POST /v1/test"}}
	DataTxt = &Kind{Name: "datatxt", File: "data.txt", Access: fetch.AccessDataTxt, Lint: datatxt.Lint,
		Detect: detectDataTxt, YAML: func(data []byte) bool { return datatxt.Detect(data) == datatxt.FormYAML },
		Views: []string{"datasets", "lint", "fetch", "POST /v1/datasets"}}
	MobileAgent = &Kind{Name: "mobileagent", File: "robots.txt", In: "robots", Access: fetch.AccessRFC9309, Lint: mobileagent.Lint,
		Views: []string{"agents", "POST /v1/agents"}}
	Sitemap = &Kind{Name: "sitemap", File: "sitemap.xml", Access: fetch.AccessRFC9309, Sitemaps: true,
		Views: []string{"sitemaps", "lint --sitemaps", "POST /v1/sitemaps"}}
	// Signatures is a Web Bot Auth key directory: the keys a bot operator
	// publishes at its origin's well-known path (package webbotauth).
	Signatures = &Kind{Name: "signatures", File: strings.TrimPrefix(webbotauth.WellKnownPath, "/"), Access: fetch.AccessSignatures,
		Lint: webbotauth.Lint, Detect: detectSignatures, JSON: true, Views: []string{"lint", "fetch"}}
)

// Kinds is the table, in the order the commands list kinds (sitetxt
// fetch reports robots.txt, then data.txt).
var Kinds = []*Kind{Robots, DataTxt, MobileAgent, Sitemap, Signatures}

// Default is the kind of a source nothing else claims.
var Default = Robots

// ByName returns the kind called name, and whether there is one.
func ByName(name string) (*Kind, bool) {
	for _, k := range Kinds {
		if k.Name == name {
			return k, true
		}
	}
	return nil, false
}

// ByFile returns the kind whose own file is called file ("robots.txt"),
// and whether there is one.
func ByFile(file string) (*Kind, bool) {
	for _, k := range Kinds {
		if k.In == "" && k.File == file {
			return k, true
		}
	}
	return nil, false
}

// Shown returns the kinds that view shows ("lint", "fetch"), in table
// order.
func Shown(view string) []*Kind {
	var out []*Kind
	for _, k := range Kinds {
		for _, v := range k.Views {
			if v == view {
				out = append(out, k)
				break
			}
		}
	}
	return out
}

// Of tells the kind of a source from its name and content, as lint
// --type auto does: the first kind whose Detect says yes, else Default.
func Of(name, data string) *Kind {
	for _, k := range Kinds {
		if k.Detect != nil && k.Detect(name, data) {
			return k
		}
	}
	return Default
}

// AccessFor returns the access method a fetched copy of the kind is read
// with under the robots.txt profile prof.
func (k *Kind) AccessFor(prof robots.Profile) *fetch.Access {
	if k.Access != nil {
		return k.Access
	}
	return prof.Access()
}

// InYAML reports whether data is the kind in a YAML form (see Kind.YAML).
func (k *Kind) InYAML(data []byte) bool { return k.YAML != nil && k.YAML(data) }

// Linters returns the checks of a file of kind k: its own and those of
// every kind whose lines live in it, in table order.
func (k *Kind) Linters() []func(*grammar.File) grammar.Diagnostics {
	var out []func(*grammar.File) grammar.Diagnostics
	for _, o := range Kinds {
		if (o == k || o.In == k.Name) && o.Lint != nil {
			out = append(out, o.Lint)
		}
	}
	return out
}

// Locate reads a URL given where the kind is expected: a site
// ("https://example.org", "https://example.org/") means its File; a URL
// whose path names the File (".../robots.txt") is the manifest itself;
// any other URL is a page, which means its site's File (page is true),
// never the page itself.
func (k *Kind) Locate(arg string) (fileURL string, page bool, err error) {
	u, err := url.Parse(arg)
	if err != nil {
		return "", false, err
	}
	if strings.HasSuffix(strings.ToLower(u.Path), "/"+k.File) {
		fileURL, err = fetch.SourceURL(arg, k.File)
		return fileURL, false, err
	}
	fileURL, err = fetch.ManifestURL(arg, k.File)
	return fileURL, err == nil && !(u.Path == "" || u.Path == "/") || u.RawQuery != "", err
}

// Discovers reports whether a URL given where a kind with Sitemaps is
// expected starts a discovery from its site's robots.txt (a site, or a
// robots.txt URL) rather than naming the manifest itself.
func (k *Kind) Discovers(u *url.URL) bool {
	return k.Sitemaps && (u.Path == "" || u.Path == "/" || strings.HasSuffix(u.Path, "/"+Robots.File))
}

// SitemapsOf starts reading the sitemaps that src, an http(s) URL given
// where sitemaps are expected, names, as Sitemap reads it (Discovers): a
// site or its robots.txt means the sitemaps that robots.txt lists
// (f.Discover), any other URL the sitemap there (f.Walk). robots lists a
// site's sitemaps and widens a file's scope. The command line and serve
// both start here.
func SitemapsOf(ctx context.Context, f *sitemap.Fetcher, robots sitemap.Lister, src string) *sitemap.Discovery {
	if u, err := url.Parse(src); err == nil && Sitemap.Discovers(u) {
		return f.Discover(ctx, src, robots)
	}
	return f.Walk(ctx, robots, src)
}
