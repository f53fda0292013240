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

// Allowance is how late after its slot a crawler may send a request on
// it, at the site's pace with serve's default slack: later, the slot is
// stale and the crawler must acquire a new one (pace.Pace.Stale).
var Allowance = pace.Pace{Interval: Interval, Slack: pace.DefaultSlack}.Allowance()

// AfterSendMax bounds a page request's time after it left its crawler
// (the rest of the crawler's send path after its last look at the clock,
// the kernel, the site's runtime) that Check excuses: a pair of page
// requests closer than Interval passes only when the first left its
// crawler at least Interval before the second arrived and spent at most
// this long on its way. The pair is then at most AfterSendMax closer than
// asked. Twice serve's default slack: a Scrapy request that left its
// middleware 10 ms after its slot spent 94 ms more before it reached the
// site on the shared 2-core test machine (load average 16).
const AfterSendMax = 2 * pace.DefaultSlack

// Figures are what Check measured of a crawl.
type Figures struct {
	Pages, Robots, Private int // requests for pages, for /robots.txt, for /private/ URLs
	// Gap is the shortest time between two page requests' arrivals; Late
	// the most a page request arrived after the latest its slot can have
	// been (the crawler's delay between its slot and the site); SlotGap
	// the most two consecutive slots can have been apart, at the least.
	Gap, Late, SlotGap time.Duration
	// SendLate is the most a request left its crawler after its slot (as
	// the crawler held it), AfterSend the most a page request arrived
	// after it left its crawler; Stale counts the slots granted that no
	// request left on (given up as stale, and acquired again).
	SendLate, AfterSend time.Duration
	Stale               int
	// Excused counts the pairs of page requests that arrived closer than
	// Interval although the first left its crawler Interval before the
	// second arrived: the shortfall is the first's time on its way after
	// it left (at most AfterSendMax).
	Excused int
	// Acquires, Disallowed and Reports count the pacer's calls: slots
	// granted, URLs refused, answers reported; Busy the acquires serve
	// answered "429: later"; Sends the requests that left on a slot.
	Acquires, Disallowed, Reports, Busy, Sends int
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
	return fmt.Sprintf("%d page requests (%d robots.txt, %d private); closest two %v apart (Crawl-delay %v; %d closer, by the first's time on its way after it left on time); "+
		"each left its crawler at most %v after its slot and arrived at most %v after it left, at most %v after its slot; %d stale slots given up; closest two slots %v apart; "+
		"%d slots, %d disallowed, %d busy, %d reports (tickets: %d answers, %d reports); "+
		"the 429 reported %v after the site sent it, pause %d ms; slots asked for after it: %s, the earliest %v after the pause ended; "+
		"%d page requests arrived during the pause (slots granted before the report)",
		f.Pages, f.Robots, f.Private, f.Gap.Round(time.Millisecond), Interval, f.Excused,
		f.SendLate.Round(time.Millisecond), f.AfterSend.Round(100*time.Microsecond), f.Late.Round(time.Millisecond), f.Stale, f.SlotGap.Round(time.Millisecond),
		f.Acquires, f.Disallowed, f.Busy, f.Reports, f.Tickets, f.TicketReports,
		f.ReportDelay.Round(100*time.Microsecond), f.PauseMS, strings.Join(after, ", "), f.Margin.Round(time.Millisecond), f.InPause)
}

// Check measures a crawl of site by the crawlers whos, whose pacer calls
// and sends are in log, and fails t where it broke a promise: a /private/
// URL requested, two slots closer than Interval, a request that left its
// crawler more than Allowance after its slot, two page requests closer
// than Interval (unless the first left at least Interval before the
// second arrived and took at most AfterSendMax on its way: logged and
// counted in Figures.Excused), fewer than pages page requests, a response
// not reported, a report refused, the 429 reported later than
// ReportWithin, a crawler not asking for a slot after the report, or a
// slot asked for after the report granted before its pause ended.
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
	f.checkArrivals(t, site, events, pagesAt)
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

// checkArrivals fails t when a page request arrived before its slot or
// without one, left its crawler more than Allowance after its slot (as
// the crawler held it), or came closer than Interval after the one before
// it by more than the first's time on its way after it left.
func (f *Figures) checkArrivals(t testing.TB, site *Site, events []Event, pagesAt []Arrival) {
	sends := map[string]Event{} // a page request's send
	for _, a := range pagesAt {
		switch who, lo, hi, ok := lateness(site, events, a); {
		case !ok:
			t.Errorf("%s was requested without a slot", a.Path)
		case hi < -time.Millisecond: // wait_ms is rounded up
			t.Errorf("%s arrived %v before the earliest its slot can have been (%s's)", a.Path, -hi, who)
		default:
			f.Late = max(f.Late, lo)
		}
		s, ok := sent(site, events, a)
		if !ok {
			t.Errorf("%s arrived without a send recorded (the crawler's test records each request as it leaves)", a.Path)
			continue
		}
		sends[arrivalKey(a)] = s
		f.SendLate, f.AfterSend = max(f.SendLate, s.Sent.Sub(s.Held)), max(f.AfterSend, a.At.Sub(s.Sent))
		if late := s.Sent.Sub(s.Held); late > Allowance {
			t.Errorf("%s left %s %v after its slot, later than the allowance of %v: it went on a stale slot", a.Path, s.Who, late, Allowance)
		}
	}
	f.Gap = time.Hour
	for i := 1; i < len(pagesAt); i++ {
		a, b := pagesAt[i-1], pagesAt[i]
		f.Gap = min(f.Gap, b.At.Sub(a.At))
		if b.At.Sub(a.At) >= Interval {
			continue
		}
		msg := fmt.Sprintf("page requests %d (%s, %s) and %d (%s, %s) arrived %v apart; the site asks for %v",
			i-1, a.Path, late(site, events, a), i, b.Path, late(site, events, b), b.At.Sub(a.At), Interval)
		s, ok := sends[arrivalKey(a)]
		if way := a.At.Sub(s.Sent); ok && b.At.Sub(s.Sent) >= Interval && way <= AfterSendMax {
			f.Excused++
			t.Logf("%s: the first left %s %v before the second arrived and took %v on its way after it (at most %v is excused)",
				msg, s.Who, b.At.Sub(s.Sent).Round(time.Millisecond), way.Round(time.Millisecond), AfterSendMax)
			continue
		}
		t.Errorf("%s", msg)
	}
}

// sent returns the send of the page request a: the last one for its URL
// before it arrived.
func sent(site *Site, events []Event, a Arrival) (Event, bool) {
	var s Event
	ok := false
	for _, e := range events {
		if e.Kind == "send" && e.URL == site.URL+a.Path && !e.Sent.After(a.At) {
			s, ok = e, true
		}
	}
	return s, ok
}

// arrivalKey names an arrival (a URL may arrive twice: a 429 and its
// retry).
func arrivalKey(a Arrival) string { return a.Path + " " + a.At.String() }

// count counts the pacer's calls, fails t on an answer that is not one,
// and returns the first report of a 429.
func (f *Figures) count(t testing.TB, events []Event) *Event {
	var report *Event
	for i, e := range events {
		switch {
		case e.Kind == "send":
			f.Sends++
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
	f.Stale = f.Acquires - f.Sends
	// A stale slot is given up unreported: every report sends its slot's
	// ticket when serve hands them out, none when it does not.
	if f.Tickets != 0 && (f.Tickets != f.Acquires || f.TicketReports != f.Reports) || f.Tickets == 0 && f.TicketReports != 0 {
		t.Errorf("%d of %d slots granted with a ticket, %d of %d reports sent one; want a ticket in every report when every slot has one, none when none has",
			f.Tickets, f.Acquires, f.TicketReports, f.Reports)
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
