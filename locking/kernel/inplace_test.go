package kernel

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
)

// The next holder's record is written over the last one's, longer (it has
// its release time), through the held handle: padded with spaces to the
// file's length, it parses as the new record alone, with no release time
// and no byte of the old one after it (the plain path's truncating write
// would leave the record alone, unpadded).
func TestRecordOverwrittenInPlace(t *testing.T) {
	fsys, _ := newFS(t)
	o := Options{Agent: "crow", layout: layoutInLock}
	first := mustAcquire(t, fsys, "f", o)
	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	old, _, err := vfs.ReadFile(fsys, "f.lock", 0)
	if err != nil {
		t.Fatal(err)
	}
	h := mustAcquire(t, fsys, "f", o)
	data, _, err := vfs.ReadFile(fsys, "f.lock", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := h.Record().encode()
	if len(data) != len(old) || !bytes.HasPrefix(data, want) || strings.Trim(string(data[len(want):]), " ") != "" {
		t.Errorf("the lock file holds %q after %q; want %q padded with spaces to %d bytes", data, old, want, len(old))
	}
	if rec := readLock(t, fsys, "f", layoutInLock); rec != h.Record() || rec.ReleasedAt != "" {
		t.Errorf("record %+v; want the new holder's, %+v", rec, h.Record())
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	if rec := readLock(t, fsys, "f", layoutInLock); rec.ReleasedAt == "" || rec.AcquiredAt != h.Record().AcquiredAt {
		t.Errorf("released record %+v", rec)
	}
}

// A lock file longer than a record (garbage a crash or a hand left) is
// not padded into a record too long to read: the record is written by the
// plain path, truncating it.
func TestRecordOverALongFileTruncates(t *testing.T) {
	fsys, dir := newFS(t)
	if err := os.WriteFile(dir+"/f.lock", bytes.Repeat([]byte("x"), maxRecord+1), 0o644); err != nil {
		t.Fatal(err)
	}
	h := mustAcquire(t, fsys, "f", Options{layout: layoutInLock})
	data, _, err := vfs.ReadFile(fsys, "f.lock", 0)
	if err != nil || !bytes.Equal(data, h.Record().encode()) {
		t.Errorf("the lock file holds %d bytes (%v); want the record alone, %q", len(data), err, h.Record().encode())
	}
}
