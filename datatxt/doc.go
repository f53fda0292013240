// Package datatxt reads /data.txt files: the manifests in which a web site
// lists the datasets it offers, so that data catalogs can find them without
// scraping the site.
//
// A data.txt comes in two forms, and Parse reads both:
//
//   - The YAML form (datatxt.org, and the R package pins): a list of
//     entries, each a mapping with a required path (a string or a list of
//     strings) and optional name, description, license and any other key
//     (pins adds type, rows and cols). Paths are relative to the data.txt URL
//     unless absolute. pins 1.0 and later writes one mapping per pin instead
//     of a list, with the path under "file"; Parse takes such a mapping as one
//     entry, with a warning.
//   - The record form (the "A Method for Web Data Discovery" draft, whose
//     format is the 1997 robots.txt draft's): "field: value" lines, read with
//     the shared grammar package. A Path line starts an entry; the field lines
//     after it (Name, Description, License, anything else) are its metadata,
//     until the next Path line, a User-agent line or a blank line.
//     User-agent/Allow/Disallow records say which visitors may fetch which
//     dataset paths.
//
// Every entry comes out with its name, its paths as written, their URLs
// resolved against the data.txt URL (Options.Base), every other field as
// metadata, and its position. Problems are grammar.Diagnostic values with
// positions: an entry without a path is an error and is left out; every
// other entry still comes out. Nothing the file says is dropped silently.
//
// YAML is read safely: no tag is executed (a tag such as pins' !expr is kept
// as data, with a warning), alias expansion is bounded (Options.MaxNodes), and
// the input size is limited as every parser in sitetxt limits it.
//
// Access is decided through the Decider interface, so this package does not
// depend on any robots.txt interpreter: Options.Rules compiles the file's own
// access records (CompileRules(robots.Compile, profile) makes one) and
// Options.Robots is the site's robots.txt (a *robots.Policy as it is). An
// entry's Access is Allowed, Disallowed or Unknown; a path outside http(s)
// is never allowed.
//
// Fetcher fetches a data.txt; Fetcher.Discover also follows it as R's pins
// reads a board (0.x directory entries, 1.x _pins.yaml), within limits;
// Fetcher.Probe asks each file's server for its media type, size and
// Last-Modified, behind the site's robots.txt. Join makes one catalog of
// several.
//
// Export writes a Catalog as JSON, YAML (YAML 1.1-ambiguous strings
// quoted), CSV (formula cells neutralised), schema.org DataCatalog JSON-LD,
// DCAT-AP 3 JSON-LD, Project Open Data data.json v1.1, a Frictionless
// datapackage.json or MLCommons Croissant 1.1. Nothing is invented: a field
// a format requires that neither the file nor ExportOptions gives is left
// out and reported as a Problem naming it. docs/datatxt.md says how fields
// map and which validator checks each.
package datatxt
