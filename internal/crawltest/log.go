package crawltest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

// Event is one call to a pacer: a slot asked for (Kind "acquire") or an
// answer reported ("report"), with when the call was made and when its
// answer came, on the test's clock.
type Event struct {
	Who      string // the crawler that called
	Kind     string // "acquire" or "report"
	URL      string
	Sent     time.Time // when the call left for the pacer
	Answered time.Time // when its answer came back
	Code     int       // the HTTP status of serve's answer (200 for a pacer in process that answered)
	// An acquire's answer.
	Allowed bool
	WaitMS  int64
	// Ticket says whether an acquire's answer carried a ticket, or a
	// report sent one.
	Ticket bool
	// A report's status and the pause its answer said is in force.
	Status  int
	PauseMS int64
}

// Slot is when an allowed acquire's slot is at the latest: the answer's
// arrival plus its wait (the slot was given before the answer arrived).
func (e Event) Slot() time.Time { return e.Answered.Add(time.Duration(e.WaitMS) * time.Millisecond) }

// Log is the events of a crawl; it is safe for concurrent use.
type Log struct {
	mu     sync.Mutex
	events []Event
}

// Add records e.
func (l *Log) Add(e Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, e)
}

// Events returns the events recorded, in the order their calls were made.
func (l *Log) Events() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	ev := slices.Clone(l.events)
	slices.SortStableFunc(ev, func(a, b Event) int { return a.Sent.Compare(b.Sent) })
	return ev
}

// Proxy starts a loopback HTTP proxy to the serve at addr (host:port)
// that records each /v1/acquire and /v1/report passing through it in log
// as who's; it returns the proxy's URL, for the crawler to take as
// serve's. Other paths pass through unrecorded. It is closed when the
// test ends.
func Proxy(t testing.TB, log *Log, who, addr string) string {
	hc := &http.Client{Timeout: time.Minute}
	p := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 4<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		out, _ := http.NewRequest(r.Method, "http://"+addr+r.URL.RequestURI(), bytes.NewReader(body))
		for _, h := range []string{"Content-Type", "Authorization", "Accept"} {
			if v := r.Header.Get(h); v != "" {
				out.Header.Set(h, v)
			}
		}
		e := Event{Who: who, Sent: time.Now()}
		resp, err := hc.Do(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		e.Answered, e.Code = time.Now(), resp.StatusCode
		if record(&e, r.URL.Path, body, answer) {
			log.Add(e)
		}
		for _, h := range []string{"Content-Type", "Retry-After"} {
			if v := resp.Header.Get(h); v != "" {
				w.Header().Set(h, v)
			}
		}
		w.WriteHeader(resp.StatusCode)
		w.Write(answer)
	}))
	t.Cleanup(p.Close)
	return p.URL
}

// record fills e from a call to path and its answer; it reports whether
// the call is one a Log records.
func record(e *Event, path string, body, answer []byte) bool {
	var q struct {
		URL    string `json:"url"`
		Status int    `json:"status"`
		Ticket string `json:"ticket"`
	}
	var a struct {
		Allowed bool   `json:"allowed"`
		WaitMS  int64  `json:"wait_ms"`
		Ticket  string `json:"ticket"`
		PauseMS int64  `json:"pause_ms"`
	}
	json.Unmarshal(body, &q)
	json.Unmarshal(answer, &a)
	e.URL = q.URL
	switch path {
	case "/v1/acquire":
		e.Kind, e.Allowed, e.WaitMS, e.Ticket = "acquire", a.Allowed, a.WaitMS, a.Ticket != ""
	case "/v1/report":
		e.Kind, e.Status, e.PauseMS, e.Ticket = "report", q.Status, a.PauseMS, q.Ticket != ""
	default:
		return false
	}
	return true
}
