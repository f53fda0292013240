package fetch

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestFailureRecord(t *testing.T) {
	const key = "https://example.org/robots.txt"
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	o := &outcome{kind: gotResponse, code: 503, err: errors.New("HTTP 503 Service Unavailable"), retryAt: at,
		finalURL: "https://www.example.org/robots.txt", redirects: 1, chain: []string{"https://www.example.org/robots.txt"}}
	good := encodeFailure(key, o)
	got, ok := decodeFailure(key, good)
	if !ok || got.kind != o.kind || got.code != 503 || got.err.Error() != o.err.Error() || !got.retryAt.Equal(at) ||
		got.finalURL != o.finalURL || got.redirects != 1 || len(got.chain) != 1 || !got.shared {
		t.Fatalf("decodeFailure(encodeFailure(%+v)) = %+v, %v", o, got, ok)
	}
	// A network error comes back as a NetError of its kind, so a reader
	// tells it from an HTTP answer as the writer did.
	ne := &outcome{kind: networkError, err: &NetError{Kind: "timeout", Err: errors.New("no answer within 10s")}, retryAt: at}
	if got, ok := decodeFailure(key, encodeFailure(key, ne)); !ok || got.err.Error() != "timeout: no answer within 10s" {
		t.Errorf("decodeFailure(a timeout) = %+v, %v", got, ok)
	} else if back, isNet := got.err.(*NetError); !isNet || back.Kind != "timeout" {
		t.Errorf("decodeFailure(a timeout).err = %#v, want a NetError of kind timeout", got.err)
	}
	for _, tc := range []struct {
		name string
		key  string
		data string
	}{
		{"other key", "https://other.example/robots.txt", string(good)},
		{"no magic", key, strings.TrimPrefix(string(good), failureMagic)},
		{"an entry", key, cacheMagic + "{}\n"},
		{"truncated", key, string(good[:len(good)-3])},
		{"no retry time", key, failureMagic + `{"url":"` + key + `","kind":0,"status":503}`},
		{"unknown kind", key, failureMagic + `{"url":"` + key + `","kind":9,"retry_at":"2026-01-02T03:04:05Z"}`},
		{"empty", key, ""},
	} {
		if got, ok := decodeFailure(tc.key, []byte(tc.data)); ok {
			t.Errorf("decodeFailure(%s) = %+v, true; want a miss", tc.name, got)
		}
	}
}

func FuzzDecodeFailure(f *testing.F) {
	const key = "https://example.org/robots.txt"
	f.Add(encodeFailure(key, &outcome{kind: networkError, err: errors.New("x"), retryAt: time.Unix(1, 0)}))
	f.Add([]byte(failureMagic + "{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if o, ok := decodeFailure(key, data); ok {
			back, ok := decodeFailure(key, encodeFailure(key, o))
			if !ok || back.kind != o.kind || !back.retryAt.Equal(o.retryAt) {
				t.Errorf("decodeFailure(encodeFailure(%+v)) = %+v, %v; want the same failure back", o, back, ok)
			}
		}
	})
}
