package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLintSignatures: lint reads a Web Bot Auth key directory with
// --type signatures, or told by its well-known name, each problem at its
// line and column, and none of the grammar's line diagnostics.
func TestLintSignatures(t *testing.T) {
	dir := t.TempDir()
	body := "{\n  \"keys\": [{\n    \"kty\": \"OKP\", \"crv\": \"Ed25519\",\n    \"kid\": \"NFcWBst6DXG-N35nHdzMrioWntdzNZghQSkjHNMMSjw\",\n" +
		"    \"x\": \"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs\", \"use\": \"sig\"\n  }]\n}\n"
	named := filepath.Join(dir, "http-message-signatures-directory")
	plain := filepath.Join(dir, "keys.json")
	for _, p := range []string{named, plain} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"lint", "--type", "signatures", plain}, {"lint", named}} {
		out, errOut, code := runCLI(t, "", args...)
		src := args[len(args)-1]
		want := src + ":4:12: error: kid \"NFcWBst6DXG-N35nHdzMrioWntdzNZghQSkjHNMMSjw\" is not the key's thumbprint \"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U\""
		if code != ExitFindings || !strings.Contains(out, want) || strings.Contains(out, "invalid-line") || errOut != "" {
			t.Errorf("sitetxt %q = exit %d, %q, stderr %q; want exit 1 and %q alone", args, code, out, errOut, want)
		}
	}
}
