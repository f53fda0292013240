package webbotauth

import (
	"strings"
	"testing"
	"time"
)

// now is the time the tests judge validity at.
var now = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)

func TestThumbprint(t *testing.T) {
	tests := []struct{ x, want string }{
		// RFC 8037 appendix A.3.
		{"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"},
		// The key of the draft's directory example, whose keyid
		// Cloudflare's documentation gives.
		{"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs", "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U"},
	}
	for _, tt := range tests {
		d := Parse("d", []byte(`{"keys":[{"kty":"OKP","crv":"Ed25519","x":"`+tt.x+`"}]}`), Options{Now: now})
		if len(d.Keys) != 1 || d.Keys[0].Thumbprint != tt.want || d.Key(tt.want) == nil {
			t.Errorf("Parse(x %s): thumbprint %v, want %s", tt.x, d.Keys, tt.want)
		}
	}
}

const good = `{"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U",
  "x": "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs", "use": "sig", "alg": "ed25519", "nbf": 1712793600, "exp": 1915385600}]}`

func TestParse(t *testing.T) {
	key := func(members string) string {
		return "{\n  \"keys\": [\n    {" + members + "}\n  ]\n}\n"
	}
	const x = `"x": "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"`
	const ed = `"kty": "OKP", "crv": "Ed25519", `
	tests := []struct {
		name, in string
		want     string // "line:col severity code", joined by "; "
	}{
		{"good", good, ""},
		{"draft's example kid", key(ed + `"kid": "NFcWBst6DXG-N35nHdzMrioWntdzNZghQSkjHNMMSjw", ` + x), "3:45 error key-kid"},
		{"not JSON", "{\"keys\": [,]}", "1:11 error json"},
		{"cut short", "{\"keys\": [", "1:11 error json"},
		{"not an object", "[]", "1:1 error directory"},
		{"no keys", "{\"key\": []}", "1:1 error directory"},
		{"keys not an array", "{\"keys\": {}}", "1:10 error directory"},
		{"empty", "{\"keys\": []}", "1:10 warning directory"},
		{"key not an object", "{\"keys\": [1]}", "1:11 error key"},
		{"no kty", key(x), "3:5 error key"},
		{"unknown kty", key(`"kty": "DSA"`), "3:13 error key-type"},
		{"RSA not checked", key(`"kty": "RSA", "n": "x", "e": "AQAB"`), "3:5 warning key-type"},
		{"symmetric", key(`"kty": "oct", "k": "c2VjcmV0"`), "3:13 error key-private"},
		{"private", key(ed + x + `, "d": "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"`), "3:90 error key-private"},
		{"curve", key(`"kty": "OKP", "crv": "X25519", ` + x), "3:27 error key-curve"},
		{"no curve", key(`"kty": "OKP", ` + x), "3:5 error key"},
		{"no x", key(`"kty": "OKP", "crv": "Ed25519"`), "3:5 error key"},
		{"x padded", key(ed + `"x": "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs="`), "3:43 error key-x"},
		{"x short", key(ed + `"x": "AAAA"`), "3:43 error key-x"},
		{"x a number", key(ed + `"x": 5`), "3:43 error key"},
		{"use", key(ed + x + `, "use": "enc"`), "3:97 error key-use"},
		{"alg JOSE", key(ed + x + `, "alg": "EdDSA"`), "3:97 warning key-alg"},
		{"expired", key(ed + x + `, "exp": 1712793600`), "3:97 warning key-expired"},
		{"not yet", key(ed + x + `, "nbf": 1915385600`), "3:97 warning key-not-yet"},
		{"reversed", key(ed + x + `, "nbf": 1915385600, "exp": 1712793600`), "3:116 error key-validity"},
		{"nbf a string", key(ed + x + `, "nbf": "2026-01-01"`), "3:97 error key-validity"},
		{"milliseconds", key(ed + x + `, "exp": 1915385600000`), "3:97 warning key-validity"},
		{"member twice", key(ed + x + `, ` + x), "3:90 warning json"},
		{"key twice", "{\"keys\": [{" + ed + x + "},\n{" + ed + x + "}]}", "2:1 warning key-repeated"},
		{"more after", good + " {}", "2:127 error json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Parse("d.json", []byte(tt.in), Options{Now: now})
			var got []string
			for _, dg := range d.Diagnostics {
				got = append(got, dg.Range.Start.String()+" "+dg.Severity.String()+" "+dg.Code)
			}
			if g := strings.Join(got, "; "); g != tt.want {
				t.Errorf("Parse(%q) = %q, want %q", tt.in, g, tt.want)
				for _, dg := range d.Diagnostics {
					t.Log(dg.Error())
				}
			}
		})
	}
}

func TestParseGood(t *testing.T) {
	d := Parse("d", []byte(good), Options{Now: now})
	if len(d.Diagnostics) != 0 || len(d.Keys) != 1 {
		t.Fatalf("Parse(good) = %d keys, %v; want 1, none", len(d.Keys), d.Diagnostics)
	}
	k := d.Keys[0]
	if k.Kty != "OKP" || len(k.X) != 32 || k.NotBefore.Unix() != 1712793600 || k.Expires.Unix() != 1915385600 || k.Pos.Line != 1 || k.Pos.Column != 11 {
		t.Errorf("key = %+v", k)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(`{"keys":[{"kty":"OKP","crv":"Ed25519","x":"AAAA","nbf":1e300}]}`))
	f.Add([]byte("{\"keys\": [\n{\"kty\": \"oct\"}, 3, null]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := Parse("f", data, Options{Now: now})
		for i, dg := range d.Diagnostics {
			p := dg.Range.Start
			if p.Offset < 0 || p.Offset > len(data) || p.Line < 1 || p.Column < 1 {
				t.Fatalf("diagnostic %q at %+v, outside %d bytes", dg.Summary, p, len(data))
			}
			if i > 0 && d.Diagnostics.Less(i, i-1) {
				t.Fatalf("diagnostics not sorted: %v", d.Diagnostics)
			}
		}
		for _, k := range d.Keys {
			if k.Thumbprint != "" && (len(k.X) != 32 || Thumbprint(k.X) != k.Thumbprint) {
				t.Fatalf("key %+v: thumbprint not of its x", k)
			}
		}
	})
}
