// Package layers holds the test of sitetxt's layering, read from the
// import graph of the source files with go/build (docs/architecture.md
// draws it):
//
//	grammar                          bytes -> the participle tree (the only importer of participle)
//	robots, datatxt, mobileagent,    interpreters of the tree (none imports another)
//	sitemap
//	aipref                           the AI-usage vocabularies robots and the audit read (imports only grammar)
//	discover                         above the interpreters: finds a site's datasets by every convention (imports interpreters, transport, pace; no library package imports it)
//	fetch, cache                     the transport under the interpreters (imports no interpreter)
//	internal/..., cmd/sitetxt        the surfaces: CLI and serve
//
// No public package imports a package under internal/, so no public
// signature can show an internal type.
package layers
