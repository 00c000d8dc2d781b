package main

import (
	"testing"

	"github.com/pa-toolkit/pa/board"
)

// pa's lines and board check's say when --force is right in the same
// words.
func TestForceWhenIsBoards(t *testing.T) {
	if forceOnlyWhen != board.ForceWhen {
		t.Fatalf("forceOnlyWhen = %q; board.ForceWhen = %q; want them the same", forceOnlyWhen, board.ForceWhen)
	}
}
