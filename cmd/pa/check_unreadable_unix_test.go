//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A named pipe where the spawn-log should be is an unreadable problem of
// board check (exit 2), read without blocking.
func TestBoardCheckReportsAFIFOSpawnLog(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "agents", "demo"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(home, filepath.FromSlash(logName)), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	r := c.run(t, home, "board", "check")
	want := logName + " cannot be read: it is a named pipe, not a regular file; look at it and fix or move it by hand\n"
	if r.code != exitProblem || r.stdout != want || r.took > 30*time.Second {
		t.Errorf("board check: exit %d, stdout %q, stderr %q; want exit 2 and %q", r.code, r.stdout, r.stderr, want)
	}
}
