package fetch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/sitetxt/sitetxt/cache"
)

// A Fetcher whose Cache is a cache.Shared makes one fetch per manifest per
// expiry across every process sharing it: the process holding the
// manifest's lease fetches and stores the outcome (failures included, until
// their Retry-After); the others wait for the lease to end and read what it
// stored. Within a process, concurrent callers already share one fetch (do),
// so a process asks the shared cache once per manifest, not once per
// caller.

// leaseTTL is how long a lease lasts unless its holder extends it, which
// it does every third of it while it fetches: a holder that crashed
// blocks the others for at most that long.
const leaseTTL = 3 * time.Second

// leaseMargin is added to a fetch's timeout to bound a wait for a holder
// that is alive.
const leaseMargin = 5 * time.Second

// maxLeaseRounds bounds how many times a caller waits for another holder
// before fetching on its own.
const maxLeaseRounds = 3

// failureKey is where a shared cache keeps the failure remembered for key.
// It is not a URL, so it cannot collide with one.
func failureKey(key string) string { return "failure:" + key }

// failureMagic starts every encoded failure; the digit is the format
// version.
const failureMagic = "sitetxt-fetch-failure 1\n"

// failureRecord is an outcome without a response to cache (a network
// error, a 5xx, 429, too many redirects), as a shared cache keeps it.
type failureRecord struct {
	URL       string    `json:"url"`
	Kind      uint8     `json:"kind"`
	Code      int       `json:"status"`
	Err       string    `json:"error"`
	RetryAt   time.Time `json:"retry_at"`
	FinalURL  string    `json:"final_url"`
	Redirects int       `json:"redirects"`
	Chain     []string  `json:"chain,omitempty"`
	CType     string    `json:"content_type,omitempty"`
	// Net is the NetError kind of a network error ("timeout", "dns",
	// ...), so that a process reading the record tells it from an HTTP
	// answer as the one that wrote it did.
	Net string `json:"net,omitempty"`
}

func encodeFailure(key string, o *outcome) []byte {
	rec := failureRecord{URL: key, Kind: uint8(o.kind), Code: o.code, RetryAt: o.retryAt,
		FinalURL: o.finalURL, Redirects: o.redirects, Chain: o.chain, CType: o.ctype}
	if o.err != nil {
		rec.Err = o.err.Error()
	}
	var ne *NetError
	if errors.As(o.err, &ne) {
		rec.Net = ne.Kind
	}
	b, err := json.Marshal(rec)
	if err != nil {
		panic("fetch: cannot encode failure: " + err.Error())
	}
	return append([]byte(failureMagic), b...)
}

func decodeFailure(key string, data []byte) (*outcome, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(failureMagic))
	if !ok {
		return nil, false
	}
	var rec failureRecord
	if json.Unmarshal(rest, &rec) != nil || rec.URL != key || rec.RetryAt.IsZero() || rec.Kind > uint8(badRedirect) {
		return nil, false
	}
	o := &outcome{kind: outcomeKind(rec.Kind), code: rec.Code, retryAt: rec.RetryAt, finalURL: rec.FinalURL,
		redirects: rec.Redirects, chain: rec.Chain, ctype: rec.CType, shared: true}
	if rec.Err != "" {
		o.err = errors.New(rec.Err)
		if o.kind == networkError {
			kind := rec.Net
			if kind == "" {
				kind = "network" // written by a version without the field
			}
			o.err = &NetError{Kind: kind, Err: o.err}
		}
	}
	return o, true
}

// sharedTTL is how long a shared cache keeps e: as long as any mode may
// use it, fresh or (RFC 9309 2.4) stale while its site is unreachable.
func (f *Fetcher) sharedTTL(e *entry) time.Duration {
	end := e.expires(AccessDataTxt)
	if d := e.expires(AccessRFC9309); f.maxStale() > 0 {
		d = d.Add(f.maxStale())
		if d.After(end) {
			end = d
		}
	}
	return max(end.Sub(f.now()), time.Minute)
}

// waitLimit bounds one wait for another holder: the fetch's timeout and a
// margin.
func (f *Fetcher) waitLimit() time.Duration {
	return f.timeout() + leaseMargin
}

// fetchShared fetches key, through the lease of a shared cache when the
// Fetcher has one; cached is the entry the caller saw (nil for none).
func (f *Fetcher) fetchShared(ctx context.Context, key string, cached *entry) *outcome {
	sc, ok := f.cache().(cache.Shared)
	if !ok {
		return f.fetch(ctx, key, cached)
	}
	for round := 0; ; round++ {
		if o := f.sharedAnswer(sc, key, cached); o != nil {
			return o
		}
		if round == maxLeaseRounds {
			return f.fetch(ctx, key, cached) // waited long enough: fetch directly
		}
		token, held, err := sc.TryLease(ctx, key, leaseTTL)
		if err != nil {
			break // the shared cache is down: fetch directly
		}
		if held {
			// Someone may have stored an answer between our look and our lease.
			if o := f.sharedAnswer(sc, key, cached); o != nil {
				sc.Release(key, token)
				return o
			}
			stop := extendWhile(ctx, sc, key, token)
			o := f.fetch(ctx, key, cached)
			stop()
			if o.e == nil && !o.retryAt.IsZero() && ctx.Err() == nil { // a fetch its callers abandoned is no failure of the site
				if ttl := o.retryAt.Sub(f.now()); ttl > 0 {
					sc.PutTTL(failureKey(key), encodeFailure(key, o), ttl)
				}
			}
			sc.Release(key, token)
			return o
		}
		wctx, cancel := context.WithTimeout(ctx, f.waitLimit())
		err = sc.WaitLease(wctx, key)
		cancel()
		if err != nil && ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) {
			break // the shared cache went down while waiting
		}
	}
	if o := f.sharedAnswer(sc, key, cached); o != nil {
		return o
	}
	return f.fetch(ctx, key, cached)
}

// recent is how old a shared entry may be and still count as this round's
// fetch even though the caller saw it already: the caller may have read
// the clock just before another process stored it, or that process's
// clock may be ahead (entries from the future are not fresh).
const recent = 2 * time.Second

// sharedAnswer returns what another process stored for key since the
// caller looked (an entry other than cached, or one fetched less than
// recent ago), or a failure it remembers that still holds; nil when there
// is neither.
func (f *Fetcher) sharedAnswer(sc cache.Shared, key string, cached *entry) *outcome {
	if data, ok := sc.Get(key); ok {
		if e, err := decodeEntry(data); err == nil && e.URL == key &&
			(cached == nil || !e.FetchedAt.Equal(cached.FetchedAt) || e.FetchedAt.After(f.now().Add(-recent))) {
			return &outcome{kind: gotResponse, code: e.StatusCode, e: e, shared: true, finalURL: e.FinalURL,
				redirects: e.Redirects, chain: e.Chain, ctype: e.Header.Get("Content-Type")}
		}
	}
	if data, ok := sc.Get(failureKey(key)); ok {
		if o, ok := decodeFailure(key, data); ok && f.now().Before(o.retryAt) {
			return o
		}
	}
	return nil
}

// extendWhile extends the lease on key every third of leaseTTL until the
// returned stop is called.
func extendWhile(ctx context.Context, sc cache.Shared, key, token string) (stop func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(leaseTTL / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if held, err := sc.Extend(ctx, key, token, leaseTTL); err == nil && !held {
					return // lost (Redis restarted): the fetch goes on, unshared
				}
			}
		}
	}()
	return func() { close(done) }
}
