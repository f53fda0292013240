package cli

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/sitetxt/sitetxt/cache"
	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/input"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// fetchFlags are the flags of every command that may fetch a manifest over
// HTTP: --timeout, --user-agent, --cache-dir and --no-cache. A command embeds
// one in its options, calls AddFlags on its cobra command, and reads its
// sources with resolveSource.
type fetchFlags struct {
	Timeout   time.Duration
	UserAgent string
	CacheDir  string
	NoCache   bool
	// Refresh asks the servers again for what the cache holds, and stores
	// their answers (fetch.Fetcher.RefreshBefore: the start of the run).
	Refresh bool
	// CAFile names a PEM file of certificate authorities trusted instead
	// of the system's; Insecure skips certificate checks (with a warning).
	CAFile   string
	Insecure bool
	// Profile is the robots.txt profile whose access method interprets a
	// fetched robots.txt ("" means rfc9309). Commands with a --profile
	// flag bind it here.
	Profile string

	fetcher *fetch.Fetcher
	began   time.Time // when the fetcher was made: the start of the run
	client  *http.Client
	ios     *IOStreams // for notes and warnings, set by prepare
	setup   error      // why the fetcher could not be made as asked
}

// defaultUserAgent is the User-Agent header sitetxt sends.
func defaultUserAgent() string {
	return "sitetxt/" + Version + " (+https://github.com/sitetxt/sitetxt)"
}

// AddFlags defines the fetch flags on cmd.
func (ff *fetchFlags) AddFlags(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.DurationVar(&ff.Timeout, "timeout", fetch.DefaultTimeout, "give up fetching a manifest after this long, redirects and body included (0: the default)")
	fl.StringVar(&ff.UserAgent, "user-agent", defaultUserAgent(), "User-Agent header to send when fetching")
	fl.StringVar(&ff.CacheDir, "cache-dir", "", "keep fetched manifests in this directory (default: the user cache directory/sitetxt)")
	fl.BoolVar(&ff.NoCache, "no-cache", false, "fetch every manifest, neither reading nor writing the cache")
	fl.BoolVar(&ff.Refresh, "refresh", false, "fetch every manifest anew, however fresh its cached copy, and keep the answer in the cache for the next runs")
	fl.StringVar(&ff.CAFile, "ca-file", "", "trust the certificate authorities in this PEM file instead of the system's")
	fl.BoolVar(&ff.Insecure, "insecure", false, "do not verify TLS certificates (a warning says so; for test servers only)")
}

// prepare makes the command's fetcher for a run that prints on ios: the
// TLS settings, the cache; the notes and warnings they call for are
// printed once. It returns a usage error for settings that cannot work.
func (ff *fetchFlags) prepare(ios *IOStreams) error {
	if ff.ios != nil {
		return ff.setup
	}
	ff.ios = ios
	if ff.Timeout < 0 {
		ff.setup = usageError("--timeout %v: want a duration of 0 (the default) or more", ff.Timeout)
		return ff.setup
	}
	if ff.CAFile != "" || ff.Insecure {
		tc := &tls.Config{}
		if ff.CAFile != "" {
			pem, err := os.ReadFile(ff.CAFile)
			if err != nil {
				ff.setup = usageError("--ca-file: %v", unwrapPath(err))
				return ff.setup
			}
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pem) {
				ff.setup = usageError("--ca-file %s: no PEM certificate in it", ff.CAFile)
				return ff.setup
			}
			tc.RootCAs = pool
		}
		if ff.Insecure {
			warn(ios, "--insecure: TLS certificates are not verified; anyone on the path can answer for any site")
			tc.InsecureSkipVerify = true
		}
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.TLSClientConfig = tc
		ff.client = &http.Client{Transport: tr}
	}
	if ff.CacheDir != "" && !ff.NoCache {
		if st, err := os.Stat(ff.CacheDir); err == nil && !st.IsDir() {
			note(ios, "--cache-dir %s is not a directory; fetched manifests are kept in memory for this run only", ff.CacheDir)
			ff.CacheDir, ff.NoCache = "", true
		}
	}
	ff.Fetcher()
	return nil
}

// Fetcher returns the command's fetcher, made on first use: one per run, so
// a manifest named twice is fetched once.
func (ff *fetchFlags) Fetcher() *fetch.Fetcher {
	if ff.fetcher != nil {
		return ff.fetcher
	}
	f := &fetch.Fetcher{Timeout: ff.Timeout, UserAgent: ff.UserAgent, Client: ff.client}
	ff.began = time.Now()
	if ff.Refresh {
		f.RefreshBefore = ff.began
	}
	if f.UserAgent == "" {
		f.UserAgent = defaultUserAgent()
	}
	switch {
	case ff.NoCache:
		// Nothing persists, but within one run a manifest is fetched once,
		// however many profiles read it.
		f.Cache = new(cache.Memory)
	case ff.CacheDir != "":
		f.Cache = ff.openDir(ff.CacheDir)
	default:
		if dir, err := cache.DefaultDir(); err == nil {
			f.Cache = ff.openDir(dir)
		}
		// Without a user cache directory, the cache lives in memory.
	}
	ff.fetcher = f
	return f
}

// robotsClient returns a robots.Client deciding under prof through the
// command's fetcher (prepared): the one path from a URL to a fetched
// decision, as serve and prefs take it.
func (ff *fetchFlags) robotsClient(prof robots.Profile) *robots.Client {
	return &robots.Client{Profile: prof, Fetcher: ff.Fetcher()}
}

// openDir opens the cache directory dir (cache.OpenDir: created 0700, the
// orphaned temporary files of killed writers removed); one that others may
// write to, or that cannot be made, is not used: a warning says so and
// the cache lives in memory for the run.
func (ff *fetchFlags) openDir(dir string) cache.Cache {
	d, err := cache.OpenDir(dir)
	if err != nil {
		if ff.ios != nil {
			warn(ff.ios, "%v: the cache is kept in memory for this run", err)
		}
		return new(cache.Memory)
	}
	return d
}

// access returns the access method a fetched manifest of kind k is read
// with and whose it is: the kind's own ("datatxt"), or that of ff.Profile
// (its name).
func (ff *fetchFlags) access(k *manifest.Kind) (*fetch.Access, string, error) {
	if k.Access != nil {
		return k.Access, k.Access.String(), nil
	}
	p := robots.RFC9309
	if ff.Profile != "" {
		var err error
		if p, err = robots.ParseProfile(ff.Profile); err != nil {
			return nil, "", usageError("%v", err)
		}
	}
	return k.AccessFor(p), p.String(), nil
}

// fetchSource fetches the manifest at url (already resolved) as a source.
// A fetch that yields no answer under the mode (fetch.Error) is an error
// exiting with ExitError; every other Status, including "everything is
// disallowed", is a source whose data is the body (empty unless Status is
// Parse) and whose fetched field says what the response meant.
func (ff *fetchFlags) fetchSource(url string, k *manifest.Kind) (*source, error) {
	m, _, err := ff.access(k)
	if err != nil {
		return nil, err
	}
	r := ff.Fetcher().Fetch(context.Background(), url, m)
	if r.Status == fetch.Error {
		return nil, &exitError{code: ExitError, err: r.Failure()}
	}
	return &source{name: url, data: string(r.Body), fetched: r, cached: ff.cached(r)}, nil
}

// cached reports whether r came from a cache written before this run: an
// answer the fetcher fetched in this run and then read from its cache
// again is this run's own.
func (ff *fetchFlags) cached(r *fetch.Result) bool {
	return r.FromCache && r.FetchedAt.Before(ff.began)
}

// resolveSource reads a command-line SOURCE (sourceArg) and opens it
// (openSource).
func resolveSource(ios *IOStreams, ff *fetchFlags, arg string, k *manifest.Kind) (*source, error) {
	s, err := sourceArg(arg)
	if err != nil {
		return nil, err
	}
	return openSource(ios, ff, s, k)
}

// sourceArg reads a command-line SOURCE the one way (input.ReadSource): a
// file, "-" for standard input, an http(s) URL, or a host name read as
// that https site; another "://" is a usage error.
func sourceArg(arg string) (input.Source, error) {
	s, err := input.ReadSource(arg)
	if err != nil {
		return s, usageError("%v", err)
	}
	return s, nil
}

// openSource reads a SOURCE as sourceArg read it: a file or standard
// input is read; for a URL, one naming a site ("https://example.org/")
// means the site's manifest (the File of kind k: robots.txt, data.txt),
// a page its site's manifest (with a note), any other URL is fetched as
// it is. For a fetched source, src.fetched holds the fetch.Result: a
// command that interprets robots.txt must look at its Status (AllowAll,
// DisallowAll, Defer) before at the empty data.
func openSource(ios *IOStreams, ff *fetchFlags, s input.Source, k *manifest.Kind) (*source, error) {
	if !s.Fetched() {
		return readSource(ios, s.Typed)
	}
	hostNote(ios, s)
	if err := ff.prepare(ios); err != nil {
		return nil, err
	}
	url, page, err := k.Locate(s.URL)
	if err != nil {
		return nil, usageError("%v", err)
	}
	if page {
		note(ios, "%s is a page, not a %s: reading its site's %s %s", s.URL, k.File, k.File, url)
	}
	return ff.fetchSource(url, k)
}

// hostNote says, as "sitetxt fetch" reads a SITE, that a SOURCE named no
// file and is read as the site its host name names.
func hostNote(ios *IOStreams, s input.Source) {
	if s.FromHost {
		note(ios, "%s is not a file: it is read as the site %s", s.Typed, s.URL)
	}
}

// markupWarning warns, the same way in every command that reads a
// manifest, when the input is not a plain-text manifest at all: an HTML
// page (the grammar's "markup" diagnostic) or binary data (more than one
// character in ten of the start a control byte or not UTF-8).
// Such input is still read, and gives no rules; the warning says so.
func markupWarning(ios *IOStreams, src *source) {
	if src.fetched != nil && src.fetched.Status != fetch.Parse {
		return
	}
	head := src.data[:min(len(src.data), 4096)]
	if looksBinary(head) {
		warn(ios, "%s: input looks like binary data, not a plain-text manifest; it is read as one all the same, and gives no rules", src.name)
		return
	}
	for _, d := range grammar.ParseString(src.name, head, grammar.Options{}).Diagnostics {
		if d.Code == "markup" {
			warn(ios, "%s: %s; it is read as one all the same, and gives no rules", src.name, d.Summary)
			return
		}
	}
}

// looksBinary reports whether the start of an input is binary data: more
// than a tenth of its characters are control bytes (other than tab, CR and
// LF; NUL included) or bytes that are not UTF-8. A robots.txt with a stray
// NUL or a Latin-1 name is still text.
func looksBinary(head string) bool {
	odd := 0
	for i := 0; i < len(head); {
		r, n := utf8.DecodeRuneInString(head[i:])
		if (r == utf8.RuneError && n == 1) || (r < 0x20 && r != '\t' && r != '\r' && r != '\n') || r == 0x7f {
			odd++
		}
		i += n
	}
	return odd*10 > len(head)
}

// interpretAs returns what a fetched robots.txt source means under another
// profile (for commands that compare profiles). The response comes from this
// run's fetcher, so the server is asked once; a remembered failure is not
// asked again either.
func (ff *fetchFlags) interpretAs(src *source, profile string) (*fetch.Result, error) {
	if src.fetched == nil {
		return nil, fmt.Errorf("%s was not fetched", src.name)
	}
	p, err := robots.ParseProfile(profile)
	if err != nil {
		return nil, usageError("%v", err)
	}
	return ff.Fetcher().Fetch(context.Background(), src.fetched.URL, p.Access()), nil
}
