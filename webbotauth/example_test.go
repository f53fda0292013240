package webbotauth_test

import (
	"fmt"
	"time"

	"github.com/sitetxt/sitetxt/webbotauth"
)

func ExampleParse() {
	dir := `{"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": "NFcWBst6DXG-N35nHdzMrioWntdzNZghQSkjHNMMSjw",
  "x": "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs", "use": "sig", "nbf": 1712793600, "exp": 1715385600}]}`
	d := webbotauth.Parse("directory.json", []byte(dir), webbotauth.Options{Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
	for _, k := range d.Keys {
		fmt.Println(k.Crv, k.Thumbprint)
	}
	for _, dg := range d.Diagnostics {
		fmt.Println(dg.Range.Start, dg.Code)
	}
	// Output:
	// Ed25519 poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U
	// 1:51 key-kid
	// 2:95 key-expired
}

func ExampleThumbprint() {
	x := make([]byte, 32)
	fmt.Println(webbotauth.Thumbprint(x))
	// Output:
	// ogRZbCR5KTrPFCAfuYmCMwj0w7Yuk3Lr6YWQWfpkbf0
}
