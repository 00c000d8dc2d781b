package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/spawnlog"
)

// openError says spawnlog.ErrTitleNotUTF8, should the library refuse a
// title that open's own check let through, as that check does: a usage
// error (exit 1) with the --title line, never a lock error (exit 2).
func TestOpenErrorOfATitleNotUTF8(t *testing.T) {
	err := openError(nil, advice{pa: "pa", agent: "demo"}, 0, spawnlog.Record{}, fmt.Errorf("append: %w", spawnlog.ErrTitleNotUTF8), locking.Options{})
	var e *exitError
	if !errors.As(err, &e) || e.code != exitUsage || !strings.Contains(e.msg, "--title is not valid UTF-8") {
		t.Fatalf("openError(ErrTitleNotUTF8) = %v; want exit %d and the --title line", err, exitUsage)
	}
}
