package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestArgsAreTakenByteForByte: pa takes its arguments as they are. An
// --agent that is not valid UTF-8 is a bad agent name (exit 1, nothing
// written), never turned into another agent's name (kong's string mapper
// transcodes through JSON, which replaces invalid UTF-8 with U+FFFD); a
// --home that is not valid UTF-8 is refused as pa refuses it (exit 1),
// never a folder named with U+FFFD created instead.
func TestArgsAreTakenByteForByte(t *testing.T) {
	home := t.TempDir()
	var o, e bytes.Buffer
	code := run(context.Background(), []string{"--home", home, "dispatch", "open", "--agent", "\xff\xfe", "--title", "t"}, &o, &e)
	if code != exitUsage {
		t.Errorf("open --agent \\xff\\xfe: exit %d (stdout %q, stderr %q); want %d", code, o.String(), e.String(), exitUsage)
	}
	if ents, _ := os.ReadDir(filepath.Join(home, "agents")); len(ents) != 0 {
		t.Errorf("open --agent \\xff\\xfe wrote agent folder %q; want nothing written", ents[0].Name())
	}

	parent := t.TempDir()
	raw := filepath.Join(parent, "h\xff")
	o.Reset()
	e.Reset()
	if code := run(context.Background(), []string{"--home", raw, "dispatch", "open", "--agent", "demo", "--title", "t"}, &o, &e); code != exitUsage {
		t.Errorf("open --home <not UTF-8>: exit %d (stderr %q); want %d", code, e.String(), exitUsage)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Errorf("open --home %q created %q; want nothing created", raw, ents[0].Name())
	}
}
