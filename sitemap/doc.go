// Package sitemap reads sitemaps: the lists of URLs a site wants crawled,
// as the sitemaps.org protocol 0.9 defines them and robots.txt's Sitemap
// lines point to.
//
// A robots.txt does two things for a crawler: its rules say what not to
// fetch, and its Sitemap lines say where the site lists what it wants
// fetched. A sitemap is an XML <urlset> (one <url> per page: its <loc>,
// and optionally <lastmod>, <changefreq> and <priority>), a <sitemapindex>
// listing other sitemaps, a plain text file of one URL a line, or an RSS
// 2.0 or Atom 1.0 feed; any of them may be gzip-compressed. A file lists at
// most 50,000 URLs in at most 50 MB uncompressed, and only URLs under its
// own directory on its own host, unless the robots.txt of the site they are
// on names the sitemap (a cross-submission). Google's image, video and news
// extensions and xhtml:link hreflang alternates ride along in a urlset.
//
// NewReader reads one file as a stream (Reader.Entries yields each entry as
// it is parsed; a 50 MB file is never held in memory), from encoding/xml's
// token stream over a bounded input that keeps every byte's position (the
// plain entries of a urlset or index it reads itself, to the same effect,
// at a fraction of the cost), so each diagnostic is a grammar.Diagnostic
// at file:line:col, like every other manifest sitetxt reads. Reading never fails on content: an entry
// is kept or dropped as the protocol says, with the reason as a
// diagnostic. No DTD is read and no entity it declares is expanded: a
// reference to an entity other than XML's five is an error, and the value
// holding it is not read (a loc with one is no URL); a file stops at the
// protocol's limits, which the diagnostic names.
//
// Fetcher follows a site's sitemaps over HTTP: from its robots.txt (a
// Lister, such as robots.Client), through sitemap indexes, each file once,
// within bounds on files and time. docs/sitemaps.md has every rule, what
// crawler-commons' strict and lenient modes do with it, and what this
// package does.
//
// This package does not import the robots package: a caller that wants
// each URL checked against the site's rules passes the robots.txt in
// (robots.Client satisfies Lister) and decides the URLs itself.
package sitemap
