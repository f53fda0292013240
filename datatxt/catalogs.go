package datatxt

import (
	"fmt"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/sitetxt/sitetxt/grammar"
)

// ExportOptions fill the catalog-level fields a data.txt has no place for.
// Nothing is invented: a field a format requires that neither the data.txt
// nor these options give is left out and reported as a Problem.
type ExportOptions struct {
	// Title is the catalog's title; empty means "datasets listed in
	// <source>", which says where the list came from.
	Title string
	// Publisher is the name of the organisation that publishes the
	// datasets (data.json publisher, DCAT dct:publisher, schema.org and
	// Croissant creator). Without it, a discovered dataset's publisher
	// (and creator) is the one its sources state, and the catalog's the
	// one all its datasets' sources state.
	Publisher string
	// ContactName and ContactEmail are the datasets' contact point
	// (data.json contactPoint, DCAT dcat:contactPoint). Without either, a
	// discovered dataset's is the one its sources state.
	ContactName, ContactEmail string
	// BureauCode and ProgramCode, when both are given, make the data.json
	// export follow the US federal schema (which also requires keyword and
	// modified) instead of the non-federal one.
	BureauCode, ProgramCode []string
}

// Federal reports whether the data.json export follows the federal schema.
func (o ExportOptions) Federal() bool { return len(o.BureauCode) > 0 && len(o.ProgramCode) > 0 }

func (o ExportOptions) title(c *Catalog) string {
	if o.Title != "" {
		return o.Title
	}
	return "datasets listed in " + catalogSource(c)
}

func (o ExportOptions) email() string { return mailto(o.ContactEmail) }

// Problem is something an export had to leave out: an error when the
// format requires the field (the document is then invalid for its
// validator, and Field names what is missing), a warning otherwise.
type Problem struct {
	*grammar.Diagnostic
	// Format is the export format ("datajson", "dcat", ...).
	Format string
	// Field is the format's property, as its validator names it
	// ("description", "contactPoint", "downloadURL").
	Field string
	// Dataset is the entry's title; "" for the catalog itself.
	Dataset string
}

// Problems are the problems of one export.
type Problems []*Problem

// HasErrors reports whether a required field is missing.
func (ps Problems) HasErrors() bool {
	for _, p := range ps {
		if p.Severity == grammar.Error {
			return true
		}
	}
	return false
}

// Diagnostics returns the problems as diagnostics.
func (ps Problems) Diagnostics() grammar.Diagnostics {
	out := make(grammar.Diagnostics, len(ps))
	for i, p := range ps {
		out[i] = p.Diagnostic
	}
	return out
}

// exporter collects the problems of one export.
type exporter struct {
	warnedIRI bool // noIRI said it once
	warnedRel bool // relativePaths said it once
	format    string
	c         *Catalog
	opts      ExportOptions
	probs     Problems
	ids       map[*Entry]string // unique key of each entry in the catalog
}

func newExporter(format string, c *Catalog, opts ExportOptions) *exporter {
	x := &exporter{format: format, c: c, opts: opts, ids: map[*Entry]string{}}
	used := map[string]bool{}
	for _, e := range c.Entries {
		k := slug(e.Name)
		if k == "" && len(e.Paths) > 0 {
			k = slug(strings.TrimSuffix(path.Base(e.Paths[0]), path.Ext(e.Paths[0])))
		}
		if k == "" {
			k = "dataset"
		}
		out := k
		for i := 2; used[out]; i++ {
			out = fmt.Sprintf("%s-%d", k, i)
		}
		used[out] = true
		x.ids[e] = out
	}
	return x
}

func (x *exporter) problem(sev grammar.Severity, e *Entry, field, msg string) {
	x.problemAt(sev, e, -1, field, msg)
}

// problemAt reports a problem at the entry's path i (its entry when i < 0).
func (x *exporter) problemAt(sev grammar.Severity, e *Entry, i int, field, msg string) {
	d := &grammar.Diagnostic{Severity: sev, Code: "export-" + x.format, Filename: x.c.Name}
	name := ""
	if e != nil {
		name = e.Title()
		at := e.Pos
		if i >= 0 && i < len(e.pathPos) {
			at = e.pathPos[i]
		}
		d.Range = grammar.Range{Start: at, End: at}
		if n := e.fileName(); n != "" {
			d.Filename = n
		}
		d.Summary = fmt.Sprintf("%s: dataset %q: %s", x.format, name, msg)
	} else {
		d.Summary = fmt.Sprintf("%s: catalog: %s", x.format, msg)
	}
	x.probs = append(x.probs, &Problem{Diagnostic: d, Format: x.format, Field: field, Dataset: name})
}

// missing reports a required field no input gave.
func (x *exporter) missing(e *Entry, field, msg string) {
	x.problem(grammar.Error, e, field, fmt.Sprintf("no %s: %s", field, msg))
}

// iri returns the entry's IRI: its own ID when its sources gave one,
// else its data.txt's absolute URL (the one it was fetched from, else the
// catalog's base, --base) with the entry's key as fragment, or "" when
// neither is absolute.
func (x *exporter) iri(e *Entry) string {
	if e.ID != "" {
		return e.ID
	}
	for _, src := range []string{e.Source, x.c.Base} {
		if u, err := url.Parse(src); err == nil && u.IsAbs() && u.Host != "" {
			u.Fragment = x.ids[e]
			return u.String()
		}
	}
	return ""
}

// noIRI says, once per export, why the datasets have no IRI.
func (x *exporter) noIRI(e *Entry) {
	if x.warnedIRI {
		return
	}
	x.warnedIRI = true
	x.problem(grammar.Warning, e, "@id", "datasets have no IRI: the data.txt was read from a file; give its URL (--base) to mint one")
}

// catalogIRI returns the catalog's absolute URL, or "".
func (x *exporter) catalogIRI() string {
	if u, err := url.Parse(x.c.Base); err == nil && u.IsAbs() && u.Host != "" {
		return x.c.Base
	}
	return ""
}

// file is one distribution of an entry.
type file struct {
	index     int    // in Entry.Paths
	path      string // as written
	url       string // absolute http(s) URL, or ""
	mediaType string // IANA media type, or ""
	format    string // extension without its dot, or ""
	bytes     int64  // size, or -1
	modified  string // ISO 8601 Last-Modified from a probe, or ""
}

// files returns the entry's distributions. Paths with no absolute URL
// and pins directories are reported (as field) and left out.
func (x *exporter) files(e *Entry, field string) []file {
	var out []file
	urls := e.urlByPath()
	sizes := e.fileSizes()
	for i, p := range e.Paths {
		u := urls[i]
		if u == "" {
			continue // not a URL reference, or not http(s): Parse reported it
		}
		if pinsDirectory(p) {
			x.problemAt(grammar.Warning, e, i, field, fmt.Sprintf("path %q is a pins directory, not a file: its files are listed in its own data.txt, read when the board is fetched (datasets URL); left out", p))
			continue
		}
		if pu, err := url.Parse(u); err != nil || !pu.IsAbs() || pu.Host == "" {
			x.problemAt(grammar.Error, e, i, field, fmt.Sprintf("no %s: path %q has no absolute URL: give the data.txt's URL (--base) or fetch it", field, p))
			continue
		}
		f := file{index: i, path: p, url: u, mediaType: mediaType(u), format: format(u), bytes: sizes[i]}
		if info, ok := e.Files[u]; ok {
			if info.MediaType != "" {
				f.mediaType = info.MediaType
			}
			if info.Size >= 0 {
				f.bytes = info.Size
			}
			if !info.LastModified.IsZero() {
				f.modified = info.LastModified.UTC().Format(time.RFC3339)
			}
		}
		out = append(out, f)
	}
	return out
}

// pinsDirectory reports whether a path names a directory, as a pins 0.x
// board index lists pins ("path: mtcars"): a relative path or http(s) URL
// without a query that ends in "/" or whose last segment has no
// extension. (pins itself takes any path without an extension, "data.csv"
// without a "/" included, for a directory; we keep file names as files.)
func pinsDirectory(p string) bool {
	u, err := url.Parse(p)
	if err != nil || u.RawQuery != "" || (u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	if strings.HasSuffix(u.Path, "/") {
		return true
	}
	return u.Path != "" && path.Ext(path.Base(u.Path)) == ""
}

// fileSizes returns the size of each path from pins' file_size (or
// bytes, size) metadata: one number for a single path, a list with one per
// path for several (as pins writes them); -1 where unknown.
func (e *Entry) fileSizes() []int64 {
	out := make([]int64, len(e.Paths))
	for i := range out {
		out[i] = -1
	}
	size := func(v any) int64 {
		switch v := v.(type) {
		case int64:
			if v >= 0 {
				return v
			}
		case float64:
			if v >= 0 && v == float64(int64(v)) {
				return int64(v)
			}
		}
		return -1
	}
	for _, k := range []string{"file_size", "bytes", "size"} {
		switch v := e.Metadata[k].(type) {
		case nil:
			continue
		case []any:
			if len(v) == len(out) {
				for i := range v {
					out[i] = size(v[i])
				}
			}
		default:
			if len(out) == 1 {
				out[0] = size(v)
			}
		}
		return out
	}
	return out
}

// description returns the entry's description, or "".
func (e *Entry) description() string {
	return strings.TrimSpace(e.Text("description"))
}

// keywords returns the entry's keywords, tags or keyword metadata: a list,
// or a comma-separated string.
func (e *Entry) keywords() []string {
	var out []string
	for _, k := range []string{"keywords", "keyword", "tags"} {
		switch v := e.Metadata[k].(type) {
		case string:
			for _, s := range strings.Split(v, ",") {
				if s = strings.TrimSpace(s); s != "" {
					out = append(out, s)
				}
			}
		case []any:
			for _, s := range v {
				if s, ok := s.(string); ok && strings.TrimSpace(s) != "" {
					out = append(out, strings.TrimSpace(s))
				}
			}
		}
	}
	return out
}

// dateLayouts are the date forms read from date metadata, with the kind
// of XML Schema date each gives.
var dateLayouts = []struct {
	layout string
	date   bool
}{
	{time.RFC3339, false}, {"2006-01-02T15:04:05", false}, {"2006-01-02 15:04:05", false},
	{"20060102T150405Z", false}, {"2006-01-02", true},
}

// The metadata keys dates are read from.
var (
	modifiedKeys  = []string{"modified", "updated", "last_modified", "date", "created"}
	publishedKeys = []string{"issued", "published", "created", "date"}
)

// parseDate reads s as one of dateLayouts: the ISO 8601 form, whether it
// is a date without a time, and whether it parsed.
func parseDate(s string) (string, bool, bool) {
	s = strings.TrimSpace(s)
	for _, l := range dateLayouts {
		if t, err := time.Parse(l.layout, s); err == nil {
			if l.date {
				return t.Format("2006-01-02"), true, true
			}
			return t.UTC().Format(time.RFC3339), false, true
		}
	}
	return "", false, false
}

// date returns the first of keys the entry gives as a valid date: ISO
// 8601, and whether it is a date without a time. A value that is not a
// date is reported once per export and skipped, never replaced.
func (x *exporter) date(e *Entry, keys []string) (string, bool) {
	for _, k := range keys {
		s := strings.TrimSpace(e.Text(k))
		if s == "" {
			continue
		}
		if iso, isDate, ok := parseDate(s); ok {
			return iso, isDate
		}
	}
	return "", false
}

// modified returns the entry's modification date: from its metadata, else
// the latest Last-Modified a probe found for its files; "" when neither
// says (never the export date).
func (x *exporter) modified(e *Entry) (string, bool) {
	if m, isDate := x.date(e, modifiedKeys); m != "" {
		return m, isDate
	}
	var latest time.Time
	for _, fi := range e.Files {
		if fi.LastModified.After(latest) {
			latest = fi.LastModified
		}
	}
	if latest.IsZero() {
		return "", false
	}
	return latest.UTC().Format(time.RFC3339), false
}

// badDates reports date metadata that is not a date.
func (x *exporter) badDates(e *Entry) {
	seen := map[string]bool{}
	for _, k := range append(append([]string{}, modifiedKeys...), publishedKeys...) {
		if seen[k] {
			continue
		}
		seen[k] = true
		s := strings.TrimSpace(e.Text(k))
		if s == "" {
			continue
		}
		if _, _, ok := parseDate(s); !ok {
			x.problem(grammar.Warning, e, k, fmt.Sprintf("%s %q is not a date (YYYY-MM-DD or RFC 3339); left out", k, s))
		}
	}
}

// license returns the entry's license metadata and whether it is an
// absolute http(s) URL.
func (e *Entry) license() (string, bool) {
	s := strings.TrimSpace(e.Text("license"))
	if s == "" {
		return "", false
	}
	return s, isHTTP(s)
}

func isHTTP(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// mediaTypes maps file extensions to IANA media types. A path whose type
// is not known has none (it is left out, not guessed).
var mediaTypes = map[string]string{
	".csv": "text/csv", ".tsv": "text/tab-separated-values", ".txt": "text/plain",
	".json": "application/json", ".geojson": "application/geo+json", ".jsonl": "application/jsonl",
	".ndjson": "application/x-ndjson", ".xml": "application/xml", ".html": "text/html",
	".xls": "application/vnd.ms-excel", ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".ods": "application/vnd.oasis.opendocument.spreadsheet", ".zip": "application/zip", ".gz": "application/gzip",
	".parquet": "application/vnd.apache.parquet", ".arrow": "application/vnd.apache.arrow.file",
	".feather": "application/vnd.apache.arrow.file", ".pdf": "application/pdf", ".yaml": "application/yaml",
	".yml": "application/yaml", ".rds": "application/octet-stream", ".qs": "application/octet-stream",
	".sqlite": "application/vnd.sqlite3", ".ics": "text/calendar", ".ifb": "text/calendar",
	".vcf": "text/vcard", ".kml": "application/vnd.google-earth.kml+xml", ".kmz": "application/vnd.google-earth.kmz",
	".rdf": "application/rdf+xml", ".ttl": "text/turtle", ".jsonld": "application/ld+json",
	".md": "text/markdown", ".zst": "application/zstd",
}

// euFileTypes maps extensions to the EU Publications Office file-type
// authority (DCAT-AP's vocabulary for dct:format).
var euFileTypes = map[string]string{
	"csv": "CSV", "tsv": "TSV", "txt": "TXT", "json": "JSON", "geojson": "GEOJSON", "jsonl": "JSON_LINES",
	"ndjson": "JSON_LINES", "xml": "XML", "html": "HTML", "xls": "XLS", "xlsx": "XLSX", "ods": "ODS",
	"zip": "ZIP", "gz": "GZIP", "parquet": "PARQUET", "pdf": "PDF", "yaml": "YAML", "yml": "YAML",
	"rds": "RDS", "sqlite": "SQLITE", "arrow": "ARROW", "feather": "ARROW",
}

const euFileTypeBase = "http://publications.europa.eu/resource/authority/file-type/"

// format returns the lower-case extension of a path or URL without its
// dot, or "".
func format(p string) string {
	if u, err := url.Parse(p); err == nil {
		p = u.Path
	}
	return strings.TrimPrefix(strings.ToLower(path.Ext(p)), ".")
}

func mediaType(p string) string {
	return mediaTypes["."+format(p)]
}

func catalogSource(c *Catalog) string {
	if c.Base != "" {
		return c.Base
	}
	return c.Name
}
