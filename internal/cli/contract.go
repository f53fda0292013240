package cli

// This file is the output contract of docs/cli.md in one place: the flag
// values every command reads the same way, the verdict words, the JSON
// Lines and CSV writers, the decision object, flat positions, the escaping
// of text for people, notes on standard error, and fetch failures as exit
// code 2. Commands build their output from these pieces only.

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/sitetxt/sitetxt/termsafe"

	"github.com/spf13/cobra"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/input"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/robots"
)

// The verdict words of text and CSV output (JSON says "allowed": bool).
const (
	wordAllowed    = "allowed"
	wordDisallowed = "disallowed"
)

// verdictWord returns "allowed" or "disallowed".
func verdictWord(allowed bool) string {
	if allowed {
		return wordAllowed
	}
	return wordDisallowed
}

// lowerValue is a string flag whose value is kept in lower case, so that
// "-o JSON", "--profile GOOGLE" and "--type DataTxt" mean what the lower
// case spellings mean.
type lowerValue struct{ p *string }

func (v lowerValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}
func (v lowerValue) Set(s string) error { *v.p = strings.ToLower(s); return nil }
func (v lowerValue) Type() string       { return "string" }

// choiceFlag defines a flag with a fixed set of case-insensitive values,
// the first the default, and completes them in the shell.
func choiceFlag(cmd *cobra.Command, p *string, name, short, usage string, values ...string) {
	*p = values[0]
	f := cmd.Flags().VarPF(lowerValue{p}, name, short, usage)
	f.DefValue = values[0]
	_ = cmd.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
}

// stream is a command's standard output: buffered, and flushed after each
// result (end) when the results are to be read as they come (a stream of
// URLs that is not a regular file: a pipe, a terminal, a co-process), or
// only at the end (done) when the input is all there already.
type stream struct {
	w         *bufio.Writer
	flushEach bool
}

func newStream(w io.Writer, flushEach bool) *stream {
	return &stream{w: bufio.NewWriterSize(w, 64<<10), flushEach: flushEach}
}

// end marks the end of one result.
func (s *stream) end() error {
	if s.flushEach {
		return s.w.Flush()
	}
	return nil
}

// done flushes what is left.
func (s *stream) done() error { return s.w.Flush() }

// streamsInput reports whether a --urls FILE is read as a stream whose
// answers are wanted line by line: standard input or anything that is not
// a regular file. URLs named on the command line only are not a stream.
func streamsInput(ios *IOStreams, file string) bool {
	switch file {
	case "":
		return false
	case "-":
		if f, ok := ios.In.(*os.File); ok {
			if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
				return false
			}
		}
		return true
	}
	st, err := os.Stat(file)
	return err != nil || !st.Mode().IsRegular()
}

// jsonLines writes JSON Lines: one compact object per line, HTML
// characters as they are, ended (and flushed when streaming) per object.
type jsonLines struct {
	s   *stream
	enc *json.Encoder
}

func newJSONLines(s *stream) *jsonLines {
	enc := json.NewEncoder(s.w)
	enc.SetEscapeHTML(false)
	return &jsonLines{s: s, enc: enc}
}

// write writes one object on its own line.
func (j *jsonLines) write(v any) error {
	if err := j.enc.Encode(v); err != nil {
		return err
	}
	return j.s.end()
}

// csvRows writes CSV rows. A cell a spreadsheet would take for a formula
// (starting with =, +, -, @, a tab or a carriage return) is written with a
// leading apostrophe, so opening the file runs nothing a site wrote.
type csvRows struct {
	s  *stream
	cw *csv.Writer
}

func newCSV(s *stream) *csvRows { return &csvRows{s: s, cw: csv.NewWriter(s.w)} }

func (c *csvRows) write(cells ...string) error {
	row := make([]string, len(cells)) // the caller's slice (a shared header) stays as it is
	for i, v := range cells {
		row[i] = csvCell(v)
	}
	if err := c.cw.Write(row); err != nil {
		return err
	}
	c.cw.Flush()
	if err := c.cw.Error(); err != nil {
		return err
	}
	return c.s.end()
}

// csvCell is termsafe.CSVCell: control bytes escaped as text output
// escapes them, and a cell that would start a spreadsheet formula
// neutralised.
func csvCell(v string) string { return termsafe.CSVCell(v) }

// visible is termsafe.String: what a site or a user wrote, with every
// character that could act on a terminal written as an escape.
func visible(s string) string { return termsafe.String(s) }

// visibleLines escapes each line of a multi-line text, keeping its line
// breaks.
func visibleLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = visible(l)
	}
	return strings.Join(lines, "\n")
}

// diagText is a diagnostic as text output prints it:
// "file:line:col: severity: message [code]", escaped.
func diagText(d *grammar.Diagnostic) string {
	s := d.Error()
	if d.Code != "" {
		s += " [" + d.Code + "]"
	}
	return visible(s)
}

// note prints "sitetxt: note: ..." on standard error unless -q.
func note(ios *IOStreams, format string, args ...any) {
	if ios.Quiet {
		return
	}
	fmt.Fprintf(ios.ErrOut, "sitetxt: note: %s\n", visible(fmt.Sprintf(format, args...)))
}

// warn prints "sitetxt: warning: ..." on standard error, even with -q.
func warn(ios *IOStreams, format string, args ...any) {
	fmt.Fprintf(ios.ErrOut, "sitetxt: warning: %s\n", visible(fmt.Sprintf(format, args...)))
}

// printErr prints err as one line "sitetxt: ..." on standard error, even
// with -q: a command's own error, or that of one source or URL it reports
// and goes past (the exit status then says that some failed).
func printErr(ios *IOStreams, err error) {
	fmt.Fprintf(ios.ErrOut, "sitetxt: %s\n", visible(err.Error()))
}

// The decision object of check, diff, matrix (and serve and audit, which
// share it): a URL's verdict, why, the rule and group that applied, and
// what the fetch of a fetched robots.txt meant.
type (
	decisionJSON = jsonview.Decision
	ruleJSON     = jsonview.Rule
	groupJSON    = jsonview.Group
	fetchJSON    = jsonview.Fetch
)

// decisionViews builds the decision objects of one source (package
// jsonview, the one builder serve uses too).
type decisionViews = jsonview.Views

func newDecisionViews(file string, prof robots.Profile, fetched *fetch.Result) *decisionViews {
	return jsonview.NewViews(file, prof, fetchView(fetched))
}

// fetchView is the fetch part of a decision, nil for a source not fetched.
func fetchView(r *fetch.Result) *fetchJSON { return jsonview.FetchOf(r) }

// diagJSON is a diagnostic in JSON and YAML: flat positions (package
// jsonview, shared with sitetxt serve).
type diagJSON = jsonview.Diagnostic

func diagView(d *grammar.Diagnostic) diagJSON { return jsonview.DiagnosticOf(d) }

// diagCSVHeader and diagRow are a diagnostic as a CSV row.
var diagCSVHeader = []string{"file", "line", "column", "end_line", "end_column", "severity", "code", "message"}

func diagRow(d *grammar.Diagnostic) []string {
	v := diagView(d)
	return []string{v.File, itoa(v.Line), itoa(v.Column), itoa(v.EndLine), itoa(v.EndColumn), v.Severity, v.Code, v.Message}
}

func itoa(n int) string { return fmt.Sprint(n) }

// exitWith returns the error a command ends with: a fetch failure (exit 2,
// its cause printed) or URLs of a batch that were not answered (exit 2,
// counted) win over findings (exit 1).
func exitWith(failure error, found bool, batches ...*batch) error {
	for _, b := range batches {
		if e := b.exit(); e != nil {
			if failure == nil {
				return e
			}
			// Both: the count is said too, the failure's exit stands.
			return &exitError{code: ExitError, err: e.(*exitError).err}
		}
	}
	if failure != nil {
		return failure
	}
	if found {
		return findings
	}
	return nil
}

// shownURL is a URL as text output shows it: quoted when it is empty or
// holds white space or quotes (so that it stays visible and whole), else
// escaped.
func shownURL(u string) string {
	if u == "" || strings.ContainsAny(u, " \t\"") {
		return strconv.Quote(u)
	}
	return visible(u)
}

// decisionCSVHeader and decisionRow are a decision as a CSV row.
func decisionCSVHeader() []string {
	return []string{"url", "agent", "profile", "verdict", "reason", "directive", "pattern", "file", "line", "column", "group_line"}
}

func decisionRow(v decisionJSON) []string {
	row := []string{v.URL, v.Agent, v.Profile, verdictWord(v.Allowed), v.Reason, "", "", "", "", "", ""}
	if r := v.Rule; r != nil {
		row[5], row[6], row[7], row[8], row[9] = r.Directive, r.Pattern, r.File, itoa(r.Line), itoa(r.Column)
	}
	if g := v.Group; g != nil {
		row[10] = itoa(g.Line)
	}
	return row
}

// reportFetch says on standard error why a fetched source could not be
// fetched, and returns the exit error that makes the command end with 2
// after it has printed the decisions the standard derives from the
// failure (RFC 9309: a 5xx or network error disallows everything). It is
// nil for a file, or a fetch that gave an answer.
func reportFetch(ios *IOStreams, src *source) error {
	r := src.fetched
	freshnessNote(ios, src.name, r, src.cached)
	if r == nil || r.Err == nil {
		return nil
	}
	if r.Stale {
		note(ios, "%s", r.Reason)
		return nil
	}
	printErr(ios, r.Failure())
	return &exitError{code: ExitError}
}

// contractDoc is the output contract as docs/cli.md states it, before the
// generated command reference. TestContract checks every command keeps it.
const contractDoc = "## The output contract\n\n" +
	"Every command follows these rules; `internal/cli/contract.go` implements them in one place and\n" +
	"`internal/cli/contract_test.go` checks each command against them.\n\n" +
	"1. **Formats.** `-o/--output` is `text` (the default, for people), `json` or `csv`, plus\n" +
	"   command-specific document formats (`parse`: yaml; `datasets`: yaml, datajson, dcat, schemaorg,\n" +
	"   datapackage, croissant; `audit`: html). Every command that prints rows offers `csv`: check,\n" +
	"   diff, matrix, agents, lint, parse (one row per line of the file), fetch, datasets, audit, sitemaps.\n" +
	"   explain and summary print one record per source, prefs one per URL (text or json). Flag values (`-o`, `--profile`,\n" +
	"   `--type`, `--form`) are case-insensitive: `-o JSON` is `-o json`.\n" +
	"2. **JSON is JSON Lines.** `-o json` prints one compact object per line, one per result: per URL\n" +
	"   (check, diff, matrix, agents, sitemaps, prefs), per diagnostic (lint), per source (parse, explain, summary,\n" +
	"   audit), per manifest (fetch), per dataset (datasets). Objects are written as they are decided; when URLs come from a pipe, a\n" +
	"   terminal or any `--urls` input that is not a regular file, each line is flushed at once, so\n" +
	"   sitetxt works as a co-process. Catalog document formats are single documents in their own shape.\n" +
	"3. **Keys and positions.** JSON keys are snake_case. A position is flat fields on the object that\n" +
	"   has it: `file` (where known), `line`, `column` (1-based; columns count bytes, as the grammar\n" +
	"   does), and for ranges `end_line`, `end_column`. There are no nested position objects.\n" +
	"4. **Verdicts.** JSON says `\"allowed\": true|false`. Text and CSV say `allowed` or `disallowed`,\n" +
	"   matrix cells included; never Yes/No.\n" +
	"5. **The decision object** (check's lines, each entry of diff's `verdicts` and matrix's\n" +
	"   `decisions`, the `results` of `serve`'s POST /v1/check, each line of `sitemaps --agent` and of\n" +
	"   `serve`'s POST /v1/sitemaps with an agent, there less `agent`, said once in its first line,\n" +
	"   `{\"header\": {\"site\", \"agent\", \"profile\"}}`; one Go type, internal/jsonview):\n\n" +
	"   ```\n" +
	"   {\"url\", \"agent\", \"profile\", \"allowed\": bool,\n" +
	"    \"reason\": \"rule matched\" | \"no rule matched\" | \"no group applies\" | \"/robots.txt is always allowed\" | what the fetch status meant,\n" +
	"    \"rule\": {\"directive\", \"pattern\", \"file\", \"line\", \"column\"} | null,\n" +
	"    \"group\": {\"agents\": [...], \"file\", \"line\", \"column\"} | null,\n" +
	"    \"fetch\": {\"url\", \"http_status\": HTTP status or 0, \"meaning\": \"parse\" | \"allow-all\" | \"disallow-all\" | \"defer\", \"error\": \"\" or why it failed,\n" +
	"              \"from_cache\": bool, \"fetched_at\": RFC 3339 time, \"expires\": RFC 3339 time}}\n" +
	"   ```\n\n" +
	"   `fetch` is present only when the robots.txt was fetched over HTTP. Features may add fields.\n" +
	"6. **Exit codes**, the same in every command: `0` success; `1` findings (a disallowed URL, a lint\n" +
	"   error, a disagreement between profiles, a URL with no mobile-agent server, an export missing a\n" +
	"   required field); `2` usage or input errors, including a source that could not be fetched or\n" +
	"   read (network, TLS, DNS, timeout, HTTP 5xx or 429). When a fetch fails, its cause is printed on\n" +
	"   standard error (`sitetxt: cannot fetch https://x/robots.txt: ...`) and the decisions the\n" +
	"   standard derives from the failure (RFC 9309: everything disallowed) are still printed. 2 wins\n" +
	"   over 1. Endless standard input stops at the documented limit with a message, never silently;\n" +
	"   a line of a list (`--urls`, `datasets --list`, audit's `-`) longer than 16 MiB is an error\n" +
	"   naming the limit and the line's number (a batch of URLs answers the lines after it).\n" +
	"   When nothing given could be read, the errors and exit 2, and nothing on standard output (no\n" +
	"   CSV header, no totals of zeros, no empty page); an `audit --summary` list or directory that\n" +
	"   names no file is such an error.\n" +
	"   **Batches lose nothing.** A URL to decide is read one way by every command, `serve`'s API and\n" +
	"   its tester (package internal/input): an absolute http(s) URL, a path (`/a`; the empty URL is\n" +
	"   the root), or a relative reference (`org/plans.html`), read from the site's root as\n" +
	"   `/org/plans.html` (RFC 3986 5.2) with one note saying so (audit's `--path` too). A URL that\n" +
	"   cannot be answered (an http URL without a host, a host or port no site has, as a port above\n" +
	"   65535, a URL of another scheme, `ftp:` or `mailto:`, which no robots.txt read over http(s)\n" +
	"   governs, a URL on another origin than the robots.txt fetched for it, which governs its own\n" +
	"   origin only, RFC 9309 2.3;\n" +
	"   without a SOURCE, a URL that names no site) is an error for that URL alone: in `-o json` an\n" +
	"   object `{\"url\", \"error\"}` in its place, otherwise a message on standard error numbered by\n" +
	"   where it came from (`sitetxt: <stdin>:2: ...`, `sitetxt: URL 3: ...` for the command line's).\n" +
	"   Every other URL is answered, then `sitetxt: N URLs of M not answered` and exit 2 (partial\n" +
	"   failure; 2 wins over 1). `serve` answers such a URL with `error` in its result (POST /v1/check,\n" +
	"   /v1/test, /v1/agents), the others as usual.\n" +
	"   A SOURCE is read one way too: a file (or `-`), an http(s) URL, or a host name with an optional\n" +
	"   path (`example.org`, `www.example.org/private/x`), read as https with a note (a file of that\n" +
	"   name wins); `serve`'s `site` the same, where anything else (`private/x`) is an error. A `--base`\n" +
	"   (`serve`'s `base`) is an absolute URL with a host.\n" +
	"7. **Nothing raw reaches a terminal.** Text output, CSV output and standard error escape every\n" +
	"   character that could act on a terminal: C0 controls (tab, CR and LF included) and DEL as `\\xNN`,\n" +
	"   C1 controls, bidirectional marks, embeddings, overrides and isolates, and line/paragraph\n" +
	"   separators as `\\uNNNN`, bytes that are not UTF-8 as `\\xNN` (package termsafe). JSON\n" +
	"   output is exact: the bytes the site wrote, JSON-escaped. CSV cells that a spreadsheet would run\n" +
	"   as a formula (starting with `=`, `+`, `-`, `@`) get a leading `'`.\n" +
	"8. **Notes** go to standard error as `sitetxt: note: ...` and are silenced with `-q`; warnings\n" +
	"   (`sitetxt: warning: ...`) are not. A source that looks like binary data or an HTML or XML page\n" +
	"   gets one warning, the same from every command that reads it as a robots.txt (check, diff,\n" +
	"   matrix, agents, explain, summary, parse, lint, audit): `sitetxt: warning: FILE: input looks like\n" +
	"   binary data, not a plain-text manifest; it is read as one all the same, and gives no rules`.\n" +
	"9. **Who was asked.** check, agents, diff, explain and datasets answer for one `--agent` (`*`, the\n" +
	"   rules for every crawler, when none is given) and refuse a second (exit 2, before reading\n" +
	"   anything; matrix answers for several). Where one agent answers for many URLs, text output names\n" +
	"   it once, before the first answer: `for Googlebot under rfc9309:` (check, agents, and datasets\n" +
	"   when its ACCESS column was decided).\n" +
	"10. **One shape.** Each command's `-o json` lines follow a JSON Schema (2020-12) in\n" +
	"   [docs/schema/](schema/): `check.json`, `diff.json`, `matrix.json`, `agents.json`, `lint.json`,\n" +
	"   `parse.json`, `explain.json`, `summary.json`, `audit.json`, `audit-summary.json`, `fetch.json`,\n" +
	"   `datasets.json`, sharing `defs.json` (the decision object, rule, group, fetch, usage, diagnostic,\n" +
	"   a line with its position, a URL not answered). `internal/cli/schema_test.go` validates every command's output\n" +
	"   against them and checks that a key has one type in every command. The same fact has one key:\n" +
	"   the HTTP status is `http_status` (a number) and what it meant `meaning` (a word) in `fetch` and\n" +
	"   in the decision object; a file-wide line (Host, License) is `{\"value\", \"file\", \"line\",\n" +
	"   \"column\"}` or null; a list is an array, empty rather than null, never a string for one item;\n" +
	"   a count is named as one (`line_count`, `crawler_count`, `disagreements`), never by the key\n" +
	"   that elsewhere holds the list. CSV's verdict column is `verdict` (`allowed`/`disallowed`).\n" +
	"   Changed keys (from the shapes before this contract): decision object `fetch.status` ->\n" +
	"   `fetch.http_status` (check, diff, matrix, serve); fetch `status` -> `meaning` (CSV too), and\n" +
	"   `error` is always present; summary `lines`, `groups`, `sitemaps` -> `line_count`,\n" +
	"   `group_count`, `sitemap_count`, `host` `\"\"`/a string -> null or `{\"value\", ...}`; explain\n" +
	"   `why` -> `reason`, `usage` -> `usage_lines`, `host.host` -> `host.value`; datasets `path` (a\n" +
	"   string or an array) -> `paths` (an array; YAML too), CSV `allowed` -> `verdict`; audit `source`\n" +
	"   -> `file` (CSV too), `disagree` (the count) -> `disagreements`, `crawlers[].paths` ->\n" +
	"   `crawlers[].by_path`, `profiles[].usage` -> `usage_text`, `categories[].crawlers` ->\n" +
	"   `crawler_count`, `licenses` `[]` instead of null; audit --summary totals `files` -> `audited`,\n" +
	"   `disagree` -> `disagreements`, `content_usage`, `content_signal`, `license` ->\n" +
	"   `with_content_usage`, `with_content_signal`, `with_license` (CSV rows too); parse\n" +
	"   `records[].lines`, `records[].agents` -> `line_numbers`, `agent_lines`; prefs\n" +
	"   `content_usage.sources`, `content_signal.sources` -> `statements` (serve's POST /v1/prefs\n" +
	"   too): `sources` is the list of `{\"kind\", \"url\"}` of `datasets --discover` (at first\n" +
	"   `found_in`).\n" +
	"11. **Counts.** A count word agrees with its number (`1 dataset`, `2 datasets`). A file's\n" +
	"   diagnostics are counted one way under one profile: lint lists them, summary and fetch count\n" +
	"   them (what matters only under other profiles is left out, as lint leaves it out without\n" +
	"   `--portability`), and parse, which shows the grammar's own, says how many lint reports.\n" +
	"12. **Colour.** Text output is coloured only on a terminal, unless `NO_COLOR` is set (any value,\n" +
	"   https://no-color.org) or `TERM` is `dumb`; `--color=always` colours even into a pipe and\n" +
	"   `--color=never` never does (`--color=auto` is the default). JSON and CSV are never coloured.\n" +
	"13. **Caches say so.** Every answer from a cache says so: in JSON the `fetch` object's `from_cache`,\n" +
	"   `fetched_at` (when the response arrived) and `expires` (the keys of `fetch -o json`; serve's\n" +
	"   answers too); in text a note on standard error, `sitetxt: note: URL: from the cache: a copy\n" +
	"   fetched 2 h 5 min ago (TIME), expires in 21 h 55 min; --refresh fetches it anew`. A \"no such\n" +
	"   file\" answer (404, 410) says how long it is kept (`this answer is kept until TIME (24 h)`), and\n" +
	"   is kept at most 24 hours whatever the access method (a data.txt 404 was kept 7 days). A robots.txt\n" +
	"   read under rfc9309 or google is kept at most 24 hours (RFC 9309 2.4), an expired copy used only\n" +
	"   while the site is unreachable (and said so). `--refresh` asks every server again, once per run,\n" +
	"   and stores the answers for the next runs; `--no-cache` neither reads nor writes the cache.\n" +
	"14. **The command line.** Errors are one line on standard error, `sitetxt: ` then a message in\n" +
	"   lower case without a final period, and exit 2: a mistyped command or flag names what was\n" +
	"   probably meant (`sitetxt: unknown command \"chek\" (did you mean check? ...)`, `sitetxt: check:\n" +
	"   unknown flag --agnet (did you mean --agent? ...)`). `--help` starts with the usage line, then\n" +
	"   the prose. `--version` prints the version, the VCS revision and time Go recorded in the binary\n" +
	"   (runtime/debug) and the Go version. `sitetxt completion SHELL` completes commands, flags,\n" +
	"   profiles, formats and, for `--agent`, the known crawlers' names; `sitetxt man DIR` writes a man\n" +
	"   page per command, generated from the same command tree as this page.\n\n"

// readNotes says on standard error where sitetxt read less of a source
// than it held, once per kind: past maxRead (a warning: the input was cut,
// as an endless standard input is), past the fetch size limit, past the
// profile's parse limit (notes).
func readNotes(ios *IOStreams, src *source, f *grammar.File) {
	if src.cut {
		warn(ios, "%s: input is longer than %d bytes; sitetxt stopped reading it there", src.name, maxRead)
	}
	if r := src.fetched; r != nil && r.Truncated {
		note(ios, "%s: the server sent more than %d bytes; only those were read", src.name, len(src.data))
	}
	if f != nil && f.Ignored != "" {
		note(ios, "%s: only the first %d bytes are read under this profile (RFC 9309 2.5); %d bytes after them are ignored", src.name, len(src.data)-len(f.Ignored), len(f.Ignored))
	}
	long := 0
	if f != nil {
		for _, l := range f.Lines {
			if l.TooLong {
				long++
			}
		}
	}
	if long > 0 {
		note(ios, "%s: %s longer than the line limit; each is read up to it", src.name, plural(long, "line"))
	}
}

// agentNote says when an agent name is not matched as given
// (input.AgentNote): under rfc9309, draft and norobots only its product
// token is compared; under google a whole User-Agent header matches no
// group of its own.
func agentNote(ios *IOStreams, prof robots.Profile, agent string) {
	if n := input.AgentNote(prof, agent); n != "" {
		note(ios, "--%s", n)
	}
}

// machineOutput opens the writer -o asks for: JSON Lines for "json", CSV
// with header as its first row for "csv", and neither for text.
func machineOutput(out *stream, f format, header []string) (*jsonLines, *csvRows, error) {
	switch f {
	case fJSON:
		return newJSONLines(out), nil, nil
	case fCSV:
		cw := newCSV(out)
		return nil, cw, cw.write(header...)
	}
	return nil, nil, nil
}
