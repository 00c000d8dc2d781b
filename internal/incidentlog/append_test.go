package incidentlog

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// TestAppendCap: a row that would pass the cap is dropped and leaves the
// file as it was; the next row written counts it, and the count is then
// forgotten.
func TestAppendCap(t *testing.T) {
	fsys, dir := newFS(t)
	var d Drops
	enc := func(n int64) []byte { return Line(row{Kind: "k", N: n}, nil) }
	line := int64(len(enc(0)))
	if err := Append(fsys, "log", line, &d, enc); err != nil {
		t.Fatal(err)
	}
	if err := Append(fsys, "log", line, &d, enc); !errors.Is(err, ErrFull) {
		t.Fatalf("past the cap: %v, want ErrFull", err)
	}
	if data, _ := os.ReadFile(dir + "/log"); int64(len(data)) != line {
		t.Fatalf("a dropped row changed the log: %q", data)
	}
	for _, want := range []int64{1, 0} {
		if err := Append(fsys, "log", Cap, &d, enc); err != nil {
			t.Fatal(err)
		}
		rows, err := Read(fsys, "log", isRow)
		if err != nil {
			t.Fatal(err)
		}
		if got := rows.Rows[len(rows.Rows)-1].N; got != want {
			t.Errorf("row counts %d drops, want %d", got, want)
		}
	}
}

// TestAppendNotRegular: a directory at the log's name is no log: nothing
// is written, and the error says why.
func TestAppendNotRegular(t *testing.T) {
	fsys, dir := newFS(t)
	if err := os.Mkdir(dir+"/log", 0o755); err != nil {
		t.Fatal(err)
	}
	var d Drops
	err := Append(fsys, "log", Cap, &d, func(int64) []byte { return []byte("{}\n") })
	if err == nil {
		t.Fatal("appended to a directory")
	}
}

// TestAppendOneWrite: a row is one write of an O_APPEND handle.
func TestAppendOneWrite(t *testing.T) {
	fsys, _ := newFS(t)
	var d Drops
	long := Line(row{Kind: "k" + strings.Repeat("x", 3000)}, nil)
	if err := Append(fsys, "log", Cap, &d, func(int64) []byte { return long }); err != nil {
		t.Fatal(err)
	}
	if n := fsys.Calls(faultfs.OpWrite, "log"); n != 1 {
		t.Errorf("%d writes, want 1", n)
	}
}

// TestLineBound: a row whose line passes MaxRow is replaced by the
// shorter one.
func TestLineBound(t *testing.T) {
	long := row{Kind: strings.Repeat("\x01", MaxRow)}
	got := Line(long, func() any { return row{Kind: "k"} })
	if len(got) > MaxRow || !strings.Contains(string(got), `"kind":"k"`) {
		t.Errorf("Line = %d bytes %.40q", len(got), got)
	}
}

// TestAppendAfterATornRow: a log whose last row was cut short (no newline:
// a power cut, a hand edit) gets the next row on a line of its own, so
// that the reader skips the torn one and lists the new one; a log that
// ends with its newline gets none more.
func TestAppendAfterATornRow(t *testing.T) {
	fsys, dir := newFS(t)
	enc := func(n int64) []byte { return Line(row{Kind: "k", N: 7}, nil) }
	if err := os.WriteFile(dir+"/log", []byte(`{"kind":"k","n":1}`+"\n"+`{"kind":"k","n`), 0o644); err != nil {
		t.Fatal(err)
	}
	var d Drops
	for range 2 {
		if err := Append(fsys, "log", Cap, &d, enc); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Read(fsys, "log", isRow)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != 3 || got.Rows[1].N != 7 || got.Rows[2].N != 7 || got.Skipped != 1 {
		t.Errorf("rows %+v, %d skipped; want the first, the two new ones, and the torn one skipped", got.Rows, got.Skipped)
	}
	data, _ := os.ReadFile(dir + "/log")
	if strings.Contains(string(data), "\n\n") {
		t.Errorf("log %q has a blank line: a row was put on a line of its own twice", data)
	}
}
