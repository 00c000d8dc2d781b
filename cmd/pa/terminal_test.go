package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// saysTerminal is a writer that says whether it is a terminal
// (terminalWriter).
type saysTerminal struct {
	strings.Builder
	terminal bool
}

func (w *saysTerminal) IsTerminal() bool { return w.terminal }

// isTerminal asks a terminalWriter, and the system about an *os.File (a
// pipe is none; a pseudo-terminal is one: lockevents_linux_test.go); any
// other writer is none.
func TestIsTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, tc := range []struct {
		name string
		w    io.Writer
		want bool
	}{
		{"a writer that says it is one", &saysTerminal{terminal: true}, true},
		{"a writer that says it is none", &saysTerminal{}, false},
		{"a buffer", &strings.Builder{}, false},
		{"a pipe", w, false},
	} {
		if got := isTerminal(tc.w); got != tc.want {
			t.Errorf("isTerminal(%s) = %v; want %v", tc.name, got, tc.want)
		}
	}
}
