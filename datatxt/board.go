package datatxt

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"gopkg.in/yaml.v3"
)

// BoardLimits bound how far Discover follows a pins board.
type BoardLimits struct {
	// MaxDepth is how many levels of files below the first are read: 1
	// reads a pins 0.x index's pin directories or a _pins.yaml's version
	// directories; 0 means DefaultBoardLimits.MaxDepth, and a negative
	// value reads the first file only.
	MaxDepth int
	// MaxFetches is how many files may be fetched in all, the first
	// included; each URL is fetched at most once.
	MaxFetches int
	// Timeout bounds the whole discovery.
	Timeout time.Duration
}

// DefaultBoardLimits are the limits a zero BoardLimits field stands for.
var DefaultBoardLimits = BoardLimits{MaxDepth: 2, MaxFetches: 200, Timeout: 2 * time.Minute}

func (l BoardLimits) withDefaults() BoardLimits {
	if l.MaxDepth < 0 {
		l.MaxDepth = 0
	} else if l.MaxDepth == 0 {
		l.MaxDepth = DefaultBoardLimits.MaxDepth
	}
	if l.MaxFetches <= 0 {
		l.MaxFetches = DefaultBoardLimits.MaxFetches
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultBoardLimits.Timeout
	}
	return l
}

// Discover fetches a data.txt and follows it as R's pins package reads a
// board, returning one catalog:
//
//   - site is a site ("https://example.org/": its /data.txt), a data.txt
//     URL, a board directory ending in "/" (its data.txt; when that is
//     missing, its pins 1.x manifest _pins.yaml) or a _pins.yaml URL.
//   - A pins 0.x index entry whose path is a relative directory ("path:
//     mtcars", or "mtcars/") is read as pins reads it: mtcars/data.txt is
//     fetched and the entry takes the paths it lists (resolved against it)
//     and its metadata, the index's own fields winning.
//   - A pins 1.x _pins.yaml maps each pin name to its version directories;
//     the latest version (the greatest name, as pins' version names start
//     with their UTC time stamp) is read from its data.txt.
//
// lim bounds depth, fetch count and time; a file that cannot be fetched
// below the first is a warning and its entry is kept as the index gives
// it. Only the first file's failure is an error (ErrNoDataTxt when it is
// missing).
func (f *Fetcher) Discover(ctx context.Context, site string, opts Options, lim BoardLimits) (*Catalog, error) {
	lim = lim.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	start, err := boardStart(site)
	if err != nil {
		return nil, err
	}
	d := &discovery{f: f, ctx: ctx, lim: lim, opts: opts, seen: map[string]*fetch.Result{}}
	if strings.HasSuffix(start, "/_pins.yaml") {
		return d.manifest(start, nil)
	}
	r, err := d.get(start)
	if err != nil {
		return nil, err
	}
	if r.Status == fetch.NotFound {
		if strings.HasSuffix(site, "/") && !isSiteRoot(site) {
			// A pins 1.x board has no data.txt at its root, only _pins.yaml.
			if c, err := d.manifest(strings.TrimSuffix(start, "data.txt")+"_pins.yaml", nil); err == nil {
				return c, nil
			}
		}
		return nil, fmt.Errorf("%s: %s: %w", start, r.Reason, ErrNoDataTxt)
	}
	if r.Status != fetch.Parse {
		return nil, r.Failure()
	}
	o := opts
	if o.Base == "" {
		o.Base = r.FinalURL
	}
	c := d.parse(start, r, o)
	d.follow(c, start, 1)
	return c, nil
}

// boardStart returns the URL Discover fetches first.
func boardStart(site string) (string, error) {
	if !fetch.IsURL(site) {
		return "", fmt.Errorf("%s: not an http or https URL", site)
	}
	u, err := url.Parse(site)
	if err != nil {
		return "", err
	}
	u.Fragment = ""
	if strings.HasSuffix(u.Path, "/") || u.Path == "" {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/data.txt"
		u.RawPath = ""
	}
	return u.String(), nil
}

func isSiteRoot(site string) bool {
	u, err := url.Parse(site)
	return err == nil && (u.Path == "" || u.Path == "/")
}

// discovery is the state of one Discover.
type discovery struct {
	f       *Fetcher
	ctx     context.Context
	lim     BoardLimits
	opts    Options
	seen    map[string]*fetch.Result // every URL fetched, with its result
	fetches int
	// disk is set for a board on disk (DiscoverDir): locations are then
	// slash paths under its directory, read instead of fetched.
	disk *diskBoard
}

var errFetchLimit = errors.New("fetch limit reached")

// get fetches u, once: a URL asked for again gets the first answer.
func (d *discovery) get(u string) (*fetch.Result, error) {
	if r, ok := d.seen[u]; ok {
		return r, nil
	}
	verb, files := "fetched", "files"
	if d.disk != nil {
		verb = "read"
	}
	if d.lim.MaxFetches == 1 {
		files = "file"
	}
	if d.fetches >= d.lim.MaxFetches {
		return nil, fmt.Errorf("%s: not %s: %w (%d %s)", d.name(u), verb, errFetchLimit, d.lim.MaxFetches, files)
	}
	if err := d.ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: not %s: board time limit (%v) reached", d.name(u), verb, d.lim.Timeout)
	}
	d.fetches++
	var r *fetch.Result
	if d.disk != nil {
		r = d.disk.read(u, d.opts.maxSize())
	} else {
		d.f.init()
		r = d.f.memo.Fetcher.Fetch(d.ctx, u, fetch.AccessDataTxt)
	}
	d.seen[u] = r
	return r, nil
}

// parse parses the file at loc, which r holds (parseResult); a file on
// disk longer than Options.MaxSize is counted whole in Parse's too-large
// warning.
func (d *discovery) parse(loc string, r *fetch.Result, o Options) *Catalog {
	if d.disk != nil {
		o.size = d.disk.sizes[loc]
	}
	return parseResult(d.name(loc), r, o)
}

// name is how positions and messages name the file at loc: its URL, or
// for a board on disk its path as the caller wrote the board's.
func (d *discovery) name(loc string) string {
	if d.disk != nil {
		return d.disk.name(loc)
	}
	return loc
}

// childOf returns where the data.txt of the pins directory entry e (listed
// in the file at parent) is: the entry's URL plus "/data.txt", or on disk
// the entry's path under the parent's directory.
func (d *discovery) childOf(parent string, e *Entry) (string, bool) {
	if d.disk != nil {
		return d.disk.resolve(parent, strings.TrimSuffix(e.Paths[0], "/")+"/data.txt")
	}
	u, err := url.Parse(e.URLs[0])
	if err != nil || !u.IsAbs() {
		return "", false
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/data.txt"
	u.RawPath = ""
	return u.String(), true
}

// warn adds a warning to c at e's position (or the file's start).
func warn(c *Catalog, e *Entry, code, msg string) {
	d := &grammar.Diagnostic{Severity: grammar.Warning, Code: code, Summary: msg, Filename: c.Name}
	if e != nil {
		d.Range = grammar.Range{Start: e.Pos, End: e.Pos}
	}
	c.Diagnostics = append(c.Diagnostics, d)
}

// follow replaces each pins 0.x directory entry of c (the file at loc)
// with what its own data.txt lists. depth is the level of the files it
// would fetch.
func (d *discovery) follow(c *Catalog, loc string, depth int) {
	defer c.Diagnostics.Sort()
	for _, e := range c.Entries {
		if len(e.Paths) != 1 || !pinsDirectory(e.Paths[0]) || len(e.URLs) != 1 {
			continue
		}
		if depth > d.lim.MaxDepth {
			warn(c, e, "board-depth", fmt.Sprintf("pins directory %q not followed: depth limit %d reached", e.Paths[0], d.lim.MaxDepth))
			continue
		}
		child, ok := d.childOf(loc, e)
		if !ok {
			if d.disk != nil {
				warn(c, e, "board-not-followed", fmt.Sprintf("pins directory %q is not under %s, the board's directory", e.Paths[0], d.disk.root))
			}
			continue
		}
		r, err := d.get(child)
		if err != nil {
			warn(c, e, "board-not-followed", err.Error())
			continue
		}
		if r.Status != fetch.Parse {
			warn(c, e, "board-not-followed", fmt.Sprintf("pins directory %q: %s: %s", e.Paths[0], d.name(child), r.Reason))
			continue
		}
		o := d.opts
		o.Base, o.Form = r.FinalURL, FormYAML
		pc := d.parsePin(child, r, o)
		c.Diagnostics = append(c.Diagnostics, pinDiagnostics(pc)...)
		if len(pc.Entries) == 0 {
			warn(c, e, "board-not-followed", fmt.Sprintf("pins directory %q: %s lists no files", e.Paths[0], d.name(child)))
			continue
		}
		merge(e, pc.Entries[0])
	}
}

// parsePin parses a pin's own data.txt, at loc. Its entries say they were
// listed there: at its URL, or on disk without a base, at its path.
func (d *discovery) parsePin(loc string, r *fetch.Result, o Options) *Catalog {
	pc := d.parse(loc, r, o)
	if d.disk != nil && d.opts.Base == "" {
		for _, e := range pc.Entries {
			e.Source = pc.Name
		}
	}
	return pc
}

// pinDiagnostics are the diagnostics of a pin's own data.txt that say
// something about the board: a pin's data.txt is one mapping whose path
// names files (pins writes it so), and its base is where the board put it
// (for a board on disk without a URL, a path: the index already warned).
func pinDiagnostics(pc *Catalog) grammar.Diagnostics {
	var out grammar.Diagnostics
	for _, dg := range pc.Diagnostics {
		switch dg.Code {
		case "single-mapping", "file-as-path", "relative-base":
		default:
			out = append(out, dg)
		}
	}
	return out
}

// merge gives e (an index entry) the paths of p (its pin's own data.txt)
// and the metadata the index does not give, as pins' pin_manifest_merge.
func merge(e, p *Entry) {
	e.Paths, e.URLs, e.pathPos, e.badPaths = p.Paths, p.URLs, p.pathPos, p.badPaths
	for k, v := range p.Metadata {
		if _, ok := e.Metadata[k]; !ok {
			if e.Metadata == nil {
				e.Metadata = map[string]any{}
			}
			e.Metadata[k] = v
		}
	}
	if len(e.colOrder) == 0 {
		e.colOrder = p.colOrder
	}
	e.Source, e.file = p.Source, p.file
	if p.Access == Disallowed {
		e.Access, e.DeniedBy = p.Access, p.DeniedBy
	} else if e.Access == Unknown {
		e.Access = p.Access
	}
}

// manifest reads a pins 1.x _pins.yaml: pin name to version directories.
func (d *discovery) manifest(u string, into *Catalog) (*Catalog, error) {
	r, err := d.get(u)
	if err != nil {
		return nil, err
	}
	if r.Status == fetch.NotFound {
		return nil, fmt.Errorf("%s: %w", u, ErrNoDataTxt)
	}
	if r.Status != fetch.Parse {
		return nil, d.failure(r)
	}
	c := &Catalog{Name: d.name(u), Base: r.FinalURL, Form: FormYAML}
	var pins map[string][]string
	if err := yaml.Unmarshal(r.Body, &pins); err != nil {
		c.Diagnostics = append(c.Diagnostics, &grammar.Diagnostic{Severity: grammar.Error, Code: "bad-manifest",
			Filename: c.Name, Summary: "not a pins manifest (a mapping of pin names to version directories): " + err.Error()})
		return c, nil
	}
	base, err := url.Parse(r.FinalURL)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(pins))
	for n := range pins {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		versions := pins[name]
		if len(versions) == 0 {
			continue
		}
		latest := versions[0]
		for _, v := range versions[1:] {
			if v > latest {
				latest = v
			}
		}
		if d.lim.MaxDepth < 1 {
			warn(c, nil, "board-depth", fmt.Sprintf("pin %q not read: depth limit %d reached", name, d.lim.MaxDepth))
			continue
		}
		vu, ok := d.versionOf(u, base, strings.TrimSuffix(latest, "/")+"/data.txt")
		if !ok {
			warn(c, nil, "board-not-followed", fmt.Sprintf("pin %q: version %q is not a URL path", name, latest))
			continue
		}
		vr, err := d.get(vu)
		if err != nil {
			warn(c, nil, "board-not-followed", fmt.Sprintf("pin %q: %v", name, err))
			continue
		}
		if vr.Status != fetch.Parse {
			warn(c, nil, "board-not-followed", fmt.Sprintf("pin %q: %s: %s", name, d.name(vu), vr.Reason))
			continue
		}
		o := d.opts
		o.Base, o.Form = vr.FinalURL, FormYAML
		pc := d.parsePin(vu, vr, o)
		c.Diagnostics = append(c.Diagnostics, pinDiagnostics(pc)...)
		for _, e := range pc.Entries {
			if e.Name == "" {
				e.Name = name
			}
			c.Entries = append(c.Entries, e)
		}
	}
	if d.disk != nil && d.opts.Base == "" && len(c.Entries) > 0 {
		warn(c, nil, "no-base-url", "relative paths resolved as if the board were at /; give the board's URL as the base")
	}
	c.Diagnostics.Sort()
	return c, nil
}

// versionOf returns where a pin version's data.txt (ref, relative to the
// _pins.yaml at loc, whose URL is base) is.
func (d *discovery) versionOf(loc string, base *url.URL, ref string) (string, bool) {
	if d.disk != nil {
		return d.disk.resolve(loc, ref)
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", false
	}
	return base.ResolveReference(r).String(), true
}

// failure is the error of the first file of a board that gives no answer.
func (d *discovery) failure(r *fetch.Result) error {
	if d.disk != nil {
		return r.Err
	}
	return r.Failure()
}
