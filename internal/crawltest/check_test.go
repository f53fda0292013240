package crawltest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"
)

// recorder is a testing.TB that keeps what Check reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

// crawl is a made-up crawl by one crawler, "c": page requests a second
// and 50 ms apart, each on a slot granted 10 ms before and reported 2 ms
// after; the fourth is answered 429 and retried on a slot 3 s after its
// report.
func crawl() (*Site, *Log) {
	t0 := time.Unix(1_800_000_000, 0)
	site := &Site{Server: &httptest.Server{URL: "http://site"}}
	log := &Log{}
	page := func(path string, at time.Time, status int, wait time.Duration) {
		site.arrivals = append(site.arrivals, Arrival{At: at, Path: path, Status: status})
		sent := at.Add(-10*time.Millisecond - wait)
		log.Add(Event{Who: "c", Kind: "acquire", URL: site.URL + path, Sent: sent, Answered: sent.Add(time.Millisecond),
			Code: 200, Allowed: true, WaitMS: wait.Milliseconds()})
		r := Event{Who: "c", Kind: "report", URL: site.URL + path, Sent: at.Add(2 * time.Millisecond), Answered: at.Add(3 * time.Millisecond),
			Code: 200, Status: status}
		if status == http.StatusTooManyRequests {
			r.PauseMS = Pause.Milliseconds()
		}
		log.Add(r)
	}
	at := t0
	for i := range 4 {
		status := http.StatusOK
		if i == 3 {
			status = http.StatusTooManyRequests
		}
		page(fmt.Sprintf("/s/1/%d", i), at, status, 0)
		at = at.Add(Interval + 50*time.Millisecond)
	}
	busy := site.arrivals[3].At
	page("/s/1/3", busy.Add(Pause+20*time.Millisecond), http.StatusOK, Pause)
	return site, log
}

// TestCheck: Check passes a crawl that kept every promise and fails one
// that broke any.
func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		breaks func(*Site, *Log)
		want   string // in an error; "" for none
	}{
		{"kept", func(*Site, *Log) {}, ""},
		{"a private URL", func(s *Site, l *Log) {
			a := s.arrivals[4]
			a.At, a.Path = a.At.Add(2*Interval), "/private/1"
			s.arrivals = append(s.arrivals, a)
			l.Add(Event{Who: "c", Kind: "acquire", URL: s.URL + a.Path, Sent: a.At.Add(-time.Millisecond), Answered: a.At, Code: 200, Allowed: true})
			l.Add(Event{Who: "c", Kind: "report", URL: s.URL + a.Path, Sent: a.At, Answered: a.At, Code: 200, Status: 200})
		}, "which robots.txt disallows"},
		{"too close", func(s *Site, l *Log) { s.arrivals[1].At = s.arrivals[0].At.Add(900 * time.Millisecond) }, "apart; the site asks for 1s"},
		{"close after a late request", func(s *Site, l *Log) { s.arrivals[0].At = s.arrivals[0].At.Add(100 * time.Millisecond) }, ""},
		{"slots too close", func(s *Site, l *Log) {
			for i := range l.events {
				if l.events[i].Kind == "acquire" && l.events[i].URL == s.URL+"/s/1/1" {
					l.events[i].Sent, l.events[i].Answered = l.events[i].Sent.Add(-600*time.Millisecond), l.events[i].Answered.Add(-600*time.Millisecond)
				}
			}
		}, "slots for"},
		{"before its slot", func(s *Site, l *Log) {
			for i := range l.events {
				if l.events[i].Kind == "acquire" && l.events[i].URL == s.URL+"/s/1/1" {
					l.events[i].WaitMS = 500
				}
			}
		}, "before the earliest its slot"},
		{"not reported", func(s *Site, l *Log) { l.events = l.events[:len(l.events)-1] }, "want every response reported"},
		{"reported late", func(s *Site, l *Log) {
			for i := range l.events {
				if l.events[i].Status == http.StatusTooManyRequests {
					l.events[i].Sent = l.events[i].Sent.Add(2 * ReportWithin)
				}
			}
		}, "want within"},
		{"a slot in the pause", func(s *Site, l *Log) {
			for i := range l.events {
				if l.events[i].Kind == "acquire" && l.events[i].WaitMS == Pause.Milliseconds() {
					l.events[i].WaitMS = 1000
				}
			}
		}, "before the pause's end"},
		{"no slot after the report", func(s *Site, l *Log) {
			s.arrivals, l.events = s.arrivals[:4], l.events[:8]
		}, "asked for no slot after"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site, log := crawl()
			tt.breaks(site, log)
			r := &recorder{TB: t}
			done := make(chan struct{})
			go func() {
				defer close(done)
				Check(r, site, log, []string{"c"}, 4)
			}()
			<-done
			switch got := strings.Join(r.errs, "\n"); {
			case tt.want == "" && got != "":
				t.Errorf("Check of a crawl that kept every promise reported:\n%s", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("Check reported %q; want an error saying %q", got, tt.want)
			}
		})
	}
}
