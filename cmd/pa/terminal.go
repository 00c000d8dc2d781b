package main

import (
	"io"
	"os"
)

// terminalWriter is a writer that says itself whether it is a terminal:
// the seam of cmd/pa's in-process tests, which print into buffers (the
// tests of the real binary give it a real pseudo-terminal instead).
type terminalWriter interface {
	io.Writer
	IsTerminal() bool
}

// isTerminal reports whether pa's lines written to w reach a terminal: an
// *os.File whose descriptor is one (terminalFD: a tty on Unix, a console on
// Windows), or a terminalWriter that says so. Anything else (a pipe, a
// file, a buffer) is not.
func isTerminal(w io.Writer) bool {
	switch w := w.(type) {
	case terminalWriter:
		return w.IsTerminal()
	case *os.File:
		return terminalFD(w.Fd())
	}
	return false
}
