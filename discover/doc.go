// Package discover finds the datasets a web site publishes, by every
// convention data catalog builders meet, and lists each dataset once.
//
// A site says which datasets it offers in several ways, none of them
// everywhere: /data.txt (the data.txt draft, datatxt.org, R's pins
// boards), /data.json (Project Open Data, DCAT-US 1.1, what US agencies
// publish), DCAT catalogs in JSON-LD (/catalog.jsonld, as CKAN and udata
// serve it, and the documents dataset pages link to), schema.org Dataset
// JSON-LD in its pages (what Google Dataset Search reads, found through
// sitemaps), MLCommons Croissant files and blocks, and FAIR Signposting
// links (Link header fields and <link> elements: describedby, item,
// cite-as, license, type). Site reads the kinds of source asked for
// (Kind), each through one fetch.Fetcher and behind the site's
// robots.txt, fetched once: a page it disallows is never fetched (a
// fetch.Gate refuses it, whichever reader asks), requests are spaced as
// it asks (package pace), pages are found as "sitetxt sitemaps" finds
// them and read only for their JSON-LD blocks, links, title and
// description (a Signposting landing page's name and description, when no
// other source gives them), within the fetch layer's size limit and a
// bound on pages.
//
// Each source's statements about a dataset are merged with the others'
// when they name one dataset: the same identifier (an IRI, a DOI however
// written), a file URL or a landing page. The merged dataset is a
// datatxt.Entry, so that every export of package datatxt (data.json,
// DCAT-AP, schema.org, Frictionless, Croissant) writes it as it writes a
// data.txt's; it lists its Sources and, per field, the source its value
// came from (Provenance). Where two sources disagree, the first in Kinds
// order wins and a diagnostic says which value was kept. A source's
// problems (a data.json that breaks at byte N, a JSON-LD block that is
// not JSON, a dataset without a name) are diagnostics with the document's
// URL and position; the other sources' datasets are still listed.
//
// JSON-LD is read as its writers compact it (@context prefixes, @vocab,
// term definitions, @graph, node references), without fetching remote
// contexts other than schema.org's, which is its own vocabulary. DCAT in
// Turtle or RDF/XML is not read: no RDF library the Go module proxy serves
// is kept up, and a diagnostic names each such document a page links to.
package discover
