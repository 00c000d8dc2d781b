package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs/osfs"
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

// TestTitleNotUTF8IsRefused: a --title that is not valid UTF-8 is a usage
// error (exit 1) that creates and writes nothing, never stored with U+FFFD
// in place of its bytes; the library refuses it the same way
// (spawnlog.ErrTitleNotUTF8) before it touches the estate.
func TestTitleNotUTF8IsRefused(t *testing.T) {
	home := filepath.Join(t.TempDir(), "estate")
	var o, e bytes.Buffer
	code := run(context.Background(), []string{"--home", home, "dispatch", "open", "--agent", "demo", "--title", "bad\xffutf"}, &o, &e)
	if code != exitUsage || o.Len() != 0 || !bytes.Contains(e.Bytes(), []byte("--title is not valid UTF-8")) {
		t.Errorf("open --title bad\\xffutf: exit %d, stdout %q, stderr %q; want %d and the --title line", code, o.String(), e.String(), exitUsage)
	}
	if _, err := os.Lstat(home); !os.IsNotExist(err) {
		t.Errorf("open --title bad\\xffutf left %s (Lstat: %v); want nothing created", home, err)
	}

	lib := t.TempDir()
	fsys, err := osfs.New(lib)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := spawnlog.Append(context.Background(), fsys, "demo", "bad\xffutf", nil, locking.Options{}); !errors.Is(err, spawnlog.ErrTitleNotUTF8) {
		t.Errorf("spawnlog.Append with a title not UTF-8: %v; want ErrTitleNotUTF8", err)
	}
	if ents, _ := os.ReadDir(lib); len(ents) != 0 {
		t.Errorf("spawnlog.Append with a title not UTF-8 created %q; want nothing", ents[0].Name())
	}
}
