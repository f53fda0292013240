package datatxt

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
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
	// Croissant creator).
	Publisher string
	// ContactName and ContactEmail are the datasets' contact point
	// (data.json contactPoint, DCAT dcat:contactPoint).
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

func (o ExportOptions) email() string {
	if o.ContactEmail == "" || strings.HasPrefix(o.ContactEmail, "mailto:") {
		return o.ContactEmail
	}
	return "mailto:" + o.ContactEmail
}

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
	format string
	c      *Catalog
	opts   ExportOptions
	probs  Problems
	ids    map[*Entry]string // unique key of each entry in the catalog
}

func newExporter(format string, c *Catalog, opts ExportOptions) *exporter {
	x := &exporter{format: format, c: c, opts: opts, ids: map[*Entry]string{}}
	used := map[string]bool{}
	for _, e := range c.Entries {
		k := slug(e.Name)
		if k == "" {
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
		if e.file != "" {
			d.Filename = e.file
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

// iri returns the entry's IRI: its data.txt's absolute URL with the
// entry's key as fragment, or "" when the data.txt has no absolute URL.
func (x *exporter) iri(e *Entry) string {
	src := e.Source
	if src == "" {
		src = x.c.Base
	}
	u, err := url.Parse(src)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return ""
	}
	u.Fragment = x.ids[e]
	return u.String()
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
		f := file{path: p, url: u, mediaType: mediaType(u), format: format(u), bytes: sizes[i]}
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
	".sqlite": "application/vnd.sqlite3",
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

// SchemaOrg returns the catalog as a schema.org DataCatalog in JSON-LD:
// one Dataset per entry, one DataDownload per file, checked against
// Google Dataset Search's rules (a description of 50 to 5000 characters,
// license a URL or a CreativeWork, absolute contentUrl).
func SchemaOrg(c *Catalog, opts ExportOptions) (map[string]any, Problems) {
	x := newExporter("schemaorg", c, opts)
	datasets := make([]any, 0, len(c.Entries))
	for _, e := range c.Entries {
		x.badDates(e)
		var dist []any
		for _, f := range x.files(e, "contentUrl") {
			d := map[string]any{"@type": "DataDownload", "contentUrl": f.url}
			if f.mediaType != "" {
				d["encodingFormat"] = f.mediaType
			}
			if f.bytes >= 0 {
				d["contentSize"] = fmt.Sprintf("%d B", f.bytes)
			}
			dist = append(dist, d)
		}
		d := map[string]any{"@type": "Dataset", "name": e.Title()}
		if id := x.iri(e); id != "" {
			d["@id"] = id
			d["url"] = id
		}
		desc := e.description()
		switch n := len([]rune(desc)); {
		case n == 0:
			x.missing(e, "description", "the data.txt gives none (Google Dataset Search requires 50 to 5000 characters)")
		case n < 50 || n > 5000:
			x.problem(grammar.Error, e, "description", fmt.Sprintf("description has %d characters; Google Dataset Search requires 50 to 5000", n))
			d["description"] = desc
		default:
			d["description"] = desc
		}
		if len(dist) > 0 {
			d["distribution"] = dist
		}
		d["identifier"] = x.ids[e]
		if e.Name != "" && e.Name != e.Title() {
			d["alternateName"] = e.Name
		}
		if l, isURL := e.license(); isURL {
			d["license"] = l
		} else if l != "" {
			d["license"] = map[string]any{"@type": "CreativeWork", "name": l}
		}
		if opts.Publisher != "" {
			d["creator"] = map[string]any{"@type": "Organization", "name": opts.Publisher}
		}
		if kw := e.keywords(); len(kw) > 0 {
			d["keywords"] = kw
		}
		if m, _ := x.modified(e); m != "" {
			d["dateModified"] = m
		}
		if s := strings.TrimSpace(e.Text("source")); s != "" {
			if isHTTP(s) {
				d["isBasedOn"] = s
			} else {
				d["isBasedOn"] = map[string]any{"@type": "CreativeWork", "name": s}
			}
		}
		datasets = append(datasets, d)
	}
	cat := map[string]any{
		"@context": "https://schema.org/",
		"@type":    "DataCatalog",
		"name":     opts.title(c),
		"dataset":  datasets,
	}
	if opts.Publisher != "" {
		cat["publisher"] = map[string]any{"@type": "Organization", "name": opts.Publisher}
	}
	if id := x.catalogIRI(); id != "" {
		cat["url"] = id
	}
	return cat, x.probs
}

// dcatContext is the JSON-LD context of the DCAT export.
var dcatContext = map[string]any{
	"dcat":  "http://www.w3.org/ns/dcat#",
	"dct":   "http://purl.org/dc/terms/",
	"foaf":  "http://xmlns.com/foaf/0.1/",
	"vcard": "http://www.w3.org/2006/vcard/ns#",
	"xsd":   "http://www.w3.org/2001/XMLSchema#",
}

func typedDate(iso string, isDate bool) map[string]any {
	t := "xsd:dateTime"
	if isDate {
		t = "xsd:date"
	}
	return map[string]any{"@value": iso, "@type": t}
}

// DCAT returns the catalog as a DCAT-AP 3.0 dcat:Catalog in JSON-LD: one
// dcat:Dataset (with an IRI) per entry, one dcat:Distribution per file,
// media types as IANA IRIs, formats as EU file-type IRIs, dates typed.
func DCAT(c *Catalog, opts ExportOptions) (map[string]any, Problems) {
	x := newExporter("dcat", c, opts)
	datasets := make([]any, 0, len(c.Entries))
	for _, e := range c.Entries {
		x.badDates(e)
		var dist []any
		for _, f := range x.files(e, "accessURL") {
			d := map[string]any{
				"@type":            "dcat:Distribution",
				"dcat:accessURL":   map[string]any{"@id": f.url},
				"dcat:downloadURL": map[string]any{"@id": f.url},
			}
			if f.mediaType != "" {
				d["dcat:mediaType"] = map[string]any{"@id": "https://www.iana.org/assignments/media-types/" + f.mediaType, "@type": "dct:MediaType"}
			}
			if ft, ok := euFileTypes[f.format]; ok {
				d["dct:format"] = map[string]any{"@id": euFileTypeBase + ft, "@type": "dct:MediaTypeOrExtent"}
			}
			if f.bytes >= 0 {
				d["dcat:byteSize"] = map[string]any{"@value": fmt.Sprint(f.bytes), "@type": "xsd:nonNegativeInteger"}
			}
			if f.modified != "" {
				d["dct:modified"] = typedDate(f.modified, false)
			}
			dist = append(dist, d)
		}
		d := map[string]any{
			"@type":          "dcat:Dataset",
			"dct:title":      e.Title(),
			"dct:identifier": x.ids[e],
		}
		if id := x.iri(e); id != "" {
			d["@id"] = id
		}
		if desc := e.description(); desc != "" {
			d["dct:description"] = desc
		} else {
			x.missing(e, "description", "the data.txt gives none (DCAT-AP requires dct:description)")
		}
		if len(dist) > 0 {
			d["dcat:distribution"] = dist
		}
		if opts.ContactName != "" || opts.ContactEmail != "" {
			cp := map[string]any{"@type": "vcard:Kind"}
			if opts.ContactName != "" {
				cp["vcard:fn"] = opts.ContactName
			}
			if em := opts.email(); em != "" {
				cp["vcard:hasEmail"] = map[string]any{"@id": em}
			}
			d["dcat:contactPoint"] = cp
		}
		if l, isURL := e.license(); isURL {
			d["dct:license"] = map[string]any{"@id": l, "@type": "dct:LicenseDocument"}
		} else if l != "" {
			d["dct:license"] = map[string]any{"@type": "dct:LicenseDocument", "dct:title": l}
		}
		if kw := e.keywords(); len(kw) > 0 {
			d["dcat:keyword"] = kw
		}
		if m, isDate := x.modified(e); m != "" {
			d["dct:modified"] = typedDate(m, isDate)
		}
		datasets = append(datasets, d)
	}
	cat := map[string]any{
		"@context":        dcatContext,
		"@type":           "dcat:Catalog",
		"dct:title":       opts.title(c),
		"dct:description": "datasets listed in the data.txt " + catalogSource(c),
		"dcat:dataset":    datasets,
	}
	if opts.Publisher != "" {
		cat["dct:publisher"] = map[string]any{"@type": "foaf:Agent", "foaf:name": opts.Publisher}
	} else {
		x.missing(nil, "publisher", "a data.txt cannot name one: give --publisher (DCAT-AP requires dct:publisher)")
	}
	if id := x.catalogIRI(); id != "" {
		cat["@id"] = id
	}
	return cat, x.probs
}

// The Project Open Data v1.1 schema addresses.
const (
	PODConformsTo  = "https://project-open-data.cio.gov/v1.1/schema"
	PODContext     = "https://project-open-data.cio.gov/v1.1/schema/catalog.jsonld"
	PODDescribedBy = "https://project-open-data.cio.gov/v1.1/schema/catalog.json"
)

// podEmail is POD's hasEmail pattern.
var podEmail = regexp.MustCompile(`^mailto:[\w_~!$&'()*+,;=:.-]+@[\w.-]+\.[\w.-]+?$`)

// DataJSON returns the catalog as a Project Open Data v1.1 data.json
// catalog, following the non-federal schema (title, description,
// publisher, contactPoint, identifier and accessLevel required), or the
// federal one when opts.Federal (keyword, modified, bureauCode and
// programCode too). A dataset its access rules disallow is "restricted
// public", never "public".
func DataJSON(c *Catalog, opts ExportOptions) (map[string]any, Problems) {
	x := newExporter("datajson", c, opts)
	federal := opts.Federal()
	datasets := make([]any, 0, len(c.Entries))
	for _, e := range c.Entries {
		x.badDates(e)
		var dist []any
		for _, f := range x.files(e, "downloadURL") {
			d := map[string]any{"@type": "dcat:Distribution", "downloadURL": f.url}
			if f.mediaType != "" {
				d["mediaType"] = f.mediaType
			}
			if f.format != "" {
				d["format"] = f.format
			}
			dist = append(dist, d)
		}
		access := "public"
		if s := e.Text("accesslevel"); s == "public" || s == "restricted public" || s == "non-public" {
			access = s
		}
		if e.Access == Disallowed && access == "public" {
			access = "restricted public"
		}
		d := map[string]any{
			"@type":       "dcat:Dataset",
			"title":       e.Title(),
			"identifier":  x.ids[e],
			"accessLevel": access,
		}
		if id := x.iri(e); id != "" {
			d["identifier"] = id
		}
		if desc := e.description(); desc != "" {
			d["description"] = desc
		} else {
			x.missing(e, "description", "the data.txt gives none (Project Open Data requires it)")
		}
		if opts.Publisher != "" {
			d["publisher"] = map[string]any{"@type": "org:Organization", "name": opts.Publisher}
		} else {
			x.missing(e, "publisher", "a data.txt cannot name one: give --publisher")
		}
		if opts.ContactName != "" {
			cp := map[string]any{"@type": "vcard:Contact", "fn": opts.ContactName}
			if em := opts.email(); em != "" {
				cp["hasEmail"] = em
				if !podEmail.MatchString(em) {
					x.problem(grammar.Error, e, "hasEmail", fmt.Sprintf("contact email %q is not an address Project Open Data accepts", opts.ContactEmail))
				}
			} else if federal {
				x.missing(e, "hasEmail", "give --contact-email (the federal schema requires it)")
			}
			d["contactPoint"] = cp
		} else {
			x.missing(e, "contactPoint", "a data.txt cannot name one: give --contact")
		}
		if kw := e.keywords(); len(kw) > 0 {
			d["keyword"] = kw
		} else if federal {
			x.missing(e, "keyword", "the data.txt gives no keywords or tags (the federal schema requires keyword)")
		}
		if m, _ := x.modified(e); m != "" {
			d["modified"] = m
		} else if federal {
			x.missing(e, "modified", "the data.txt gives no modified, updated or created date (the federal schema requires modified)")
		}
		if len(dist) > 0 {
			d["distribution"] = dist
		}
		if l, isURL := e.license(); isURL {
			d["license"] = l
		}
		if federal {
			d["bureauCode"] = opts.BureauCode
			d["programCode"] = opts.ProgramCode
		}
		datasets = append(datasets, d)
	}
	return map[string]any{
		"@context":    PODContext,
		"@type":       "dcat:Catalog",
		"conformsTo":  PODConformsTo,
		"describedBy": PODDescribedBy,
		"dataset":     datasets,
	}, x.probs
}

// frictionlessName is the pattern of a Frictionless resource or package
// name.
var frictionlessName = regexp.MustCompile(`^([-a-z0-9._/])+$`)

// slug lower-cases s and replaces every character a Frictionless name may
// not hold with "-".
func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '.', r == '_', r == '/':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}

// DataPackage returns the catalog as a Frictionless Data Package
// (datapackage.json, v1): one resource per path of each entry, named after
// the entry (lower-cased, other characters replaced with "-", "-2", "-3"
// added to keep names unique; with the format appended when an entry has
// several paths). The resource path is the URL, or the path as written when
// there is no base URL (relative to the data.txt, as Frictionless paths are
// relative to the datapackage.json). pins' file_size is the resource's
// bytes.
func DataPackage(c *Catalog, opts ExportOptions) (map[string]any, Problems) {
	x := newExporter("datapackage", c, opts)
	used := map[string]bool{}
	unique := func(n string) string {
		if n == "" {
			n = "dataset"
		}
		out := n
		for i := 2; used[out]; i++ {
			out = fmt.Sprintf("%s-%d", n, i)
		}
		used[out] = true
		return out
	}
	var resources []any
	for _, e := range c.Entries {
		x.badDates(e)
		base := slug(e.Name)
		if base == "" {
			base = slug(strings.TrimSuffix(path.Base(e.Paths[0]), path.Ext(e.Paths[0])))
		}
		urls := e.urlByPath()
		sizes := e.fileSizes()
		for i, p := range e.Paths {
			loc := urls[i]
			if loc == "" && !e.goodPath(i) && e.DeniedBy == "scheme" {
				continue // not http(s): never exported
			}
			if u, err := url.Parse(loc); loc == "" || err != nil || !u.IsAbs() {
				// Host-less: relative to the data.txt (taken to be at the
				// site root), with dot segments resolved; Frictionless
				// forbids absolute paths and "..".
				if loc == "" {
					loc = path.Clean("/" + p)
				}
				loc = strings.TrimLeft(loc, "/")
			}
			name := base
			if len(e.Paths) > 1 {
				if f := format(p); f != "" {
					name = base + "." + slug(f)
				}
			}
			r := map[string]any{
				"name":  unique(name),
				"path":  loc,
				"title": e.Title(),
			}
			if desc := e.description(); desc != "" {
				r["description"] = desc
			}
			if mt := mediaType(p); mt != "" {
				r["mediatype"] = mt
			}
			if f := format(p); f != "" {
				r["format"] = f
			}
			if sizes[i] >= 0 {
				r["bytes"] = sizes[i]
			}
			if info, ok := e.Files[urls[i]]; ok && info.Size >= 0 {
				r["bytes"] = info.Size
			}
			if l, isURL := e.license(); isURL {
				r["licenses"] = []any{map[string]any{"path": l}}
			} else if l != "" {
				r["licenses"] = []any{map[string]any{"name": slug(l), "title": l}}
			}
			if fields := e.schemaFields(); fields != nil {
				r["schema"] = map[string]any{"fields": fields}
			}
			resources = append(resources, r)
		}
	}
	pkg := map[string]any{
		"profile":   "data-package",
		"title":     opts.title(c),
		"resources": resources,
	}
	if n := slug(packageName(c)); n != "" {
		pkg["name"] = n
	}
	if len(resources) == 0 {
		x.missing(nil, "resources", "the data.txt lists no file (a data package needs at least one resource)")
	}
	return pkg, x.probs
}

func packageName(c *Catalog) string {
	if u, err := url.Parse(c.Base); err == nil && u.Host != "" {
		return u.Host + strings.TrimSuffix(strings.TrimSuffix(u.Path, "/data.txt"), "/")
	}
	return strings.TrimSuffix(path.Base(c.Name), path.Ext(c.Name))
}

// rTypes maps R column classes, as pins and cellar write them, to
// Frictionless field types.
var rTypes = map[string]string{
	"character": "string", "factor": "string", "integer": "integer", "numeric": "number",
	"double": "number", "logical": "boolean", "Date": "date", "POSIXct": "datetime",
}

// column is one column pins or cellar record: its name, R class and
// description.
type column struct {
	name, class, description string
}

// columns returns the entry's "columns" metadata: a mapping of column
// name to R class, or a list of mappings with name, type and description;
// nil when there is none.
func (e *Entry) columns() []column {
	switch cols := e.Metadata["columns"].(type) {
	case map[string]any:
		keys := e.colOrder
		if len(keys) != len(cols) {
			keys = sortedKeys(cols)
		}
		var out []column
		for _, k := range keys {
			if v, ok := cols[k]; ok {
				t, _ := v.(string)
				if _, known := rTypes[t]; !known && strings.ContainsAny(t, " \t") {
					// cellar writes "column: what it holds"
					out = append(out, column{name: k, description: t})
					continue
				}
				out = append(out, column{name: k, class: t})
			}
		}
		return out
	case []any:
		var out []column
		for _, c := range cols {
			m, ok := c.(map[string]any)
			if !ok {
				return nil
			}
			n, ok := m["name"].(string)
			if !ok {
				return nil
			}
			t, _ := m["type"].(string)
			d, _ := m["description"].(string)
			out = append(out, column{name: n, class: t, description: d})
		}
		return out
	}
	return nil
}

// schemaFields returns Frictionless schema fields from the entry's
// columns, or nil.
func (e *Entry) schemaFields() []any {
	cols := e.columns()
	if cols == nil {
		return nil
	}
	out := make([]any, 0, len(cols))
	for _, c := range cols {
		f := map[string]any{"name": c.name}
		if c.class != "" {
			if ft, ok := rTypes[c.class]; ok {
				f["type"] = ft
			} else {
				f["type"] = "any"
			}
		}
		if c.description != "" {
			f["description"] = c.description
		}
		out = append(out, f)
	}
	return out
}
