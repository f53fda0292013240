package sitemap

import (
	"strings"
	"time"
)

// Precision says how much of a date a lastmod value gave: W3C Datetime
// (the profile of ISO 8601 the protocol names) lets a site stop after the
// year, the month, the day, the minute or the second.
type Precision uint8

// The precisions of a W3C datetime, from the coarsest.
const (
	NoDate Precision = iota // no date was given, or it was not a date
	Year                    // YYYY
	Month                   // YYYY-MM
	Day                     // YYYY-MM-DD
	Minute                  // YYYY-MM-DDThh:mmTZD
	Second                  // YYYY-MM-DDThh:mm:ssTZD, with or without a fraction
)

// Date is a lastmod (or an RSS pubDate, an Atom updated) read as a point
// in time with the precision it was written with. The zero Date means no
// date.
type Date struct {
	// Time is the instant in UTC; a date without a time of day is its
	// first instant in UTC, as crawler-commons reads it.
	Time time.Time
	// Precision is how much of the date was written.
	Precision Precision
}

// IsZero reports whether d holds no date.
func (d Date) IsZero() bool { return d.Precision == NoDate }

// String returns the date normalised: "2005", "2005-01", "2005-01-01" for
// the dates without a time of day, and RFC 3339 in UTC with seconds for
// the others ("2005-01-01T12:00:00Z", "2005-01-01T12:00:00.5Z"), whatever
// zone and precision the site wrote; "" for the zero Date.
func (d Date) String() string {
	switch d.Precision {
	case Year:
		return d.Time.Format("2006")
	case Month:
		return d.Time.Format("2006-01")
	case Day:
		return d.Time.Format("2006-01-02")
	case Minute, Second:
		return d.Time.UTC().Format(time.RFC3339Nano)
	}
	return ""
}

// ParseDate reads a W3C datetime in any of its six precisions. Besides the
// note's forms it accepts three deviations that real sitemaps write and
// whose meaning is plain, saying which in note: a time of day without a
// zone (read as UTC), a space instead of "T", and a zone without its colon
// ("+0100"). ok is false for anything else, and for dates that do not
// exist (2005-02-30, 24:00).
func ParseDate(s string) (d Date, note string, ok bool) {
	return parseW3C(strings.TrimSpace(s))
}

// parseW3C reads a W3C datetime from a string or from bytes (a value the
// reader has not copied): the same answers either way, with nothing
// allocated. The instant is computed from the fields (civil), without
// time.Date or a time.Location for the zone.
func parseW3C[S ~string | ~[]byte](s S) (Date, string, bool) {
	if len(s) < 4 {
		return Date{}, "", false
	}
	year, ok := num(s[:4])
	if !ok || year == 0 {
		return Date{}, "", false
	}
	if len(s) == 4 {
		return dateAt(unixDay(year, 1, 1), 0, Year), "", true
	}
	if len(s) < 7 || s[4] != '-' {
		return Date{}, "", false
	}
	month, ok := num(s[5:7])
	if !ok || month < 1 || month > 12 {
		return Date{}, "", false
	}
	if len(s) == 7 {
		return dateAt(unixDay(year, month, 1), 0, Month), "", true
	}
	if len(s) < 10 || s[7] != '-' {
		return Date{}, "", false
	}
	day, ok := num(s[8:10])
	if !ok || day < 1 || day > daysIn(year, month) {
		return Date{}, "", false
	}
	if len(s) == 10 {
		return dateAt(unixDay(year, month, day), 0, Day), "", true
	}
	var note string
	if s[10] == ' ' {
		note = `a space instead of "T" between the date and the time`
	} else if s[10] != 'T' && s[10] != 't' {
		return Date{}, "", false
	}
	return parseTime(year, month, day, s[11:], note)
}

// parseTime reads the time of day and zone of a W3C datetime after its
// "T": "hh:mm", with ":ss" and ".s" optional, then a zone.
func parseTime[S ~string | ~[]byte](year, month, day int, rest S, note string) (Date, string, bool) {
	if len(rest) < 5 || rest[2] != ':' {
		return Date{}, "", false
	}
	hour, ok1 := num(rest[:2])
	min, ok2 := num(rest[3:5])
	if !ok1 || !ok2 || hour > 23 || min > 59 {
		return Date{}, "", false
	}
	rest = rest[5:]
	prec, sec, nsec := Minute, 0, 0
	if len(rest) >= 3 && rest[0] == ':' {
		s, ok := num(rest[1:3])
		if !ok || s > 59 {
			return Date{}, "", false
		}
		prec, sec, rest = Second, s, rest[3:]
		if len(rest) > 1 && rest[0] == '.' {
			i := 1
			for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
				i++
			}
			if i == 1 {
				return Date{}, "", false
			}
			frac := rest[1:i]
			for j := 0; j < 9; j++ {
				nsec *= 10
				if j < len(frac) {
					nsec += int(frac[j] - '0')
				}
			}
			rest = rest[i:]
		}
	}
	off, znote, ok := parseZone(rest)
	if !ok {
		return Date{}, "", false
	}
	if note == "" {
		note = znote
	}
	u := unixDay(year, month, day) + int64(hour*3600+min*60+sec-off)
	if u < minUnix || u >= maxUnix {
		return Date{}, "", false // the zone moves it out of four-digit years
	}
	return dateAt(u, nsec, prec), note, true
}

// minUnix and maxUnix are the first instants of the years 1 and 10000,
// in seconds since 1970.
const (
	minUnix = -62135596800
	maxUnix = 253402300800
)

// dateAt returns the Date of the instant u seconds and nsec nanoseconds
// after 1970 (UTC), written with precision prec.
func dateAt(u int64, nsec int, prec Precision) Date {
	return Date{Time: time.Unix(u, int64(nsec)).UTC(), Precision: prec}
}

// parseZone reads a W3C datetime's zone, as its offset east of UTC in
// seconds: "Z", "+hh:mm" or "-hh:mm"; and, with a note, none (UTC) or
// "+hhmm".
func parseZone[S ~string | ~[]byte](z S) (int, string, bool) {
	switch {
	case len(z) == 0:
		return 0, "a time of day without a zone (read as UTC)", true
	case len(z) == 1 && (z[0] == 'Z' || z[0] == 'z'):
		return 0, "", true
	case z[0] != '+' && z[0] != '-':
		return 0, "", false
	}
	var zh, zm int
	var ok1, ok2 bool
	note := ""
	switch {
	case len(z) == 6 && z[3] == ':':
		zh, ok1 = num(z[1:3])
		zm, ok2 = num(z[4:6])
	case len(z) == 5:
		zh, ok1 = num(z[1:3])
		zm, ok2 = num(z[3:5])
		note = `a zone without ":" ("+hhmm")`
	}
	if !ok1 || !ok2 || zh > 23 || zm > 59 {
		return 0, "", false
	}
	off := zh*3600 + zm*60
	if z[0] == '-' {
		off = -off
	}
	return off, note, true
}

// unixDay returns the first instant of a day of the years 1 to 9999, in
// seconds since 1970 (UTC): the days before it are counted as in Howard
// Hinnant's days_from_civil (the proleptic Gregorian calendar time.Date
// uses), with March as the first month so that a leap day ends the year.
func unixDay(year, month, day int) int64 {
	y := year
	if month <= 2 {
		y--
	}
	era := y / 400 // y >= 0
	yoe := y - era*400
	doy := (153*((month+9)%12)+2)/5 + day - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era*146097+doe-719468) * 86400
}

// num reads a non-empty run of decimal digits.
func num[S ~string | ~[]byte](s S) (int, bool) {
	n := 0
	if len(s) == 0 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// daysIn returns the number of days in month of year.
func daysIn(year, month int) int {
	if month == 2 && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		return 29
	}
	return int(monthDays[month])
}

var monthDays = [13]uint8{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// rfc822Layouts are the forms of an RSS pubDate without its zone (RFC 822
// as RSS 2.0 cites it, with four-digit years as RFC 1123 asks, and the
// common variants: no weekday, a one-digit day, no seconds, two-digit
// years).
var rfc822Layouts = []string{
	"Mon, 2 Jan 2006 15:04:05",
	"Mon, 2 Jan 2006 15:04",
	"2 Jan 2006 15:04:05",
	"2 Jan 2006 15:04",
	"Mon, 2 Jan 06 15:04:05",
	"2 Jan 06 15:04:05",
}

// parseRFC822 reads an RSS pubDate. Its zone is numeric ("+0100") or one
// of RFC 822's names (UT, GMT, Z, the US zones); another name is read as
// UTC, with ok still true.
func parseRFC822(s string) (Date, bool) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return Date{}, false
	}
	zone, off := f[len(f)-1], 0
	switch {
	case len(zone) == 5 && (zone[0] == '+' || zone[0] == '-'):
		h, m := zone[1:3], zone[3:5]
		for _, c := range h + m {
			if c < '0' || c > '9' {
				return Date{}, false
			}
		}
		off = (int(h[0]-'0')*10+int(h[1]-'0'))*3600 + (int(m[0]-'0')*10+int(m[1]-'0'))*60
		if zone[0] == '-' {
			off = -off
		}
	case isLetters(zone):
		off = rfc822Zones[strings.ToUpper(zone)]
	default:
		return Date{}, false
	}
	rest := strings.Join(f[:len(f)-1], " ")
	for _, l := range rfc822Layouts {
		t, err := time.ParseInLocation(l, rest, time.UTC)
		if err != nil {
			continue
		}
		return Date{Time: t.Add(-time.Duration(off) * time.Second), Precision: Second}, true
	}
	return Date{}, false
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

// rfc822Zones are RFC 822's zone names with their offsets in seconds.
var rfc822Zones = map[string]int{
	"UT": 0, "GMT": 0, "Z": 0,
	"EST": -5 * 3600, "EDT": -4 * 3600, "CST": -6 * 3600, "CDT": -5 * 3600,
	"MST": -7 * 3600, "MDT": -6 * 3600, "PST": -8 * 3600, "PDT": -7 * 3600,
}
