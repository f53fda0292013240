package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// A NetError is a fetch that got no usable HTTP response. Its message
// starts with its kind where the underlying error does not already say it
// ("tls: ...", "timeout: no answer within 30s", "dns: lookup ...", "dial
// tcp ...: connection refused"), and that message is the cause a Result's
// Reason gives in parentheses: "unreachable (tls: failed to verify
// certificate: ...): everything is disallowed (RFC 9309 2.3.1.4)".
type NetError struct {
	// Kind is "tls", "timeout", "dns", "refused", "reset" or "network".
	Kind string
	Err  error
}

func (e *NetError) Error() string {
	msg := e.Err.Error()
	switch e.Kind {
	case "tls", "timeout", "dns":
		if !strings.HasPrefix(msg, e.Kind+":") {
			return e.Kind + ": " + msg
		}
	}
	return msg
}

func (e *NetError) Unwrap() error { return e.Err }

// netError classifies err, the failure of a request made under ctx with
// the given timeout.
func netError(ctx context.Context, err error, timeout time.Duration) *NetError {
	if ue, ok := err.(*url.Error); ok {
		err = ue.Err // the URL is in the Result already
	}
	var (
		dnsErr  *net.DNSError
		netErr  net.Error
		recErr  tls.RecordHeaderError
		alert   tls.AlertError
		verify  *tls.CertificateVerificationError
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		invalid x509.CertificateInvalidError
	)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		return &NetError{Kind: "timeout", Err: fmt.Errorf("no answer within %v", timeout)}
	case errors.As(err, &dnsErr):
		return &NetError{Kind: "dns", Err: dnsErr}
	case errors.As(err, &verify), errors.As(err, &unknown), errors.As(err, &host), errors.As(err, &invalid),
		errors.As(err, &recErr), errors.As(err, &alert), strings.HasPrefix(err.Error(), "tls:"), strings.Contains(err.Error(), " tls: "):
		return &NetError{Kind: "tls", Err: err}
	case errors.Is(err, syscall.ECONNREFUSED):
		return &NetError{Kind: "refused", Err: err}
	case errors.Is(err, syscall.ECONNRESET):
		return &NetError{Kind: "reset", Err: err}
	case errors.As(err, &netErr) && netErr.Timeout():
		return &NetError{Kind: "timeout", Err: fmt.Errorf("no answer within %v", timeout)}
	}
	return &NetError{Kind: "network", Err: err}
}

// doError is the error of an HTTP client's Do that returned no response
// to read: the *RefusedError of a request its Gate refused, the
// *RedirectError of a redirect that is not followed, else the request's
// *NetError.
func doError(ctx context.Context, err error, timeout time.Duration) error {
	var refused *RefusedError
	if errors.As(err, &refused) {
		return refused
	}
	var re *RedirectError
	if errors.As(err, &re) {
		return re
	}
	return netError(ctx, err, timeout)
}
