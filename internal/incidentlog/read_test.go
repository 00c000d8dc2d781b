package incidentlog

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
)

// TestParseSkips: torn, too long, not JSON and other kinds are skipped
// and counted; blank lines are neither.
func TestParseSkips(t *testing.T) {
	good := `{"kind":"k","n":1}` + "\n"
	data := good + "not json\n" + `{"kind":"other"}` + "\n\n" + strings.Repeat("x", MaxRow) + "\n" + "\x00\x1b[2J\n" + good + strings.TrimSuffix(good, "\n")
	got := Parse([]byte(data), isRow)
	if len(got.Rows) != 2 || got.Skipped != 5 {
		t.Errorf("Parse: %d rows, %d skipped; want 2, 5", len(got.Rows), got.Skipped)
	}
}

// TestReadBounded: a log past the cap is read only up to it.
func TestReadBounded(t *testing.T) {
	fsys, dir := newFS(t)
	line := []byte(`{"kind":"k","n":1}` + "\n")
	if err := os.WriteFile(filepath.Join(dir, "log"), bytes.Repeat(line, 2*Cap/len(line)), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Read(fsys, "log", isRow)
	if err != nil || !got.Truncated || len(got.Rows) > (Cap+MaxRow)/len(line) {
		t.Errorf("Read: %d rows, truncated %v, %v", len(got.Rows), got.Truncated, err)
	}
}

// TestReadAbsentAndDirectory: no log is no rows; a directory is an error
// wrapping vfs.ErrNotRegular.
func TestReadAbsentAndDirectory(t *testing.T) {
	fsys, dir := newFS(t)
	if got, err := Read(fsys, "log", isRow); err != nil || len(got.Rows) != 0 {
		t.Errorf("absent: %+v, %v", got, err)
	}
	if err := os.Mkdir(filepath.Join(dir, "log"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(fsys, "log", isRow); !errors.Is(err, vfs.ErrNotRegular) {
		t.Errorf("directory: %v, want vfs.ErrNotRegular", err)
	}
}

// TestReadKeepsTheNewestRows: of a log past the cap on the real OS, the
// last bytes are read, from the first whole line in them: the newest row
// is among the rows, and the torn line where the read began is skipped.
func TestReadKeepsTheNewestRows(t *testing.T) {
	fsys, dir := newFS(t)
	line := []byte(`{"kind":"k","n":1}` + "\n")
	data := append(bytes.Repeat(line, 2*Cap/len(line)), []byte(`{"kind":"k","n":2}`+"\n")...)
	if err := os.WriteFile(filepath.Join(dir, "log"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Read(fsys, "log", isRow)
	if err != nil || !got.Truncated || len(got.Rows) == 0 {
		t.Fatalf("Read: %d rows, truncated %v, %v", len(got.Rows), got.Truncated, err)
	}
	if last := got.Rows[len(got.Rows)-1]; last.N != 2 {
		t.Errorf("the last row read is %+v; want the newest (n 2)", last)
	}
	if got.Skipped > 1 {
		t.Errorf("%d lines skipped; want at most the torn one where the read began", got.Skipped)
	}
}

// TestReadSaysFull: Full is true once the log is within MaxRow bytes of
// Cap, where the longest row no longer fits, and false a byte before.
func TestReadSaysFull(t *testing.T) {
	fsys, dir := newFS(t)
	for _, tc := range []struct {
		size int
		full bool
	}{{Cap - MaxRow, false}, {Cap - MaxRow + 1, true}, {Cap, true}} {
		if err := os.WriteFile(dir+"/log", bytes.Repeat([]byte("\n"), tc.size), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Read(fsys, "log", isRow)
		if err != nil || got.Full != tc.full {
			t.Errorf("%d bytes: Full %v, %v; want %v", tc.size, got.Full, err, tc.full)
		}
	}
}
