//go:build unix

package board

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// Read maps the board (osfs on Unix), and the board it returns outlives
// the mapping: its items' bytes, kept for a rewrite, were copied out
// before the unmap, so encoding the board after Read returns reads them
// whole (a slice left in the mapping would fault here).
func TestReadKeepsNothingOfTheBoardMapping(t *testing.T) {
	dir := t.TempDir()
	fsys, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := benchBoard(2000) // the canonical shape: the fast scan keeps slices of the input
	writeBoard(t, dir, want)
	log, err := Read(fsys, "demo")
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Items) != 2000 {
		t.Fatalf("Read: %d items; want 2000", len(log.Items))
	}
	if got := log.encode(); !bytes.Equal(got, want) {
		t.Errorf("the board read, encoded again after Read returned, differs from the file (%d bytes vs %d)", len(got), len(want))
	}
}

// A board of 256 MiB that is not JSON (zeros, as a truncate or a
// broken disk leaves) is refused from its first bytes, without being read
// into memory whole.
func TestReadRefusesAHugeGarbageBoardWithoutReadingIt(t *testing.T) {
	dir := t.TempDir()
	fsys, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	name := writeBoard(t, dir, nil)
	if err := os.Truncate(name, 256<<20); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Read(fsys, "demo")
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Read of 256 MiB of zeros: %v; want a corrupt board", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("Read of 256 MiB of zeros allocated %d MiB; want it refused from its first bytes", alloc>>20)
	}
}

func writeBoard(t *testing.T, dir string, data []byte) string {
	t.Helper()
	name := filepath.Join(dir, filepath.FromSlash(estate.BoardPath("demo")))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}
