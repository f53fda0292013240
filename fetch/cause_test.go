package fetch

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/cache"
	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// TestFailureCauses: every failure says its cause in Err and in Reason,
// under every mode, so that a command can print "unreachable (tls: ...)".
func TestFailureCauses(t *testing.T) {
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake fails on purpose
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	release := make(chan struct{})
	defer close(release)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	refused := fmt.Sprintf("http://127.0.0.1:%d/robots.txt", sitetest.RefusedPort(t))
	tooMany := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer tooMany.Close()

	tests := []struct {
		name, url string
		kind      string // NetError.Kind, "" when the failure is not one
		cause     string // what Err and Reason say
		rfc       string // the start of the Reason under rfc9309
	}{
		{"tls", tlsSrv.URL + "/robots.txt", "tls", "tls: failed to verify certificate", "unreachable (tls: "},
		{"timeout", slow.URL + "/robots.txt", "timeout", "timeout: no answer within 200ms", "unreachable (timeout: "},
		{"refused", refused, "refused", "connection refused", "unreachable (dial tcp "},
		{"dns", "http://nosuch.invalid/robots.txt", "dns", "dns: lookup nosuch.invalid", "unreachable (dns: "},
		{"429", tooMany.URL + "/robots.txt", "", "HTTP 429 Too Many Requests", "unreachable (HTTP 429 Too Many Requests, read as a server error as Google does"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Only the server that never answers runs into the timeout; the
			// others get time for a handshake under -race on a busy machine.
			timeout := time.Minute
			if tt.kind == "timeout" {
				timeout = 200 * time.Millisecond
			}
			f := &Fetcher{Timeout: timeout, Cache: cache.None{}}
			for _, m := range allModes {
				r := f.Fetch(context.Background(), tt.url, m)
				if r.Err == nil || !strings.Contains(r.Err.Error(), tt.cause) {
					t.Errorf("%s: Fetch(%s).Err = %v, want it to say %q", m, tt.name, r.Err, tt.cause)
				}
				if !strings.Contains(r.Reason, tt.cause) {
					t.Errorf("%s: Fetch(%s).Reason = %q, want it to say %q", m, tt.name, r.Reason, tt.cause)
				}
				if m == AccessRFC9309 && (!strings.HasPrefix(r.Reason, tt.rfc) || r.Status != DisallowAll) {
					t.Errorf("rfc9309: Fetch(%s) = %s, %q; want disallow-all, %q...", tt.name, r.Status, r.Reason, tt.rfc)
				}
				var ne *NetError
				if ok := asNetError(r.Err, &ne); ok != (tt.kind != "") || (ok && ne.Kind != tt.kind) {
					t.Errorf("%s: Fetch(%s).Err = %#v, want a NetError of kind %q", m, tt.name, r.Err, tt.kind)
				}
			}
		})
	}
}

func asNetError(err error, ne **NetError) bool {
	e, ok := err.(*NetError)
	*ne = e
	return ok
}
