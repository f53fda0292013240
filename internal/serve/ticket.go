package serve

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// A ticket is what POST /v1/acquire gives with a slot and POST /v1/report
// asks back: proof that the report is about a slot the fleet handed out,
// so that no stranger pauses a site (or ends its backoff) without having
// been given a slot there. It is the slot's start (Unix milliseconds on
// the clock of the serve that gave it) and an HMAC-SHA256 over it and the
// queue (the site and the crawler), keyed by the fleet's secret, in
// base64url:
//
//	version (1 byte) | slot start (8 bytes, big-endian) | HMAC-SHA256[:16]
//
// Any serve process of the fleet verifies it (the secret is a file given
// to every process, --pace-secret-file, or one the fleet shares through
// Redis, redispace.Pacer.SharedSecret; without either, a random secret of
// this process), and a report is taken from ticketEarly before the slot's
// start until ticketLife after it: a crawler reports after fetching in
// its slot.
const (
	ticketVersion = 1
	ticketMAC     = 16
	ticketLen     = 1 + 8 + ticketMAC
	// ticketEarly is how long before its slot's start a ticket is taken:
	// the clocks of two serve processes, a crawler that wakes early.
	ticketEarly = 2 * time.Second
	// ticketLife is how long after its slot's start a ticket is taken: a
	// fetch's time, a crawler's queue of reports.
	ticketLife = 10 * time.Minute
	// secretCheck is how often the fleet's shared secret is read again
	// (it changes only when Redis lost it), and secretRetry how soon after
	// a ticket no secret verifies.
	secretCheck = time.Minute
	secretRetry = time.Second
	// maxSecrets bounds the secrets a process verifies with: the fleet's
	// current one, the ones it replaced, the process's own.
	maxSecrets = 3
)

// tickets signs and verifies the tickets of one serve process.
type tickets struct {
	now func() time.Time
	// shared reads the fleet's secret (Redis); nil when the secret is
	// fixed (a file) or the process's own.
	shared func(context.Context) ([]byte, error)

	// ask is held while shared is asked, so that no ticket is signed with
	// this process's own secret while the fleet's is on its way.
	ask   sync.Mutex
	mu    sync.Mutex
	keys  [][]byte // keys[0] signs; every one verifies
	asked time.Time
}

// newTickets returns the tickets of a process: signed with secret when it
// is set, else with the secret shared reads (while it cannot, with one of
// this process), else with one of this process.
func newTickets(secret []byte, shared func(context.Context) ([]byte, error)) *tickets {
	t := &tickets{now: time.Now}
	if len(secret) > 0 {
		t.keys = [][]byte{secret}
		return t
	}
	own := make([]byte, 32)
	rand.Read(own)
	t.keys, t.shared = [][]byte{own}, shared
	return t
}

// refresh reads the fleet's secret when it is due (every secretCheck, or
// after secretRetry when force), and signs with it from then on.
func (t *tickets) refresh(ctx context.Context, force bool) {
	if t.shared == nil {
		return
	}
	t.ask.Lock()
	defer t.ask.Unlock()
	t.mu.Lock()
	since := t.now().Sub(t.asked)
	if !t.asked.IsZero() && (since < secretRetry || !force && since < secretCheck) {
		t.mu.Unlock()
		return
	}
	t.asked = t.now()
	t.mu.Unlock()
	key, err := t.shared(ctx)
	if err != nil {
		return // Redis is down: sign with what there is, ask again later
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	keys := [][]byte{key} // a new slice: check reads the old one unlocked
	for _, k := range t.keys {
		if len(keys) < maxSecrets && !hmac.Equal(k, key) {
			keys = append(keys, k)
		}
	}
	t.keys = keys
}

func mac(key []byte, head []byte, queue string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write(head)
	h.Write([]byte(queue))
	return h.Sum(nil)[:ticketMAC]
}

// sign returns the ticket of queue's slot that starts at slot.
func (t *tickets) sign(ctx context.Context, queue string, slot time.Time) string {
	t.refresh(ctx, false)
	b := make([]byte, 9, ticketLen)
	b[0] = ticketVersion
	binary.BigEndian.PutUint64(b[1:], uint64(slot.UnixMilli()))
	t.mu.Lock()
	key := t.keys[0]
	t.mu.Unlock()
	return base64.RawURLEncoding.EncodeToString(append(b, mac(key, b, queue)...))
}

// verify checks that ticket is one the fleet gave for a slot of queue
// that a report may be about now: a 400 when there is none, a 403 when it
// is not the fleet's for this queue or not for now.
func (t *tickets) verify(ctx context.Context, ticket, queue string) *apiError {
	if ticket == "" {
		return badRequest(`no "ticket": a report needs the ticket POST /v1/acquire gave with the slot the fetch was sent in`)
	}
	b, err := base64.RawURLEncoding.DecodeString(ticket)
	if err != nil || len(b) != ticketLen || b[0] != ticketVersion {
		return forbidden(`"ticket" is not one POST /v1/acquire gives`)
	}
	head, sum := b[:9], b[9:]
	ok := t.check(head, sum, queue)
	if !ok && t.shared != nil {
		t.refresh(ctx, true) // the fleet's secret may have changed
		ok = t.check(head, sum, queue)
	}
	if !ok {
		return forbidden(`"ticket" is not one this fleet gave for a slot of this site and agent`)
	}
	slot := time.UnixMilli(int64(binary.BigEndian.Uint64(b[1:9])))
	switch since := t.now().Sub(slot); {
	case since < -ticketEarly:
		return forbidden(`"ticket" is for a slot that starts in %s: report what the site answered after fetching in the slot`, (-since).Round(time.Second))
	case since > ticketLife:
		return forbidden(`"ticket" has expired: its slot started %s ago, and a report is taken for %s after its slot`, since.Round(time.Second), ticketLife)
	}
	return nil
}

func (t *tickets) check(head, sum []byte, queue string) bool {
	t.mu.Lock()
	keys := t.keys
	t.mu.Unlock()
	for _, k := range keys {
		if hmac.Equal(mac(k, head, queue), sum) {
			return true
		}
	}
	return false
}

func forbidden(format string, args ...any) *apiError {
	return &apiError{code: http.StatusForbidden, msg: fmt.Sprintf(format, args...)}
}
