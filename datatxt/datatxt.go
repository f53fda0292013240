package datatxt

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/sitetxt/sitetxt/grammar"
)

// Form is the syntax a data.txt is written in.
type Form uint8

// The forms. FormAuto asks Parse to detect the form (see Detect).
const (
	FormAuto    Form = iota // detect
	FormYAML                // a YAML list of entries (datatxt.org, pins)
	FormRecords             // "field: value" records (the data.txt draft)
)

var formNames = [...]string{"auto", "yaml", "records"}

// String returns "auto", "yaml" or "records".
func (f Form) String() string {
	if int(f) < len(formNames) {
		return formNames[f]
	}
	return fmt.Sprintf("form(%d)", int(f))
}

// MarshalText encodes the form as its name.
func (f Form) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// ParseForm returns the form named "auto", "yaml" or "records".
func ParseForm(name string) (Form, error) {
	for i, n := range formNames {
		if strings.EqualFold(name, n) {
			return Form(i), nil
		}
	}
	return FormAuto, fmt.Errorf("unknown data.txt form %q (want auto, yaml or records)", name)
}

// Decider decides whether an agent may fetch a URL. *robots.Policy
// implements it as it is; this package does not import robots.
type Decider interface {
	Allowed(agent, url string) bool
}

// CompileRules returns an Options.Rules that compiles a record-form
// data.txt's own User-agent/Allow/Disallow records with compile under
// profile, so that a robots.txt interpreter plugs in without an adapter:
//
//	opts.Rules = datatxt.CompileRules(robots.Compile, robots.RFC9309)
func CompileRules[A Decider, P any](compile func(*grammar.File, P) A, profile P) func(*grammar.File) Decider {
	return func(f *grammar.File) Decider { return compile(f, profile) }
}

// Verdict is what an entry's access rules say about it.
type Verdict uint8

// The verdicts. Unknown is the zero value: no access rules were given.
const (
	Unknown    Verdict = iota // no rules were given (and every URL is http or https)
	Allowed                   // every URL of the entry on the data.txt's host may be fetched
	Disallowed                // some URL may not be fetched, or is not an http(s) URL
)

var verdictNames = [...]string{"unknown", "allowed", "disallowed"}

// String returns "unknown", "allowed" or "disallowed".
func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("verdict(%d)", int(v))
}

// DefaultMaxNodes is how many YAML nodes alias expansion may add: Parse
// visits at most the nodes written in the file plus this many, counting
// every node reached through an alias each time it is reached.
const DefaultMaxNodes = 100000

// Options control Parse. The zero value detects the form, resolves nothing
// and decides no access.
type Options struct {
	// Form forces the form; FormAuto detects it.
	Form Form
	// Base is the URL the data.txt was fetched from, against which relative
	// paths are resolved. Empty means unknown: relative paths are then taken
	// as relative to /data.txt, the draft's standard location, and URLs are
	// host-less ("/iris/data.csv"), with a warning.
	Base string
	// Agent is the user agent whose access is decided; empty means "*".
	Agent string
	// Rules, when set, compiles the data.txt's own User-agent/Allow/Disallow
	// records (record form only); CompileRules(robots.Compile, profile)
	// makes one.
	Rules func(*grammar.File) Decider
	// Robots, when set, is the site's robots.txt; it applies to URLs on
	// RobotsSite, or without it on the data.txt's host.
	Robots Decider
	// RobotsSite is the URL Robots was fetched from (or any URL on its
	// site): a robots.txt speaks for its own scheme and host only, so
	// Robots then judges only the absolute URLs on them.
	RobotsSite string
	// MaxSize is how many bytes of input are read, as grammar.Options.MaxSize:
	// 0 means grammar.DefaultMaxSize (500 KiB), a negative value no limit.
	MaxSize int
	// MaxNodes bounds YAML alias expansion: how many nodes it may add to
	// those written in the file. 0 means DefaultMaxNodes.
	MaxNodes int

	// size is the whole input's length when src is only its start (a
	// board on disk reads MaxSize bytes and one more); 0 means len(src).
	size int64
}

func (o *Options) maxSize() int {
	if o.MaxSize == 0 {
		return grammar.DefaultMaxSize
	}
	return o.MaxSize
}

func (o *Options) maxNodes() int {
	if o.MaxNodes <= 0 {
		return DefaultMaxNodes
	}
	return o.MaxNodes
}

// Entry is one dataset listed in a data.txt.
type Entry struct {
	// Name is the entry's name as written, or "" when it has none.
	Name string
	// Paths are the entry's paths as written, in order; never empty.
	Paths []string
	// URLs are the paths resolved against Options.Base, in order. A path
	// that is not a valid URL reference has no URL (and a diagnostic).
	URLs []string
	// Metadata holds every other field, keys lower-cased, values as written:
	// strings in the record form; in the YAML form strings, int64, float64,
	// bool, nil, []any and map[string]any (JSON-able).
	Metadata map[string]any
	// Pos is where the entry starts: its "-" or first key in the YAML form,
	// its Path line in the record form.
	Pos grammar.Pos
	// Access says whether Options.Agent may fetch every URL of the entry on
	// the data.txt's host: Unknown when no access rules were given. An
	// entry with a URL that is not http or https (file:, javascript:,
	// data:, ...) is always Disallowed.
	Access Verdict
	// DeniedBy names what disallowed it: "data.txt", "robots.txt" or
	// "scheme" (a URL that is not http or https).
	DeniedBy string
	// Source is where the entry was listed: the data.txt's URL
	// (Options.Base), else the name Parse was given. Entries of catalogs
	// joined with Join keep their own.
	Source string
	// Files holds what is known about the files behind the entry's URLs,
	// keyed by URL (a probe fills it); exports use it where the data.txt
	// says nothing.
	Files map[string]FileInfo
	// ID is the dataset's own identifier as its sources give it, an
	// absolute IRI (a data.json identifier that is a URL, a JSON-LD @id, a
	// DOI), or "": the exports then use it as the dataset's IRI instead of
	// minting one from Source. Parse leaves it empty.
	ID string
	// Sources are the documents a discovered entry was read from (package
	// discover), in the order their statements take precedence; nil for
	// an entry Parse read, whose Source says where it was listed.
	Sources []SourceRef
	// Provenance maps a JSON Pointer into the entry's JSON form ("/name",
	// "/metadata/description", "/paths/0") to the source that value came
	// from; nil for an entry Parse read.
	Provenance map[string]SourceRef

	file     string        // the name Parse was given, for positions
	pathPos  []grammar.Pos // where each path is written
	badPaths []int         // indexes of paths with no URL
	colOrder []string      // the keys of a "columns" mapping, in file order
	namePos  grammar.Pos   // where the name is written, else Pos
}

// SourceRef names a document a dataset was read from: its kind
// ("data.txt", "data.json", "dcat", "schema.org", "croissant",
// "signposting") and its URL.
type SourceRef struct {
	Kind string `json:"kind" yaml:"kind"`
	URL  string `json:"url" yaml:"url"`
}

// FileInfo is what a server said about a file: its media type, size (-1
// when unknown) and Last-Modified time (zero when unknown).
type FileInfo struct {
	MediaType    string
	Size         int64
	LastModified time.Time
}

// Title returns the entry's title metadata, else its name, else its first
// path, else (a discovered entry without a file) its ID or Source.
func (e *Entry) Title() string {
	if s, ok := e.Metadata["title"].(string); ok && s != "" {
		return s
	}
	if e.Name != "" {
		return e.Name
	}
	if len(e.Paths) > 0 {
		return e.Paths[0]
	}
	if e.ID != "" {
		return e.ID
	}
	return e.Source
}

// fileName is the name the entry's positions are in: the file Parse was
// given, else (a discovered entry) its Source.
func (e *Entry) fileName() string {
	if e.file != "" {
		return e.file
	}
	return e.Source
}

// Text returns the metadata value for key as a string, or "" when it is
// absent, null or not a scalar.
func (e *Entry) Text(key string) string {
	switch v := e.Metadata[key].(type) {
	case string:
		return v
	case int64, float64, bool:
		return fmt.Sprint(v)
	}
	return ""
}

// Catalog is a parsed data.txt.
type Catalog struct {
	// Name is the file name used in positions.
	Name string
	// Base is Options.Base.
	Base string
	// Form is the form the file was read as.
	Form Form
	// Entries are the valid entries, in file order.
	Entries []*Entry
	// File is the grammar's parse of a record-form file, else nil.
	File *grammar.File
	// Diagnostics are all findings, sorted by position.
	Diagnostics grammar.Diagnostics
}

// Parse reads a data.txt in either form. It never fails: problems are in
// Catalog.Diagnostics, and every entry that has a path is in
// Catalog.Entries. name is used in positions.
func Parse(name string, src []byte, opts Options) *Catalog {
	c := &Catalog{Name: name, Base: opts.Base}
	limit := opts.maxSize()
	var ignored, more int // bytes past the limit; of them, bytes past src
	if limit >= 0 && len(src) > limit {
		ignored = len(src) - limit
		more = int(max(opts.size-int64(len(src)), 0))
	}
	form := opts.Form
	if form == FormAuto {
		form = Detect(src[:len(src)-ignored])
	}
	c.Form = form
	p := &parser{c: c, opts: &opts, name: name}
	switch form {
	case FormRecords:
		p.records(src)
		if more > 0 {
			// The grammar counted only the bytes it was given.
			for _, d := range p.c.Diagnostics {
				if d.Code == grammar.CodeTooLarge {
					d.Summary = cutSummary(limit, ignored+more)
				}
			}
		}
	default:
		c.Form = FormYAML
		if ignored > 0 {
			p.src = string(src[:limit])
			p.lines = newLineIndex(p.src)
			end := p.lines.posOf(p.src, len(p.src))
			p.diag(grammar.Warning, "too-large", end, end,
				cutSummary(limit, ignored+more))
		} else {
			p.src = string(src)
		}
		p.yaml()
	}
	for _, e := range c.Entries {
		e.Source, e.file = catalogSource(c), name
	}
	p.resolve()
	p.duplicates()
	p.access()
	c.Diagnostics.Sort()
	return c
}

// parser holds the state of one Parse.
type parser struct {
	c     *Catalog
	opts  *Options
	name  string
	src   string
	lines lineIndex
	base  *url.URL
}

func (p *parser) diag(sev grammar.Severity, code string, start, end grammar.Pos, summary string) *grammar.Diagnostic {
	d := &grammar.Diagnostic{Severity: sev, Code: code, Summary: summary, Filename: p.name,
		Range: grammar.Range{Start: start, End: end}}
	p.c.Diagnostics = append(p.c.Diagnostics, d)
	return d
}

// cutSummary is the too-large warning's message, in the grammar's words.
func cutSummary(limit, ignored int) string {
	return fmt.Sprintf("input is larger than %d bytes; the last %d bytes are ignored", limit, ignored)
}

// Detect returns the form src is written in. The heuristic, in order:
//
//  1. The first line that is neither blank nor a comment starts with "-",
//     "---", "%", "[" or "{": YAML (a list, a document marker, a directive,
//     a flow collection).
//  2. Some line starts (unindented) with a User-agent, Allow or Disallow
//     field: records. YAML files never have these.
//  3. Some non-blank line is indented, or a line starts with "- ": YAML
//     (block structure; the record form has none).
//  4. The file is flat "key: value" lines, which both forms read alike: it
//     is records when some line's field is "Path" with a capital letter
//     (the draft's spelling; YAML writers use "path"), when a "path" field
//     occurs more than once (a YAML mapping cannot hold a key twice) or when
//     a value holds ": " (plain YAML scalars cannot); else YAML (a pins 1.x
//     single mapping).
func Detect(src []byte) Form {
	s := string(src)
	s = strings.TrimPrefix(s, "\xEF\xBB\xBF")
	first := true
	paths := 0
	records := false
	yamlish := false
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n")
		line := s
		if i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' {
			continue
		}
		if first {
			first = false
			switch {
			case t[0] == '-' && (len(t) == 1 || t[1] == ' ' || t[1] == '\t' || strings.HasPrefix(t, "---")),
				t[0] == '%', t[0] == '[', t[0] == '{':
				return FormYAML
			}
		}
		if line[0] == ' ' || line[0] == '\t' || strings.HasPrefix(line, "- ") || line == "-" {
			yamlish = true
			continue
		}
		c := strings.IndexByte(t, ':')
		if c < 0 {
			continue
		}
		field := strings.TrimSpace(t[:c])
		switch strings.ToLower(field) {
		case "user-agent", "allow", "disallow":
			return FormRecords
		case "path":
			paths++
			if field != "path" {
				records = true
			}
		}
		if strings.Contains(t[c+1:], ": ") {
			v := strings.TrimSpace(t[c+1:])
			if v != "" && v[0] != '"' && v[0] != '\'' && v[0] != '|' && v[0] != '>' {
				records = true
			}
		}
	}
	if yamlish {
		return FormYAML
	}
	if records || paths > 1 {
		return FormRecords
	}
	return FormYAML
}

// resolve fills in the entries' URLs.
func (p *parser) resolve() {
	base := &url.URL{Path: "/data.txt"}
	if p.opts.Base != "" {
		b, err := url.Parse(p.opts.Base)
		if err != nil {
			p.diag(grammar.Error, "bad-base", grammar.Pos{}, grammar.Pos{},
				fmt.Sprintf("base URL %q is not a valid URL", p.opts.Base))
			b = nil
		} else if !b.IsAbs() {
			p.diag(grammar.Warning, "relative-base", grammar.Pos{}, grammar.Pos{},
				fmt.Sprintf("base URL %q is not absolute", p.opts.Base))
		}
		if b != nil {
			base = b
		}
	}
	p.base = base
	warned := p.opts.Base != ""
	for _, e := range p.c.Entries {
		for i, path := range e.Paths {
			at := e.Pos
			if i < len(e.pathPos) {
				at = e.pathPos[i]
			}
			ref, err := url.Parse(path)
			if err != nil {
				msg := err.Error()
				if ue, ok := err.(*url.Error); ok {
					msg = ue.Err.Error()
				}
				p.diag(grammar.Error, "bad-url", at, at,
					fmt.Sprintf("path %q is not a valid URL reference: %s", path, msg))
				e.badPaths = append(e.badPaths, i)
				continue
			}
			if !ref.IsAbs() && !warned {
				warned = true
				p.diag(grammar.Warning, "no-base-url", at, at,
					"relative path resolved as if the file were /data.txt; give the data.txt URL as the base")
			}
			abs := base.ResolveReference(ref)
			if abs.Scheme != "" && !strings.EqualFold(abs.Scheme, "http") && !strings.EqualFold(abs.Scheme, "https") {
				d := p.diag(grammar.Error, "bad-scheme", at, at,
					fmt.Sprintf("path %q is a %s: URL, not http or https; it is never allowed nor exported", path, strings.ToLower(abs.Scheme)))
				d.Detail = "a catalog that followed it could read local files or run scripts"
				e.badPaths = append(e.badPaths, i)
				e.Access, e.DeniedBy = Disallowed, "scheme"
				continue
			}
			e.URLs = append(e.URLs, abs.String())
		}
	}
}

// duplicates reports entries sharing a name.
func (p *parser) duplicates() {
	seen := map[string]*Entry{}
	for _, e := range p.c.Entries {
		if e.Name == "" {
			continue
		}
		if first, ok := seen[e.Name]; ok {
			d := p.diag(grammar.Warning, "duplicate-name", e.namePos, e.namePos,
				fmt.Sprintf("dataset name %q is also used at line %d", e.Name, first.Pos.Line))
			d.Detail = "catalogs that key datasets by name keep only one of them"
			continue
		}
		seen[e.Name] = e
	}
}

// access decides Entry.Allowed.
func (p *parser) access() {
	var own Decider
	if f := p.c.File; p.opts.Rules != nil && f != nil && len(f.Preamble) < len(f.Lines) { // a User-agent line
		own = p.opts.Rules(p.c.File)
	}
	site := p.opts.Robots
	if own == nil && site == nil {
		return
	}
	agent := p.opts.Agent
	if agent == "" {
		agent = "*"
	}
	robotsSite := p.robotsSite()
	for _, e := range p.c.Entries {
		if e.Access == Disallowed {
			continue // a URL that is not http(s)
		}
		e.Access = Allowed
		for _, u := range e.URLs {
			ownSite := p.onSite(u)
			robots := site != nil && (robotsSite == nil && ownSite || robotsSite != nil && sameSite(u, robotsSite))
			if own != nil && ownSite && !own.Allowed(agent, u) {
				e.Access, e.DeniedBy = Disallowed, "data.txt"
				break
			}
			if robots && !site.Allowed(agent, u) {
				e.Access, e.DeniedBy = Disallowed, "robots.txt"
				break
			}
		}
	}
}

// robotsSite is the site Options.Robots speaks for when RobotsSite names
// it, else nil (the data.txt's own).
func (p *parser) robotsSite() *url.URL {
	if p.opts.RobotsSite == "" {
		return nil
	}
	u, err := url.Parse(p.opts.RobotsSite)
	if err != nil || !u.IsAbs() {
		return nil
	}
	return u
}

// sameSite reports whether u is an absolute URL on site's scheme and host.
func sameSite(u string, site *url.URL) bool {
	ref, err := url.Parse(u)
	return err == nil && ref.IsAbs() && strings.EqualFold(ref.Scheme, site.Scheme) && strings.EqualFold(ref.Host, site.Host)
}

// onSite reports whether u is on the data.txt's host (or host-less when
// the base is unknown): the URLs a site's access rules speak about.
func (p *parser) onSite(u string) bool {
	ref, err := url.Parse(u)
	if err != nil {
		return false
	}
	if !ref.IsAbs() {
		return p.base == nil || !p.base.IsAbs()
	}
	return p.base != nil && strings.EqualFold(ref.Scheme, p.base.Scheme) && strings.EqualFold(ref.Host, p.base.Host)
}

// Lint returns the data.txt diagnostics of a file the grammar has parsed,
// for a lint command that knows the file is a data.txt: the file's text is
// read again in its detected form. The grammar's own diagnostics are left
// out (the caller has them in f.Diagnostics), and so is no-base-url, since
// a linted file has no URL.
func Lint(f *grammar.File) grammar.Diagnostics {
	// The grammar has applied its size limit; what it ignored stays out.
	text := f.Text()
	text = text[:len(text)-len(f.Ignored)]
	c := Parse(f.Name, []byte(text), Options{MaxSize: -1})
	own := map[*grammar.Diagnostic]bool{}
	if c.File != nil {
		for _, d := range c.File.Diagnostics {
			own[d] = true
		}
	}
	var out grammar.Diagnostics
	for _, d := range c.Diagnostics {
		if !own[d] && d.Code != "no-base-url" {
			out = append(out, d)
		}
	}
	return out
}

// Join returns one catalog holding the entries and diagnostics of cs, in
// order; each entry keeps its Source. name is the joined catalog's name.
// Base is cs[0]'s when there is exactly one catalog.
func Join(name string, cs ...*Catalog) *Catalog {
	j := &Catalog{Name: name, Form: FormAuto}
	if len(cs) == 1 {
		j.Base, j.Form, j.File = cs[0].Base, cs[0].Form, cs[0].File
	}
	for _, c := range cs {
		j.Entries = append(j.Entries, c.Entries...)
		j.Diagnostics = append(j.Diagnostics, c.Diagnostics...)
	}
	j.Diagnostics.Sort()
	return j
}
