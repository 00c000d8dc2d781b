//go:build unix

package spawnlog

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

// Read maps the spawn-log (osfs on Unix), and the log it returns outlives
// the mapping: its records' bytes, kept for a rewrite, were copied out
// before the unmap, so encoding the log after Read returns reads them
// whole (a slice left in the mapping would fault here).
func TestReadKeepsNothingOfTheMapping(t *testing.T) {
	dir := t.TempDir()
	fsys, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := benchLog(2000) // the canonical shape: the fast scan keeps slices of the input
	writeLog(t, dir, want)
	log, err := Read(fsys, "demo")
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Records) != 2000 {
		t.Fatalf("Read: %d records; want 2000", len(log.Records))
	}
	if got := log.encode(); !bytes.Equal(got, want) {
		t.Errorf("the log read, encoded again after Read returned, differs from the file (%d bytes vs %d)", len(got), len(want))
	}
}

// A spawn-log of 256 MiB that is not JSON (zeros, as a truncate or a
// broken disk leaves) is refused from its first bytes, without being read
// into memory whole.
func TestReadRefusesAHugeGarbageLogWithoutReadingIt(t *testing.T) {
	dir := t.TempDir()
	fsys, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	name := writeLog(t, dir, nil)
	if err := os.Truncate(name, 256<<20); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Read(fsys, "demo")
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Read of 256 MiB of zeros: %v; want a corrupt spawn-log", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("Read of 256 MiB of zeros allocated %d MiB; want it refused from its first bytes", alloc>>20)
	}
}

func writeLog(t *testing.T, dir string, data []byte) string {
	t.Helper()
	name := filepath.Join(dir, filepath.FromSlash(estate.SpawnLogPath("demo")))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}
