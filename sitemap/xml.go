package sitemap

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
)

// The namespaces a sitemap's elements are recognised by.
const (
	nsSitemap = "http://www.sitemaps.org/schemas/sitemap/0.9"
	nsImage   = "http://www.google.com/schemas/sitemap-image/1.1"
	nsVideo   = "http://www.google.com/schemas/sitemap-video/1.1"
	nsNews    = "http://www.google.com/schemas/sitemap-news/0.9"
	nsXHTML   = "http://www.w3.org/1999/xhtml"
	nsDC      = "http://purl.org/dc/elements/1.1/"
	nsAtom    = "http://www.w3.org/2005/Atom"
)

// ext is an extension an element belongs to, by its namespace; an
// undeclared prefix of the usual name ("image:") counts too.
type ext uint8

const (
	extNone ext = iota
	extImage
	extVideo
	extNews
	extXHTML
)

func extOf(space string) (ext, bool) {
	switch space {
	case nsImage:
		return extImage, true
	case nsVideo:
		return extVideo, true
	case nsNews:
		return extNews, true
	case nsXHTML:
		return extXHTML, true
	case "image":
		return extImage, false
	case "video":
		return extVideo, false
	case "news":
		return extNews, false
	case "xhtml":
		return extXHTML, false
	}
	return extNone, true
}

// field is a value of an entry the parser collects the text of.
type field uint8

const (
	fNone field = iota
	fLoc
	fLastMod
	fChangeFreq
	fPriority
	fLink    // RSS <link>
	fGuid    // RSS <guid>
	fPubDate // RSS <pubDate> (RFC 822)
	fDate    // dc:date, Atom <updated>, <modified> (W3C)
	fIssued  // Atom 0.3 <issued> (W3C): the lastmod of an entry without <modified>
	fExt     // an extension's value, into ext
	nFields
)

var fieldNames = [nFields]string{fLoc: "loc", fLastMod: "lastmod", fChangeFreq: "changefreq", fPriority: "priority",
	fLink: "link", fGuid: "guid", fPubDate: "pubDate", fDate: "date", fIssued: "issued"}

// maxDepth bounds how deep elements nest: the Decoder keeps a record per
// open element, and no sitemap needs more than a handful.
const maxDepth = 64

// maxValue bounds the text kept for one value; a loc is bounded by
// maxLocBytes (an entry with a longer one is dropped).
const (
	maxValue    = 8 << 10
	maxLocBytes = 64 << 10
)

// entryBlock is how many entries the parser allocates at once: one
// allocation, and one object for the collector, instead of 42. 42 Entries
// of 192 bytes and the allocation's header fill the 8 KiB size class.
const entryBlock = 42

// tooLong stands for a value longer than its bound: never a valid value.
const tooLong = "\x00"

// xmlParser turns the Decoder's tokens into entries.
type xmlParser struct {
	r     *Reader
	in    *xmlInput
	stack []string // local names of the open elements, the root first

	cur      *Entry
	curDepth int               // depth of the entry's element
	text     []byte            // the entry's values, one after the other
	spans    [nFields][2]int32 // where each value is in text
	valPos   [nFields]grammar.Pos
	seen     [nFields]bool
	ent      [nFields]bool // the value held an entity reference not expanded: not read
	perma    bool          // the guid may stand for the link
	started  int           // entry elements seen, kept or not

	field      field
	fieldDepth int
	buf        []byte
	over       bool
	bufEnt     bool    // buf's text held an entity reference not expanded
	attrEnt    bool    // the start tag's attributes did
	target     *string // fExt's destination
	undeclared map[string]bool

	slab   []Entry // the last block of entries allocated, used up to used
	used   int
	fastOK bool // the fast path may read entries (fast.go)
}

func (r *Reader) readXML(src *bufio.Reader, raw *rawReader, at grammar.Pos, max int64, yield func(*Entry, error) bool) error {
	in := &xmlInput{src: src, pos: at, max: max, maxTok: maxToken, report: r.diag, textPos: at, markPos: at}
	d := xml.NewDecoder(in)
	d.CharsetReader = func(label string, input io.Reader) (io.Reader, error) {
		if !strings.EqualFold(label, "us-ascii") && !strings.EqualFold(label, "ascii") {
			r.diag(grammar.Warning, "encoding", in.markPos, fmt.Sprintf("the XML declaration names the encoding %q; sitemaps must be UTF-8: read as UTF-8 (bytes that are not UTF-8 become U+FFFD)", label))
		}
		return input, nil
	}
	p := &xmlParser{r: r, in: in}
	for {
		tok, err := d.Token()
		if err != nil {
			return p.end(err, raw)
		}
		ents := in.ents > 0
		in.ents = 0
		p.attrEnt = false
		switch t := tok.(type) {
		case xml.StartElement:
			if len(p.stack) >= maxDepth {
				r.diag(grammar.Error, "too-deep", in.markPos, fmt.Sprintf("elements nest deeper than %d: the rest of the file is not read", maxDepth))
				return nil
			}
			p.stack = append(p.stack, t.Name.Local)
			p.attrEnt = ents
			if !p.start(t) {
				return nil
			}
			if len(p.stack) == 1 && in.prev[0] != '/' && !p.fast(yield) { // not <urlset/>
				return nil
			}
		case xml.EndElement:
			done, more := p.endElement(t, yield)
			if !more || done || !p.fast(yield) {
				return nil
			}
		case xml.CharData:
			p.bufEnt = p.bufEnt || (ents && p.field != fNone)
			if p.field != fNone && !p.over {
				limit := maxValue
				if p.field == fLoc || p.field == fLink {
					limit = maxLocBytes
				}
				if len(p.buf)+len(t) > limit {
					p.over = true
				} else {
					p.buf = append(p.buf, t...)
				}
			}
		case xml.Comment:
			if !p.fast(yield) {
				return nil
			}
		case xml.Directive:
			what := "declaration"
			if s := strings.ToUpper(string(t)); strings.HasPrefix(s, "DOCTYPE") {
				what = "DOCTYPE declaration"
			}
			r.diag(grammar.Warning, "doctype", in.markPos, fmt.Sprintf("%s: ignored (no DTD is read, and no entity it declares is expanded)", what))
		}
	}
}

// end reports why the token stream ended and returns the caller's error.
func (p *xmlParser) end(err error, raw *rawReader) error {
	r, at := p.r, p.in.pos
	var se *xml.SyntaxError
	switch {
	case err == io.EOF && r.format == Unknown:
		r.diag(grammar.Error, "not-sitemap", at, "the file holds no XML element: not a sitemap")
		return nil
	case err == io.EOF:
		return nil
	case errors.As(err, &se) && r.format == Unknown:
		r.diag(grammar.Error, "not-xml", p.in.errPos(), fmt.Sprintf("not XML: %s: the file is not read", se.Msg))
		return nil
	case errors.As(err, &se):
		r.diag(grammar.Error, "xml", p.in.errPos(), fmt.Sprintf("XML syntax error: %s: the rest of the file is not read", se.Msg))
		return nil
	case p.in.err == err || errors.As(err, new(ioError)):
		return r.stopped(err, raw, at, "xml")
	}
	code := "xml"
	if r.format == Unknown {
		code = "not-xml"
	}
	r.diag(grammar.Error, code, at, fmt.Sprintf("%v: the rest of the file is not read", strings.TrimPrefix(err.Error(), "xml: ")))
	return nil
}

// start handles a start tag; false stops reading.
func (p *xmlParser) start(t xml.StartElement) bool {
	r, depth, at := p.r, len(p.stack), p.in.markPos
	if depth == 1 {
		return p.root(t)
	}
	if p.cur == nil {
		return p.maybeEntry(t, depth, at)
	}
	if p.field != fNone {
		return true // markup inside a value: its text counts
	}
	x, declared := extOf(t.Name.Space)
	if x != extNone {
		if !declared && !p.undeclared[t.Name.Space] {
			if p.undeclared == nil {
				p.undeclared = map[string]bool{}
			}
			p.undeclared[t.Name.Space] = true
			r.diag(grammar.Warning, "namespace", at, fmt.Sprintf("the prefix %q is not declared (xmlns:%s=...): read as the usual extension all the same", t.Name.Space+":", t.Name.Space))
		}
		p.extension(x, t, depth-p.curDepth)
		return true
	}
	if depth != p.curDepth+1 {
		return true
	}
	f := p.childField(t)
	if f == fNone {
		return true
	}
	if p.seen[f] {
		p.repeated([]byte(t.Name.Local), at)
		return true
	}
	p.seen[f], p.valPos[f] = true, at
	p.collect(f, depth, nil)
	return true
}

// root handles the root element: it decides the format.
func (p *xmlParser) root(t xml.StartElement) bool {
	r, at := p.r, p.in.markPos
	switch t.Name.Local {
	case "urlset":
		r.format = URLSet
	case "sitemapindex":
		r.format = Index
	case "rss", "RDF":
		r.format = RSS
	case "feed":
		r.format = Atom
	default:
		r.diag(grammar.Error, "not-sitemap", at, fmt.Sprintf("the root element <%s> is not a sitemap's (urlset, sitemapindex, rss or feed): the file is not read", t.Name.Local))
		return false
	}
	def := "" // the default namespace, which the entries' elements are in
	for _, a := range t.Attr {
		if a.Name.Space == "" && a.Name.Local == "xmlns" {
			def = a.Value
		}
	}
	x, _ := extOf(def)
	p.fastOK = x == extNone
	if (r.format == URLSet || r.format == Index) && t.Name.Space != nsSitemap {
		ns := "no namespace"
		if t.Name.Space != "" {
			ns = fmt.Sprintf("the namespace %q", t.Name.Space)
		}
		r.diag(grammar.Warning, "namespace", at, fmt.Sprintf("<%s> has %s, not the protocol's %s: read all the same", t.Name.Local, ns, nsSitemap))
	}
	return true
}

// entryName is the element that holds one entry in each format.
var entryName = [...]string{URLSet: "url", Index: "sitemap", RSS: "item", Atom: "entry"}

// maybeEntry starts an entry at an element outside any entry.
func (p *xmlParser) maybeEntry(t xml.StartElement, depth int, at grammar.Pos) bool {
	r := p.r
	parent := p.stack[depth-2]
	name := t.Name.Local
	switch r.format {
	case URLSet, Index:
		if depth != 2 {
			return true
		}
		other := entryName[Index] // a sitemap in a urlset
		if r.format == Index {
			other = entryName[URLSet]
		}
		if name == other {
			r.diag(grammar.Error, "index-entry", at, fmt.Sprintf("<%s> in a <%s>: not read (a urlset lists pages, a sitemapindex lists sitemaps)", name, p.stack[0]))
			return true
		}
	case RSS:
		if parent != "channel" && depth != 2 {
			return true
		}
	}
	if name != entryName[r.format] {
		return true
	}
	return p.begin(at, depth)
}

// begin starts an entry at depth (both paths); false stops reading.
func (p *xmlParser) begin(at grammar.Pos, depth int) bool {
	if !p.r.entryStart(at) {
		return false
	}
	if p.used == len(p.slab) {
		p.slab, p.used = make([]Entry, entryBlock), 0
	}
	p.cur, p.curDepth = &p.slab[p.used], depth
	p.used++
	p.cur.Pos = at
	p.started++
	p.text, p.spans, p.seen, p.ent, p.perma = p.text[:0], [nFields][2]int32{}, [nFields]bool{}, [nFields]bool{}, true
	return true
}

// setVal sets the value of f to v (both paths). The values of an entry
// are bytes in one buffer the parser reuses, never strings of their own:
// finish reads them without copying, and copies only the URL it keeps.
func setVal[S ~string | ~[]byte](p *xmlParser, f field, v S) {
	p.spans[f][0] = int32(len(p.text))
	p.text = append(p.text, v...)
	p.spans[f][1] = int32(len(p.text))
}

// val returns the value of f: empty when the entry has none.
func (p *xmlParser) val(f field) []byte { return p.text[p.spans[f][0]:p.spans[f][1]] }

// repeated reports a second child named name in one entry (both paths).
func (p *xmlParser) repeated(name []byte, at grammar.Pos) {
	p.r.diag(grammar.Warning, "repeated", at, fmt.Sprintf("a second <%s> in one entry: ignored, the first is kept", name))
}

// childField says which value a child of the entry element holds.
func (p *xmlParser) childField(t xml.StartElement) field {
	name := t.Name.Local
	switch p.r.format {
	case URLSet, Index:
		return fieldOf(p.r.format, []byte(name))
	case RSS:
		switch {
		case name == "link" && t.Name.Space != nsAtom: // not an atom:link in RSS
			return fLink
		case name == "guid":
			for _, a := range t.Attr {
				if a.Name.Local == "isPermaLink" && strings.TrimSpace(a.Value) == "false" {
					p.perma = false
				}
			}
			return fGuid
		case name == "pubDate":
			return fPubDate
		case name == "date" && t.Name.Space == nsDC:
			return fDate
		}
	case Atom:
		switch name {
		case "link":
			p.atomLink(t)
		case "updated", "modified":
			return fDate
		case "issued":
			return fIssued
		}
	}
	return fNone
}

// fieldOf says which value a child named name of a urlset's or sitemap
// index's entry holds.
func fieldOf(format Format, name []byte) field {
	switch string(name) {
	case "loc":
		return fLoc
	case "lastmod":
		return fLastMod
	case "changefreq":
		if format == URLSet {
			return fChangeFreq
		}
	case "priority":
		if format == URLSet {
			return fPriority
		}
	}
	return fNone
}

// atomLink takes an Atom <link>'s href as the entry's URL: the first one
// whose rel is "alternate" or absent (the page itself, RFC 4287 4.2.7.2).
func (p *xmlParser) atomLink(t xml.StartElement) {
	var href, rel string
	hasHref := false
	for _, a := range t.Attr {
		switch a.Name.Local {
		case "href":
			href, hasHref = a.Value, true
		case "rel":
			rel = strings.TrimSpace(a.Value)
		}
	}
	if !hasHref || (rel != "" && rel != "alternate") || p.seen[fLink] {
		return
	}
	// An entity not expanded in the tag's attributes: the link is not read.
	p.seen[fLink], p.valPos[fLink], p.ent[fLink] = true, p.in.markPos, p.attrEnt
	setVal(p, fLink, href)
}

// collect starts collecting the text of the element at depth into f.
func (p *xmlParser) collect(f field, depth int, target *string) {
	p.field, p.fieldDepth, p.target, p.over, p.bufEnt = f, depth, target, false, false
	p.buf = p.buf[:0]
}

// extension handles an element of an extension at depth rel below the
// entry's element.
func (p *xmlParser) extension(x ext, t xml.StartElement, rel int) {
	e, name := p.cur, t.Name.Local
	const maxItems = 1000 // Google's limit of images per page
	switch {
	case x == extImage && rel == 1 && name == "image" && len(e.Images) < maxItems:
		e.Images = append(e.Images, Image{})
	case x == extVideo && rel == 1 && name == "video" && len(e.Videos) < maxItems:
		e.Videos = append(e.Videos, Video{})
	case x == extNews && rel == 1 && name == "news" && e.News == nil:
		e.News = &News{}
	case x == extXHTML && rel == 1 && name == "link" && len(e.Alternates) < maxItems:
		var a Alternate
		alt := false
		for _, at := range t.Attr {
			switch at.Name.Local {
			case "rel":
				alt = strings.TrimSpace(at.Value) == "alternate"
			case "hreflang":
				a.Hreflang = strings.TrimSpace(at.Value)
			case "href":
				a.Href = strings.TrimSpace(at.Value)
			}
		}
		if alt && !p.attrEnt {
			e.Alternates = append(e.Alternates, a)
		}
	case x == extImage && rel == 2 && len(e.Images) > 0:
		im := &e.Images[len(e.Images)-1]
		p.extValue(name, map[string]*string{"loc": &im.Loc, "caption": &im.Caption, "title": &im.Title,
			"geo_location": &im.GeoLocation, "license": &im.License})
	case x == extVideo && rel == 2 && len(e.Videos) > 0:
		v := &e.Videos[len(e.Videos)-1]
		p.extValue(name, map[string]*string{"thumbnail_loc": &v.ThumbnailLoc, "title": &v.Title, "description": &v.Description,
			"content_loc": &v.ContentLoc, "player_loc": &v.PlayerLoc, "duration": &v.Duration,
			"publication_date": &v.PublicationDate, "expiration_date": &v.ExpirationDate, "family_friendly": &v.FamilyFriendly})
	case x == extNews && rel == 2 && e.News != nil:
		n := e.News
		p.extValue(name, map[string]*string{"publication_date": &n.PublicationDate, "title": &n.Title, "keywords": &n.Keywords})
	case x == extNews && rel == 3 && e.News != nil && p.stack[len(p.stack)-2] == "publication":
		n := e.News
		p.extValue(name, map[string]*string{"name": &n.Name, "language": &n.Language})
	}
}

func (p *xmlParser) extValue(name string, fields map[string]*string) {
	if dst, ok := fields[name]; ok && *dst == "" {
		p.collect(fExt, len(p.stack), dst)
	}
}

// endElement handles an end tag: it ends a value, an entry, or the root.
// done is set at the root's end; more is false when the caller stopped.
func (p *xmlParser) endElement(t xml.EndElement, yield func(*Entry, error) bool) (done, more bool) {
	depth := len(p.stack)
	p.stack = p.stack[:depth-1]
	if p.field != fNone && depth == p.fieldDepth {
		switch {
		case p.bufEnt && p.field == fExt:
			// not read: the entity reference is the error
		case p.bufEnt:
			p.ent[p.field] = true
		case p.field == fExt:
			*p.target = strings.TrimSpace(string(p.buf))
		case p.over:
			setVal(p, p.field, tooLong)
		default:
			setVal(p, p.field, p.buf)
		}
		p.field = fNone
	}
	if depth == 1 {
		if p.started == 0 {
			p.r.diag(grammar.Warning, "empty", p.in.markPos, fmt.Sprintf("the <%s> lists nothing", t.Name.Local))
		}
		return true, true
	}
	if p.cur == nil || depth != p.curDepth {
		return false, true
	}
	e := p.finish()
	p.cur = nil
	if e == nil {
		return false, true
	}
	return false, p.r.emit(e, yield)
}

// finish checks the values of the entry that just ended and returns it, or
// nil when it is dropped.
func (p *xmlParser) finish() *Entry {
	r, e := p.r, p.cur
	f, what, resolve := fLoc, "loc", false
	switch r.format {
	case RSS:
		f, what, resolve = fLink, "link", true
		if !p.seen[fLink] && p.seen[fGuid] && p.perma {
			f, what = fGuid, "guid"
		}
	case Atom:
		f, what, resolve = fLink, "link href", true
	}
	if !p.seen[f] {
		r.diag(grammar.Error, "no-loc", e.Pos, fmt.Sprintf("<%s> has no %s: the entry is dropped (a URL is required)", entryName[r.format], what))
		return nil
	}
	if p.ent[f] {
		return nil // the entity diagnostic says why
	}
	if string(p.val(f)) == tooLong {
		r.diag(grammar.Error, "loc-invalid", p.valPos[f], fmt.Sprintf("the %s is longer than %d bytes: the entry is dropped", what, maxLocBytes))
		return nil
	}
	u, ok, out := r.loc(string(p.val(f)), p.valPos[f], what, resolve, r.format == Index)
	if !ok {
		return nil
	}
	e.URL, e.OutOfScope = u, out
	for _, f := range [...]field{fLastMod, fDate, fPubDate} {
		if p.read(f) {
			e.LastMod = p.date(f)
		}
	}
	if !p.seen[fDate] && p.read(fIssued) {
		// Atom 0.3 (3.2.2, 3.2.3): <modified> is required, <issued> is when
		// the entry was first published; without the one, the other says
		// when the page last changed that the feed knows of.
		e.LastMod = p.date(fIssued)
	}
	if p.read(fChangeFreq) {
		p.changeFreq(e)
	}
	if p.read(fPriority) {
		p.priority(e)
	}
	return e
}

// read reports whether the entry has a value in f to read: given, and
// without an entity reference that is not expanded.
func (p *xmlParser) read(f field) bool { return p.seen[f] && !p.ent[f] }

// date reads the date in field f (a W3C datetime; an RFC 822 date in an
// RSS pubDate), reporting a value that is not one.
func (p *xmlParser) date(f field) Date {
	v, at := bytes.TrimSpace(p.val(f)), p.valPos[f]
	var d Date
	var note string
	var ok bool
	switch {
	case f != fPubDate:
		d, note, ok = parseW3C(v)
	default:
		if d, ok = parseRFC822(string(v)); !ok {
			if d, _, ok = parseW3C(v); ok {
				note = "a W3C date where RSS asks for RFC 822"
			}
		}
	}
	switch {
	case !ok && f == fPubDate:
		p.r.diag(grammar.Warning, "lastmod", at, fmt.Sprintf("pubDate %q is not an RFC 822 date: ignored, the entry is kept", short(string(v))))
	case !ok:
		p.r.diag(grammar.Warning, "lastmod", at, fmt.Sprintf("%s %q is not a W3C datetime (YYYY, YYYY-MM, YYYY-MM-DD, or with a time and zone, YYYY-MM-DDThh:mm[:ss[.s]]TZD): ignored, the entry is kept", fieldNames[f], short(string(v))))
	case note != "":
		p.r.diag(grammar.Warning, "lastmod-format", at, fmt.Sprintf("%s %q has %s: read as %s", fieldNames[f], v, note, d))
	}
	return d
}

// changeFreqOf returns the changefreq value v is, in lower case.
func changeFreqOf(v []byte) (ChangeFreq, bool) {
	for _, c := range changeFreqs {
		if string(v) == string(c) {
			return c, true
		}
	}
	return "", false
}

var changeFreqs = [...]ChangeFreq{Always, Hourly, Daily, Weekly, Monthly, Yearly, Never}

func (p *xmlParser) changeFreq(e *Entry) {
	v := bytes.TrimSpace(p.val(fChangeFreq))
	c, ok := changeFreqOf(v) // written in lower case, as nearly always
	if !ok {
		c, ok = changeFreqOf(bytes.ToLower(v))
	}
	if ok {
		e.ChangeFreq = c
		return
	}
	p.r.diag(grammar.Warning, "changefreq", p.valPos[fChangeFreq], fmt.Sprintf("changefreq %q is not one of always, hourly, daily, weekly, monthly, yearly, never: ignored, the entry is kept", short(string(v))))
}

func (p *xmlParser) priority(e *Entry) {
	v := bytes.TrimSpace(p.val(fPriority))
	f, ok := parseDecimal(v)
	if !ok {
		var err error
		f, err = strconv.ParseFloat(string(v), 64)
		ok = err == nil
	}
	if !ok || f != f || f < 0 || f > 1 {
		p.r.diag(grammar.Warning, "priority", p.valPos[fPriority], fmt.Sprintf("priority %q is not a number from 0.0 to 1.0: ignored (the default, 0.5, applies), the entry is kept", short(string(v))))
		return
	}
	e.Priority, e.HasPriority = f, true
}

// parseDecimal reads the plain decimals nearly every priority is
// ("0.8", "1.0", ".5", "1"): digits with at most one '.', 15 digits at
// most; false for any other form, which strconv.ParseFloat reads. It
// gives what ParseFloat gives: the digits as an integer below 2^53 and a
// power of ten up to 10^15 are both exact in a float64, so their quotient
// is the correctly rounded value (ParseFloat's own exact case).
func parseDecimal(v []byte) (float64, bool) {
	n, digits, frac, dot := int64(0), 0, 0, false
	for _, c := range v {
		switch {
		case c >= '0' && c <= '9':
			n = n*10 + int64(c-'0')
			digits++
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
	}
	if digits == 0 || digits > 15 {
		return 0, false
	}
	return float64(n) / pow10[frac], true
}

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}
