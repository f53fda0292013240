package crawltest

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/pace"
)

// ReportWithin is how soon after the site answered 429 the crawler must
// have reported it.
const ReportWithin = time.Second

// Figures are what Check measured of a crawl.
type Figures struct {
	Pages, Robots, Private int // requests for pages, for /robots.txt, for /private/ URLs
	// Gap is the shortest time between two page requests' arrivals; Late
	// the most a page request arrived after the latest its slot can have
	// been (the crawler's delay between its slot and the site); SlotGap
	// the most two consecutive slots can have been apart, at the least.
	Gap, Late, SlotGap time.Duration
	// Excused counts the page requests that arrived closer than Interval
	// after one that was sent more than the slack (pace.DefaultSlack)
	// after its slot: the slots were far enough apart, the crawler's
	// machine was late.
	Excused int
	// Acquires, Disallowed and Reports count the pacer's calls: slots
	// granted, URLs refused, answers reported; Busy the acquires serve
	// answered "429: later".
	Acquires, Disallowed, Reports, Busy int
	// Tickets counts the acquires whose answer carried a ticket, and
	// TicketReports the reports that sent one.
	Tickets, TicketReports int
	// ReportDelay is the time from the site's 429 to its report; PauseMS
	// the pause the report's answer said was in force.
	ReportDelay time.Duration
	PauseMS     int64
	// After counts, per crawler, the slots asked for after the report had
	// been answered; Margin is how long after the pause's end (the report
	// plus the Retry-After) the earliest of them was, at the latest.
	After  map[string]int
	Margin time.Duration
	// InPause counts the page requests that arrived during the pause:
	// slots granted before the report, which are not recalled.
	InPause int
}

func (f Figures) String() string {
	var after []string
	for _, who := range slices.Sorted(maps.Keys(f.After)) {
		after = append(after, fmt.Sprintf("%s %d", who, f.After[who]))
	}
	return fmt.Sprintf("%d page requests (%d robots.txt, %d private); closest two %v apart (Crawl-delay %v; %d closer, after a request sent late), each at most %v after its slot; closest two slots %v apart; "+
		"%d slots, %d disallowed, %d busy, %d reports (tickets: %d answers, %d reports); "+
		"the 429 reported %v after the site sent it, pause %d ms; slots asked for after it: %s, the earliest %v after the pause ended; "+
		"%d page requests arrived during the pause (slots granted before the report)",
		f.Pages, f.Robots, f.Private, f.Gap.Round(time.Millisecond), Interval, f.Excused, f.Late.Round(time.Millisecond), f.SlotGap.Round(time.Millisecond),
		f.Acquires, f.Disallowed, f.Busy, f.Reports, f.Tickets, f.TicketReports,
		f.ReportDelay.Round(100*time.Microsecond), f.PauseMS, strings.Join(after, ", "), f.Margin.Round(time.Millisecond), f.InPause)
}

// Check measures a crawl of site by the crawlers whos, whose pacer calls
// are in log, and fails t where it broke a promise: a /private/ URL
// requested, two slots closer than Interval, two page requests closer
// than Interval (unless the first was sent more than the slack late: it
// is logged and counted in Figures.Excused), fewer than pages page
// requests, a response not reported, a report refused, the 429 reported
// later than ReportWithin, a crawler not asking for a slot after the
// report, or a slot asked for after the report granted before its pause
// ended.
func Check(t testing.TB, site *Site, log *Log, whos []string, pages int) Figures {
	t.Helper()
	f := Figures{After: map[string]int{}, Margin: time.Hour}
	var pagesAt []Arrival
	var busy time.Time
	for _, a := range site.Arrivals() {
		switch {
		case a.Path == "/robots.txt":
			f.Robots++
			continue
		case strings.HasPrefix(a.Path, "/private/"):
			f.Private++
			t.Errorf("%s requested %s, which robots.txt disallows", a.Agent, a.Path)
		}
		f.Pages++
		pagesAt = append(pagesAt, a)
		if a.Status == http.StatusTooManyRequests && busy.IsZero() {
			busy = a.At
		}
	}
	if f.Pages < pages {
		t.Errorf("%d page requests arrived, want at least %d", f.Pages, pages)
	}
	events := log.Events()
	f.checkSlots(t, events)
	f.Gap = time.Hour
	for _, a := range pagesAt {
		switch who, lo, hi, ok := lateness(site, events, a); {
		case !ok:
			t.Errorf("%s was requested without a slot", a.Path)
		case hi < -time.Millisecond: // wait_ms is rounded up
			t.Errorf("%s arrived %v before the earliest its slot can have been (%s's)", a.Path, -hi, who)
		default:
			f.Late = max(f.Late, lo)
		}
	}
	for i := 1; i < len(pagesAt); i++ {
		a, b := pagesAt[i-1], pagesAt[i]
		f.Gap = min(f.Gap, b.At.Sub(a.At))
		if b.At.Sub(a.At) >= Interval {
			continue
		}
		msg := fmt.Sprintf("page requests %d (%s, %s) and %d (%s, %s) arrived %v apart; the site asks for %v",
			i-1, a.Path, late(site, events, a), i, b.Path, late(site, events, b), b.At.Sub(a.At), Interval)
		if _, lo, _, _ := lateness(site, events, a); lo > pace.DefaultSlack {
			f.Excused++
			t.Logf("%s: the first was sent more than the slack (%v) after its slot, so the slots were as far apart as asked: the machine's load, not the pacer", msg, pace.DefaultSlack)
			continue
		}
		t.Errorf("%s", msg)
	}
	report := f.count(t, events)
	if f.Reports != f.Pages {
		t.Errorf("%d reports for %d page responses; want every response reported", f.Reports, f.Pages)
	}
	if busy.IsZero() || report == nil {
		t.Fatalf("no 429 from the site (%v) or no report of it (%v)", !busy.IsZero(), report != nil)
	}
	f.ReportDelay, f.PauseMS = report.Sent.Sub(busy), report.PauseMS
	if f.ReportDelay > ReportWithin {
		t.Errorf("the 429 was reported %v after the site sent it; want within %v", f.ReportDelay, ReportWithin)
	}
	if time.Duration(f.PauseMS)*time.Millisecond < Pause-100*time.Millisecond {
		t.Errorf("the 429's report answered pause_ms %d; want about %d", f.PauseMS, Pause.Milliseconds())
	}
	end := report.Sent.Add(Pause)
	for _, e := range events {
		if e.Kind != "acquire" || !e.Allowed || e.Code != http.StatusOK || !e.Sent.After(report.Answered) {
			continue
		}
		f.After[e.Who]++
		f.Margin = min(f.Margin, e.Slot().Sub(end))
		if e.Slot().Before(end) {
			t.Errorf("%s asked for a slot for %s %v after the 429's report and got one %v before the pause's end",
				e.Who, e.URL, e.Sent.Sub(report.Sent).Round(time.Millisecond), end.Sub(e.Slot()).Round(time.Millisecond))
		}
	}
	for _, who := range whos {
		if f.After[who] == 0 {
			t.Errorf("%s asked for no slot after the 429's report: the test shows nothing of its pause", who)
		}
	}
	for _, a := range pagesAt {
		if a.At.After(busy) && a.At.Before(end) {
			f.InPause++
		}
	}
	return f
}

// checkSlots fails t when two slots the pacer granted can have been
// closer than Interval: in the order of their earliest bounds, each pair
// can be as far apart as the later one's latest bound from the earlier
// one's earliest.
func (f *Figures) checkSlots(t testing.TB, events []Event) {
	var slots []Event
	for _, e := range events {
		if e.Kind == "acquire" && e.Allowed && e.Code == http.StatusOK {
			slots = append(slots, e)
		}
	}
	earliest := func(e Event) time.Time { return e.Sent.Add(time.Duration(e.WaitMS) * time.Millisecond) }
	slices.SortFunc(slots, func(a, b Event) int { return earliest(a).Compare(earliest(b)) })
	f.SlotGap = time.Hour
	for k := 1; k < len(slots); k++ {
		gap := slots[k].Slot().Sub(earliest(slots[k-1]))
		f.SlotGap = min(f.SlotGap, gap)
		if gap < Interval {
			t.Errorf("slots for %s and %s are at most %v apart; the site asks for %v", slots[k-1].URL, slots[k].URL, gap, Interval)
		}
	}
}

// count counts the pacer's calls, fails t on an answer that is not one,
// and returns the first report of a 429.
func (f *Figures) count(t testing.TB, events []Event) *Event {
	var report *Event
	for i, e := range events {
		switch {
		case e.Kind == "acquire" && e.Code == http.StatusTooManyRequests:
			f.Busy++
		case e.Code != http.StatusOK:
			t.Errorf("%s: %s of %s answered %d", e.Who, e.Kind, e.URL, e.Code)
		case e.Kind == "acquire" && e.Allowed:
			f.Acquires++
			if e.Ticket {
				f.Tickets++
			}
		case e.Kind == "acquire":
			f.Disallowed++
		case e.Kind == "report":
			f.Reports++
			if e.Ticket {
				f.TicketReports++
			}
			if e.Status == http.StatusTooManyRequests && report == nil {
				report = &events[i]
			}
		}
	}
	if f.TicketReports != f.Tickets {
		t.Errorf("%d acquires answered with a ticket, %d reports sent one; want a ticket in the report of every slot that had one", f.Tickets, f.TicketReports)
	}
	return report
}

// lateness says how long after its slot a page request arrived: after
// the latest the slot can have been (the acquire's answer plus its wait)
// and after the earliest (the acquire's call plus the wait); ok is false
// when no slot was granted for its URL before it arrived.
func lateness(site *Site, events []Event, a Arrival) (who string, lo, hi time.Duration, ok bool) {
	var acq *Event
	for i, e := range events {
		if e.Kind == "acquire" && e.Allowed && e.URL == site.URL+a.Path && e.Sent.Before(a.At) {
			acq = &events[i]
		}
	}
	if acq == nil {
		return "", 0, 0, false
	}
	return acq.Who, a.At.Sub(acq.Slot()), a.At.Sub(acq.Sent.Add(time.Duration(acq.WaitMS) * time.Millisecond)), true
}

// late says in words what lateness finds.
func late(site *Site, events []Event, a Arrival) string {
	who, lo, hi, ok := lateness(site, events, a)
	if !ok {
		return "no slot granted"
	}
	return fmt.Sprintf("%s's, %v to %v after its slot", who, lo.Round(time.Millisecond), hi.Round(time.Millisecond))
}
