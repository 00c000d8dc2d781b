package kernel

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
)

func TestParseIncidents(t *testing.T) {
	good := string(encodeRow(Incident{Kind: IncidentKind, LockID: "lk_1", Policy: "mutation"}))
	data := good + "not json\n" + `{"kind":"other"}` + "\n\n" + strings.Repeat("x", MaxIncidentRow) + "\n" + good + strings.TrimSuffix(good, "\n")
	got := parseIncidents([]byte(data))
	if len(got.Rows) != 2 || got.Skipped != 4 {
		t.Errorf("parse: %d rows, %d skipped; want 2, 4", len(got.Rows), got.Skipped)
	}
}

func TestReadIncidentsAbsentAndHuge(t *testing.T) {
	fsys, _ := newFS(t)
	if got, err := ReadIncidents(fsys, "f"); err != nil || len(got.Rows) != 0 {
		t.Errorf("absent: %+v, %v", got, err)
	}
	row := encodeRow(Incident{Kind: IncidentKind})
	huge := bytes.Repeat(row, 2*IncidentCap/len(row))
	if err := writeFile(fsys, incidents, huge); err != nil {
		t.Fatal(err)
	}
	counted := &countFS{FS: fsys}
	got, err := ReadIncidents(counted, "f")
	if counted.n > IncidentCap+MaxIncidentRow+1 {
		t.Errorf("read %d bytes of a huge log, want at most the bound", counted.n)
	}
	if err != nil || !got.Truncated || len(got.Rows) == 0 || len(got.Rows) > (IncidentCap+MaxIncidentRow)/len(row) {
		t.Errorf("huge: %d rows, truncated %v, %v", len(got.Rows), got.Truncated, err)
	}
}

func TestReadIncidentsNotRegular(t *testing.T) {
	fsys, _ := newFS(t)
	if err := fsys.Mkdir(incidents, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadIncidents(fsys, "f"); !errors.Is(err, vfs.ErrNotRegular) {
		t.Errorf("a folder: %v", err)
	}
}

// FuzzParseIncidents: any bytes are read without a panic; every row read
// is of the kind, and re-encodes within the row bound when it came from a
// line within it.
func FuzzParseIncidents(f *testing.F) {
	f.Add(encodeRow(Incident{Kind: IncidentKind, Holder: &Party{PID: 1}}))
	f.Add([]byte("{\"kind\":\"file_lock_incident_v0\",\"waited_ms\":1e400}\n\xff\xfe\n"))
	f.Add([]byte(`{"kind":"file_lock_incident_v0","holder":{"pid":"x"}}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got := parseIncidents(data)
		lines := bytes.Count(data, []byte{'\n'}) + 1
		if len(got.Rows)+got.Skipped > lines {
			t.Fatalf("%d rows and %d skipped from %d lines", len(got.Rows), got.Skipped, lines)
		}
		for _, r := range got.Rows {
			if r.Kind != IncidentKind {
				t.Fatalf("row of kind %q", r.Kind)
			}
			if _, err := json.Marshal(r); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// countFS counts the bytes read through its files.
type countFS struct {
	vfs.FS
	n int64
}

func (c *countFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f, err := c.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &countFile{File: f, fs: c}, nil
}

type countFile struct {
	vfs.File
	fs *countFS
}

func (f *countFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.fs.n += int64(n)
	return n, err
}
