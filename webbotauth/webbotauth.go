// Package webbotauth reads Web Bot Auth key directories: the keys a bot
// operator publishes so that sites can verify its signed requests.
//
// Web Bot Auth (draft-ietf-webbotauth-httpsig-protocol-01, a Standards
// Track draft of the IETF webbotauth working group, October 2026) has a
// crawler sign each request with RFC 9421 HTTP Message Signatures and name
// where its keys are in a Signature-Agent header. For the default
// "directory" type the keys are at the operator's origin, at the
// well-known path /.well-known/http-message-signatures-directory, served
// as application/http-message-signatures-directory+json: a JSON Web Key
// Set (RFC 7517 section 5). Cloudflare and AWS verify such signatures.
//
// Parse reads a directory as the draft describes it and reports every
// problem at its line and column, as the rest of sitetxt does: a key set
// that is not an object with a "keys" array, an Ed25519 key (RFC 8037:
// kty "OKP", crv "Ed25519") whose "x" is not 32 bytes of unpadded
// base64url, a "kid" that is not the key's RFC 7638 thumbprint (RFC 8037
// appendix A.3: the draft makes it the keyid signatures name), a private
// or symmetric key published ("d", kty "oct"), "use" other than "sig",
// an "alg" outside the HTTP Signature Algorithms registry, and validity
// ("nbf", "exp": NumericDate seconds) that is reversed, over or not yet
// begun. RSA and EC keys, which later revisions also name, are listed but
// not checked beyond their kty.
package webbotauth

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/jsonpos"
)

// WellKnownPath is where an origin serves its key directory (the draft's
// well-known URI registration).
const WellKnownPath = "/.well-known/http-message-signatures-directory"

// MediaType is the media type a directory at WellKnownPath is served with.
const MediaType = "application/http-message-signatures-directory+json"

// algorithms are the names of the HTTP Signature Algorithms registry
// (RFC 9421 section 6.2.2), the only values the draft allows for "alg".
var algorithms = map[string]bool{
	"rsa-pss-sha512": true, "rsa-v1_5-sha256": true, "hmac-sha256": true,
	"ecdsa-p256-sha256": true, "ecdsa-p384-sha384": true, "ed25519": true,
}

// Key is one key of a directory.
type Key struct {
	// Kty, Crv, Kid, Alg and Use are the JWK members as written ("" when
	// absent).
	Kty, Crv, Kid, Alg, Use string
	// X is the Ed25519 public key (32 bytes) of an OKP key, nil when it
	// does not read.
	X []byte
	// Thumbprint is the key's RFC 7638 SHA-256 thumbprint in base64url,
	// the keyid a signature made with it names; "" when X does not read.
	Thumbprint string
	// NotBefore and Expires are "nbf" and "exp", nil when absent.
	NotBefore, Expires *time.Time
	// Pos is where the key's object starts.
	Pos grammar.Pos
}

// Directory is a parsed key directory.
type Directory struct {
	Keys []*Key
	// Diagnostics is every problem found, sorted.
	Diagnostics grammar.Diagnostics
}

// Key returns the key whose thumbprint is keyid (a signature's keyid
// parameter), or nil.
func (d *Directory) Key(keyid string) *Key {
	for _, k := range d.Keys {
		if k.Thumbprint != "" && k.Thumbprint == keyid {
			return k
		}
	}
	return nil
}

// Options set how Parse judges validity.
type Options struct {
	// Now is the time "nbf" and "exp" are held to; zero means time.Now.
	Now time.Time
}

// Thumbprint returns the RFC 7638 thumbprint of an Ed25519 public key x:
// the base64url SHA-256 of {"crv":"Ed25519","kty":"OKP","x":"..."}, the
// members in that order without white space (RFC 8037 appendix A.3).
func Thumbprint(x []byte) string {
	sum := sha256.Sum256([]byte(`{"crv":"Ed25519","kty":"OKP","x":"` + base64.RawURLEncoding.EncodeToString(x) + `"}`))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// Parse reads a key directory. It never fails: what is wrong is in
// Directory.Diagnostics, each at its line and column in data, and the
// keys that read are in Keys.
func Parse(name string, data []byte, opts Options) *Directory {
	p := &parser{name: name, data: data, now: opts.Now}
	if p.now.IsZero() {
		p.now = time.Now()
	}
	d := &Directory{}
	root, err := jsonpos.Parse(data, jsonpos.Options{MaxDepth: maxDepth, Repeated: func(m *jsonpos.Value) {
		p.warnAt(m.NameOffset, "json", "member %q again: readers differ on which one counts (sitetxt reads the first)", m.Name)
	}})
	if errors.Is(err, jsonpos.ErrMore) {
		p.errorAt(err.Offset, "json", "more after the key set: a directory is one JSON object")
		err = nil
	}
	switch {
	case err != nil:
		p.syntax(err)
	case root.Kind != jsonpos.Object:
		p.errorAt(root.Offset, "directory", "a key directory is a JSON object with a \"keys\" array (RFC 7517 section 5), not %s", root.Kind)
	default:
		d.Keys = p.keySet(root)
	}
	p.ds.Sort()
	d.Diagnostics = p.ds
	return d
}

// Lint returns the problems of a key directory parsed by the grammar
// (package manifest's check for the kind): Parse of its text.
func Lint(f *grammar.File) grammar.Diagnostics {
	return Parse(f.Name, []byte(f.Text()), Options{}).Diagnostics
}

// maxDepth bounds how deep values nest: a key set needs three levels.
const maxDepth = 32

type parser struct {
	name  string
	data  []byte
	now   time.Time
	ds    grammar.Diagnostics
	lines *grammar.LineIndex // built at the first diagnostic
}

// keySet reads the directory object's "keys".
func (p *parser) keySet(root *jsonpos.Value) []*Key {
	keys := root.First("keys")
	if keys == nil {
		p.errorAt(root.Offset, "directory", "no \"keys\" member: a key directory is a JWK Set (RFC 7517 section 5)")
		return nil
	}
	if keys.Kind != jsonpos.Array {
		p.errorAt(keys.Offset, "directory", "\"keys\" is %s, want an array of keys", keys.Kind)
		return nil
	}
	if len(keys.Items) == 0 {
		p.warnAt(keys.Offset, "directory", "\"keys\" is empty: no signature can be verified with this directory")
	}
	var out []*Key
	seen := map[string]*Key{}
	for _, e := range keys.Items {
		k := p.key(e)
		if k == nil {
			continue
		}
		if k.Thumbprint != "" {
			if prev := seen[k.Thumbprint]; prev != nil {
				p.warnAt(e.Offset, "key-repeated", "the key of line %d again", prev.Pos.Line)
			}
			seen[k.Thumbprint] = k
		}
		out = append(out, k)
	}
	return out
}

// key reads one JWK.
func (p *parser) key(n *jsonpos.Value) *Key {
	if n.Kind != jsonpos.Object {
		p.errorAt(n.Offset, "key", "a key is a JSON object (a JWK, RFC 7517), not %s", n.Kind)
		return nil
	}
	k := &Key{Pos: p.pos(n.Offset)}
	k.Kty, k.Crv, k.Kid, k.Alg, k.Use = p.str(n, "kty"), p.str(n, "crv"), p.str(n, "kid"), p.str(n, "alg"), p.str(n, "use")
	switch k.Kty {
	case "OKP":
		p.okp(n, k)
	case "RSA", "EC":
		p.warnAt(n.Offset, "key-type", "kty %q: sitetxt checks Ed25519 keys (kty \"OKP\") only, which draft-ietf-webbotauth-httpsig-protocol-01 signs with", k.Kty)
	case "oct":
		p.errorAt(n.First("kty").Offset, "key-private", "kty \"oct\" is a symmetric key: publishing it gives anyone the secret that signs")
	case "":
		if n.First("kty") == nil {
			p.errorAt(n.Offset, "key", "no \"kty\": every JWK names its key type (RFC 7517 section 4.1)")
		}
	default:
		p.errorAt(n.First("kty").Offset, "key-type", "unknown kty %q (RFC 7518 section 6.1, RFC 8037: OKP, RSA, EC)", k.Kty)
	}
	if m := n.First("d"); m != nil {
		p.errorAt(m.NameOffset, "key-private", "a private key (\"d\") in a public directory: anyone can sign as this bot; remove it and replace the key")
	}
	if m := n.First("use"); m != nil && k.Use != "sig" {
		p.errorAt(m.Offset, "key-use", "use %q: a signing key is \"sig\" (RFC 7517 section 4.2)", k.Use)
	}
	if m := n.First("alg"); m != nil && !algorithms[k.Alg] {
		hint := ""
		if k.Alg == "EdDSA" || k.Alg == "Ed25519" {
			hint = " (for an Ed25519 key, \"ed25519\"; \"EdDSA\" is JOSE's name)"
		}
		p.warnAt(m.Offset, "key-alg", "alg %q is not in the HTTP Signature Algorithms registry (RFC 9421 section 6.2.2), as the draft requires%s", k.Alg, hint)
	}
	k.NotBefore, k.Expires = p.date(n, "nbf"), p.date(n, "exp")
	p.validity(n, k)
	return k
}

// okp reads an OKP key's curve, x and kid.
func (p *parser) okp(n *jsonpos.Value, k *Key) {
	switch crv := n.First("crv"); {
	case crv == nil:
		p.errorAt(n.Offset, "key", "an OKP key without \"crv\" (RFC 8037 section 2)")
		return
	case k.Crv != "Ed25519":
		p.errorAt(crv.Offset, "key-curve", "crv %q: Web Bot Auth signs with Ed25519 (RFC 8037), not %s", k.Crv, k.Crv)
		return
	}
	xm := n.First("x")
	if xm == nil {
		p.errorAt(n.Offset, "key", "an Ed25519 key without \"x\", the public key (RFC 8037 section 2)")
		return
	}
	if xm.Kind != jsonpos.String {
		p.errorAt(xm.Offset, "key", "\"x\" is %s, want a string", xm.Kind)
		return
	}
	x, err := base64.RawURLEncoding.Strict().DecodeString(xm.Text)
	switch {
	case err != nil:
		p.errorAt(xm.Offset, "key-x", "x is not unpadded base64url (RFC 7515 section 2): %v", err)
		return
	case len(x) != 32:
		p.errorAt(xm.Offset, "key-x", "x is %d bytes, an Ed25519 public key is 32 (RFC 8032 section 5.1.5)", len(x))
		return
	}
	k.X, k.Thumbprint = x, Thumbprint(x)
	if m := n.First("kid"); m != nil && m.Kind == jsonpos.String && k.Kid != k.Thumbprint {
		p.errorAt(m.Offset, "key-kid", "kid %q is not the key's thumbprint %q (RFC 7638, RFC 8037 appendix A.3): a signature's keyid names the thumbprint, so this label selects no key", k.Kid, k.Thumbprint)
	}
}

// validity checks nbf and exp against each other and against now.
func (p *parser) validity(n *jsonpos.Value, k *Key) {
	switch {
	case k.NotBefore != nil && k.Expires != nil && !k.Expires.After(*k.NotBefore):
		p.errorAt(n.First("exp").Offset, "key-validity", "exp %s is not after nbf %s: the key is never valid", k.Expires.Format(time.RFC3339), k.NotBefore.Format(time.RFC3339))
	case k.Expires != nil && !k.Expires.After(p.now):
		p.warnAt(n.First("exp").Offset, "key-expired", "the key expired at %s: remove it from the directory (the draft's key rotation, step 3)", k.Expires.Format(time.RFC3339))
	case k.NotBefore != nil && k.NotBefore.After(p.now):
		p.warnAt(n.First("nbf").Offset, "key-not-yet", "the key is not valid before %s", k.NotBefore.Format(time.RFC3339))
	}
}

// str returns the string member name of n, reporting one of another type.
func (p *parser) str(n *jsonpos.Value, name string) string {
	m := n.First(name)
	if m == nil {
		return ""
	}
	if m.Kind != jsonpos.String {
		p.errorAt(m.Offset, "key", "%q is %s, want a string", name, m.Kind)
		return ""
	}
	return m.Text
}

// date reads a NumericDate member (RFC 7519 section 2: seconds since the
// epoch), reporting one that is not.
func (p *parser) date(n *jsonpos.Value, name string) *time.Time {
	m := n.First(name)
	if m == nil {
		return nil
	}
	f, err := strconv.ParseFloat(m.Text, 64)
	if m.Kind != jsonpos.Number || err != nil || f < 0 || f > math.MaxInt32*1000 {
		p.errorAt(m.Offset, "key-validity", "%q is not a NumericDate (seconds since 1970, RFC 7519 section 2)", name)
		return nil
	}
	if f > 1e11 {
		p.warnAt(m.Offset, "key-validity", "%q is %s: seconds since 1970 this large are after the year 5000; milliseconds?", name, m.Text)
	}
	sec, frac := math.Modf(f)
	t := time.Unix(int64(sec), int64(frac*1e9)).UTC()
	return &t
}

// pos returns the position of byte off, as every manifest counts
// positions (grammar.LineIndex).
func (p *parser) pos(off int) grammar.Pos {
	if p.lines == nil {
		p.lines = grammar.NewLineIndex(string(p.data))
	}
	return p.lines.Pos(off)
}

func (p *parser) report(sev grammar.Severity, off int, code, format string, args ...any) {
	at := p.pos(off)
	p.ds = append(p.ds, &grammar.Diagnostic{Severity: sev, Code: code, Summary: fmt.Sprintf(format, args...),
		Filename: p.name, Range: grammar.Range{Start: at, End: at}})
}

func (p *parser) errorAt(off int, code, format string, args ...any) {
	p.report(grammar.Error, off, code, format, args...)
}

func (p *parser) warnAt(off int, code, format string, args ...any) {
	p.report(grammar.Warning, off, code, format, args...)
}

// syntax reports why a document is not JSON, at its byte.
func (p *parser) syntax(err *jsonpos.Error) {
	switch {
	case errors.Is(err, jsonpos.ErrEnd):
		p.errorAt(err.Offset, "json", "not JSON: the document ends early")
	case errors.Is(err, jsonpos.ErrDepth):
		p.errorAt(err.Offset, "json", "not JSON: values nested more than %d deep", maxDepth)
	default:
		p.errorAt(err.Offset, "json", "not JSON: %s", strings.TrimPrefix(err.Msg, "invalid character "))
	}
}
