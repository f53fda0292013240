package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "robots.json")
	hand := filepath.Join(dir, "crawlers.yaml")
	out := filepath.Join(dir, "airobots.yaml")
	write := func(name, s string) {
		t.Helper()
		if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(in, `{"ABot": {"operator": "A", "respect": "Yes", "function": "AI Agents"}, "BBot": {"operator": "B", "respect": "No", "function": "Reads pages."}}`)
	write(hand, "source: hand\ndate: 2026-12-01\ncrawlers: []\n")
	err := run(in, "abc", "", out, hand)
	if err == nil || !strings.Contains(err.Error(), `"BBot"`) || !strings.Contains(err.Error(), "unknown category") {
		t.Errorf("run without BBot's category = %v, want an error naming BBot's category", err)
	}
	write(hand, "source: hand\ndate: 2026-12-01\ncrawlers:\n- {token: BBot, category: other}\n")
	if err := run(in, "abc", "", out, hand); err != nil {
		t.Fatalf("run = %v, want nil", err)
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), "token: ABot") || !strings.Contains(string(b), "commit: abc") {
		t.Errorf("%s = %q, %v; want ABot and the commit", out, b, err)
	}
	if err := run(filepath.Join(dir, "none.json"), "abc", "", out, hand); err == nil {
		t.Error("run of a missing robots.json = nil, want an error")
	}
}
