package main

import (
	"fmt"
	"strings"
	"testing"
)

// log builds a go test -json stream: each entry is "ACTION TEST [OUTPUT]".
func log(lines ...string) string {
	var b strings.Builder
	for _, l := range lines {
		action, rest, _ := strings.Cut(l, " ")
		test, out, _ := strings.Cut(rest, " ")
		if out != "" {
			out += "\n"
		}
		fmt.Fprintf(&b, `{"Action":%q,"Package":"p","Test":%q,"Output":%q}`+"\n", action, test, out)
	}
	return b.String()
}

func TestSkipped(t *testing.T) {
	tests := []struct {
		name string
		logs []string
		want string
	}{
		{"run in the first step", []string{log("pass TestA"), log("skip TestA")}, ""},
		{"run in the second step", []string{log("output TestA x_test.go:3: slow tier", "skip TestA"), log("pass TestA")}, ""},
		{"failed counts as run", []string{log("skip TestA"), log("fail TestA")}, ""},
		{"skipped in both", []string{
			log("output TestA x_test.go:3: no chromium", "output TestA --- SKIP: TestA (0.00s)", "skip TestA"),
			log("output TestA x_test.go:3: no chromium", "skip TestA"),
		}, "p TestA: x_test.go:3: no chromium"},
		{"skipped in one, absent from the other", []string{log("skip TestA"), log("pass TestB")}, "p TestA: "},
		{"a subtest skipped in both", []string{
			log("output TestA/case x_test.go:9: absent", "skip TestA/case", "pass TestA"),
			log("skip TestA/case", "pass TestA"),
		}, "p TestA/case: x_test.go:9: absent"},
		{"package without tests", []string{log("skip "), log("skip ")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs [][]event
			for _, l := range tt.logs {
				evs, err := read(strings.NewReader(l))
				if err != nil {
					t.Fatal(err)
				}
				logs = append(logs, evs)
			}
			var got []string
			for _, s := range skipped(logs) {
				got = append(got, s.pkg+" "+s.test+": "+s.why)
			}
			if g := strings.Join(got, "\n"); g != tt.want {
				t.Errorf("skipped(%q) = %q, want %q", tt.logs, g, tt.want)
			}
		})
	}
}

func TestShow(t *testing.T) {
	in := log("output TestA === RUN TestA", "output TestA a_test.go:1: fine", "pass TestA",
		"output TestB === RUN TestB", "output TestB b_test.go:2: broken", "fail TestB",
		"output  FAIL") + "not json\n"
	evs, err := read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	show(&b, evs)
	want := "=== RUN TestB\nb_test.go:2: broken\nFAIL\nnot json\n"
	if b.String() != want {
		t.Errorf("show() = %q, want %q", b.String(), want)
	}
}
