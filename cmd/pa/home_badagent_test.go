package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestBadAgentCreatesNoEstate: a bad --agent is refused before anything is
// touched: open, the only command that creates the estate's folder, does
// not create it for an agent name it refuses.
func TestBadAgentCreatesNoEstate(t *testing.T) {
	for _, agent := range []string{"..", ".x", "a/b", "a\x01b", " a"} {
		home := filepath.Join(t.TempDir(), "home")
		var o, e bytes.Buffer
		if code := run(context.Background(), []string{"--home", home, "dispatch", "open", "--agent", agent, "--title", "t"}, &o, &e); code != exitUsage {
			t.Errorf("open --agent %q: exit %d (%q); want %d", agent, code, e.String(), exitUsage)
		}
		if _, err := os.Lstat(home); err == nil {
			t.Errorf("open --agent %q created the estate %s; want nothing touched", agent, home)
		}
	}
}
