package sitetest

import (
	"bytes"
	"sync"
)

// Log is the log of a serve a test runs (a process's standard error,
// written by exec's goroutine, or an in-process serve's logger), read by
// the test while it is written.
type Log struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns what has been written so far.
func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
