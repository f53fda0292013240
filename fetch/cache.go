package fetch

import (
	"bytes"
	"encoding/json"
	"errors"
	"hash/crc32"
	"net/http"
	"time"

	"github.com/sitetxt/sitetxt/cache"
)

// entry is one cached HTTP response, independent of any access method: how it is
// interpreted, and for how long it is fresh, depends on the mode asked for.
type entry struct {
	URL        string      `json:"url"`       // the URL requested
	FinalURL   string      `json:"final_url"` // after redirects
	Redirects  int         `json:"redirects"`
	Chain      []string    `json:"chain,omitempty"` // the URLs redirected to, FinalURL last
	StatusCode int         `json:"status"`
	Header     http.Header `json:"header"`     // the headers in keptHeaders
	FetchedAt  time.Time   `json:"fetched_at"` // the local clock when the response arrived
	Truncated  bool        `json:"truncated"`  // the body was cut at the size limit
	BodyLen    int         `json:"body_len"`
	BodyCRC    uint32      `json:"body_crc32"`
	Body       []byte      `json:"-"`
}

// keptHeaders are the response headers an entry keeps.
// Link is kept for the Signposting links a page's response carries (RFC
// 8288, read by package discover).
var keptHeaders = []string{"Content-Type", "Cache-Control", "Pragma", "Expires", "Date", "Age", "ETag", "Last-Modified", "Link"}

// cacheMagic starts every encoded entry; the digit is the format version.
const cacheMagic = "sitetxt-fetch-cache 1\n"

var errCorrupt = errors.New("corrupt cache entry")

// encode returns e as cacheMagic, a JSON header line, and the body.
func (e *entry) encode() []byte {
	e.BodyLen = len(e.Body)
	e.BodyCRC = crc32.ChecksumIEEE(e.Body)
	hdr, err := json.Marshal(e)
	if err != nil {
		panic("fetch: cannot encode cache entry: " + err.Error())
	}
	var b bytes.Buffer
	b.Grow(len(cacheMagic) + len(hdr) + 1 + len(e.Body))
	b.WriteString(cacheMagic)
	b.Write(hdr)
	b.WriteByte('\n')
	b.Write(e.Body)
	return b.Bytes()
}

// decodeEntry is the inverse of encode; it fails on anything it did not
// write. The body aliases data.
func decodeEntry(data []byte) (*entry, error) {
	rest, ok := bytes.CutPrefix(data, []byte(cacheMagic))
	if !ok {
		return nil, errCorrupt
	}
	hdr, body, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok {
		return nil, errCorrupt
	}
	e := new(entry)
	if err := json.Unmarshal(hdr, e); err != nil {
		return nil, errCorrupt
	}
	if e.BodyLen != len(body) || e.BodyCRC != crc32.ChecksumIEEE(body) || e.URL == "" || e.FetchedAt.IsZero() {
		return nil, errCorrupt
	}
	e.Body = body
	return e, nil
}

// memoryCacheFor returns the cache.Memory an entry point creates for a
// Memo of maxBytes and maxEntries: large enough for the responses of every
// value the Memo keeps (their bodies and encoded headers), so that what the
// Memo keeps is never fetched again because the cache dropped it.
func memoryCacheFor(maxBytes, maxEntries int) *cache.Memory {
	return &cache.Memory{MaxEntries: maxEntries, MaxBytes: maxBytes + maxEntries*entryOverhead}
}

// entryOverhead is a generous bound on an encoded entry's bytes beyond its
// body (the magic line and the JSON header).
const entryOverhead = 2 << 10
