package cli

import (
	"runtime"
	"strings"
	"testing"
)

// TestCompletion checks that the shells get commands, flags, profile names
// and output formats.
func TestCompletion(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", ""}, []string{"check", "diff", "matrix", "datasets", "agents", "fetch", "lint", "parse"}},
		{[]string{"__complete", "check", "--"}, []string{"--agent", "--profile", "--output", "--urls", "--timeout", "--no-cache"}},
		{[]string{"__complete", "check", "--profile", ""}, []string{"rfc9309", "google", "draft", "norobots"}},
		{[]string{"__complete", "diff", "--profiles", ""}, []string{"rfc9309", "google", "draft", "norobots"}},
		{[]string{"__complete", "parse", "-o", ""}, []string{"text", "json", "yaml"}},
		{[]string{"__complete", "matrix", "-o", ""}, []string{"text", "json", "csv"}},
		{[]string{"__complete", "datasets", "-o", ""}, []string{"schemaorg", "dcat", "datajson", "datapackage"}},
		{[]string{"__complete", "lint", "--type", ""}, []string{"auto", "robots", "datatxt"}},
		{[]string{"__complete", "check", "--agent", "Goo"}, []string{"Googlebot", "Google-Extended", "GoogleOther"}},
		{[]string{"__complete", "matrix", "--agent", "gpt"}, []string{"GPTBot"}},
		{[]string{"__complete", "check", "--color", ""}, []string{"auto", "always", "never"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, _, code := runCLI(t, "", tt.args...)
			if code != ExitOK {
				t.Fatalf("exit %d", code)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w+"\n") && !strings.Contains(out, w+"\t") {
					t.Errorf("sitetxt %s: %q missing from\n%s", strings.Join(tt.args, " "), w, out)
				}
			}
		})
	}
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		out, _, code := runCLI(t, "", "completion", shell)
		if code != ExitOK || !strings.Contains(out, "sitetxt") {
			t.Errorf("sitetxt completion %s: exit %d, %d bytes", shell, code, len(out))
		}
	}
}

// TestVersion checks --version: the version, then (in a binary Go
// stamped, cmd/sitetxt's TestVersionFromBuild) the VCS revision, and the
// Go version.
func TestVersion(t *testing.T) {
	out, _, code := runCLI(t, "", "--version")
	if code != ExitOK || out != "sitetxt version "+versionText()+"\n" || !strings.HasPrefix(out, "sitetxt version "+Version) || !strings.HasSuffix(out, ", "+runtime.Version()+"\n") {
		t.Errorf("sitetxt --version = %q (exit %d), want the version and %s", out, code, runtime.Version())
	}
}
