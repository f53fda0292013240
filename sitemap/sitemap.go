package sitemap

import (
	"fmt"
	"io"

	"github.com/sitetxt/sitetxt/grammar"
)

// Format is the form a sitemap file takes.
type Format uint8

// The formats, as the protocol lists them ("Other Sitemap formats").
const (
	Unknown Format = iota // not read yet, or not a sitemap
	URLSet                // <urlset>: the XML sitemap
	Index                 // <sitemapindex>: a list of sitemaps
	Text                  // one URL a line, UTF-8
	RSS                   // an RSS 2.0 (or 1.0) feed: each item's <link>
	Atom                  // an Atom 1.0 (or 0.3) feed: each entry's <link href>
)

var formatNames = [...]string{Unknown: "unknown", URLSet: "urlset", Index: "sitemapindex", Text: "text", RSS: "rss", Atom: "atom"}

// String returns the format's name: "urlset", "sitemapindex", "text",
// "rss", "atom" or "unknown".
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", f)
}

// MarshalText makes a Format print as its name in JSON.
func (f Format) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// ChangeFreq is a changefreq value: one of the seven the protocol lists,
// in lower case, or "" when absent or not one of them.
type ChangeFreq string

// The changefreq values.
const (
	Always  ChangeFreq = "always"
	Hourly  ChangeFreq = "hourly"
	Daily   ChangeFreq = "daily"
	Weekly  ChangeFreq = "weekly"
	Monthly ChangeFreq = "monthly"
	Yearly  ChangeFreq = "yearly"
	Never   ChangeFreq = "never"
)

// Entry is one URL a sitemap lists: a page in a urlset, text sitemap or
// feed, or a sitemap in a sitemap index. Only URL is always set; the
// optional fields are zero when the file did not give them or gave a value
// the protocol does not allow (a diagnostic then says so).
type Entry struct {
	// URL is the entry's loc: entity references decoded, white space
	// around it removed, absolute.
	URL string
	// LastMod is when the page (or sitemap) last changed.
	LastMod Date
	// ChangeFreq is how often the page is likely to change.
	ChangeFreq ChangeFreq
	// Priority is the page's priority relative to the site's other pages,
	// 0.0 to 1.0, when HasPriority; else the protocol's default, 0.5,
	// applies.
	Priority    float64
	HasPriority bool
	// Pos is where the entry starts: its <url>, <sitemap>, <item> or
	// <entry> tag, or its line in a text sitemap.
	Pos grammar.Pos
	// OutOfScope is set on a URL the protocol drops for where it is
	// (another host or scheme, outside the sitemap's directory), which
	// Options.Lenient keeps.
	OutOfScope bool
	// The common extensions, kept as written (never a reason to drop the
	// entry or fail the file).
	Images     []Image
	Videos     []Video
	News       *News
	Alternates []Alternate
}

// Image is an <image:image> (Google's image extension,
// http://www.google.com/schemas/sitemap-image/1.1).
type Image struct {
	Loc, Caption, Title, GeoLocation, License string
}

// Video is a <video:video> (Google's video extension,
// http://www.google.com/schemas/sitemap-video/1.1): the fields most
// crawlers read, as written.
type Video struct {
	ThumbnailLoc, Title, Description, ContentLoc, PlayerLoc   string
	Duration, PublicationDate, ExpirationDate, FamilyFriendly string
}

// News is a <news:news> (Google's news extension,
// http://www.google.com/schemas/sitemap-news/0.9), as written.
type News struct {
	Name, Language, PublicationDate, Title, Keywords string
}

// Alternate is an <xhtml:link rel="alternate" hreflang="..." href="...">:
// the same page in another language or region.
type Alternate struct {
	Hreflang, Href string
}

// The protocol's limits ("Sitemap index files" and "Other Sitemap
// formats" in sitemaps.org's protocol text), the defaults of Options.
const (
	// MaxURLs is the most URLs (or sitemaps, in an index) one file may
	// list.
	MaxURLs = 50000
	// MaxSize is the most bytes a file may hold, uncompressed: "50MB
	// (52,428,800 bytes)".
	MaxSize = 50 * 1024 * 1024
)

// Options say where a sitemap was found, which decides which URLs it may
// list, and bound what is read. The zero value reads a file found nowhere
// in particular: every absolute http or https URL is in scope.
type Options struct {
	// URL is the sitemap's own absolute URL (after redirects). A URL it
	// lists must be on the same scheme, host and port and under its
	// directory ("Sitemap file location"), unless Cross says otherwise;
	// relative links in feeds resolve against it. "" skips the location
	// check.
	URL string
	// Name is the file name diagnostics carry; "" means URL.
	Name string
	// Cross reports whether the robots.txt of origin ("https://host:port")
	// names this sitemap, or an index that led to it: a cross-submission
	// ("Sitemaps & Cross Submits"), which puts every URL of origin in scope,
	// under any directory. nil means no robots.txt names it.
	Cross func(origin string) bool
	// Lenient keeps the URLs the location check drops (Entry.OutOfScope
	// set, with the same diagnostic), as crawler-commons' non-strict mode
	// does. It changes nothing else (docs/sitemaps.md).
	Lenient bool
	// MaxURLs bounds the entries read; past it the rest of the file is not
	// read, with an error diagnostic. 0 means MaxURLs (50,000).
	MaxURLs int
	// MaxSize bounds the bytes read, uncompressed (and compressed); past it
	// the rest is not read, with an error diagnostic. 0 means MaxSize
	// (50 MB).
	MaxSize int64

	noFast bool // read every entry through encoding/xml (the tests of the fast path)
}

func (o *Options) maxURLs() int {
	if o.MaxURLs > 0 {
		return o.MaxURLs
	}
	return MaxURLs
}

func (o *Options) maxSize() int64 {
	if o.MaxSize > 0 {
		return o.MaxSize
	}
	return MaxSize
}

func (o *Options) name() string {
	if o.Name != "" {
		return o.Name
	}
	return o.URL
}

// Sitemap is a whole sitemap file read into memory: what Parse returns.
type Sitemap struct {
	Format      Format
	Entries     []*Entry
	Diagnostics grammar.Diagnostics
	// Err is a read error of the input (not a diagnostic about its
	// content): the network failed, a timeout passed.
	Err error
}

// Parse reads a whole sitemap from r into memory. For large files, or to
// act on each entry as it is read, use NewReader.
func Parse(r io.Reader, opts Options) *Sitemap {
	return readAll(NewReader(r, opts))
}

// readAll reads every entry of rd into a Sitemap, stopping at a read
// error.
func readAll(rd *Reader) *Sitemap {
	s := &Sitemap{}
	for e, err := range rd.Entries() {
		if err != nil {
			s.Err = err
			break
		}
		s.Entries = append(s.Entries, e)
	}
	s.Format, s.Diagnostics = rd.Format(), rd.Diagnostics()
	return s
}
