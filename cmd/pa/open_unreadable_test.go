package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A spawn-log or board that cannot be read as a file (here a directory in
// its place) is bad input for open and list (exit 1), said in the words
// board check reports it in, prefixed pa:, not the FS's ("read ...: not a
// regular file"); nothing is written.
func TestOpenAndListSayWhatStandsInAFilesPlace(t *testing.T) {
	c := binClasses[0]
	for _, tc := range []struct {
		file string
		cmds [][]string
	}{
		{"agents/demo/spawn-log.json", [][]string{
			{"dispatch", "open", "--agent", "demo", "--wait", "0"},
			{"dispatch", "list"},
			{"dispatch", "list", "--agent", "demo"},
		}},
		{"agents/demo/board/board.json", [][]string{
			{"dispatch", "open", "--agent", "demo", "--wait", "0"},
		}},
	} {
		home := t.TempDir()
		if r := c.run(t, home, "dispatch", "open", "--agent", "demo"); r.code != 0 {
			t.Fatalf("open: exit %d, stderr %q", r.code, r.stderr)
		}
		name := filepath.Join(home, filepath.FromSlash(tc.file))
		if err := os.Remove(name); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(name, 0o755); err != nil {
			t.Fatal(err)
		}
		before := treeOf(t, home)
		want := "pa: " + tc.file + " cannot be read: it is a directory, not a regular file; look at it and fix or move it by hand\n"
		for _, args := range tc.cmds {
			r := c.run(t, home, args...)
			if r.code != exitUsage || r.stdout != "" || r.stderr != want {
				t.Errorf("%s with %s a directory: exit %d, stdout %q, stderr %q; want exit 1 and %q",
					strings.Join(args, " "), tc.file, r.code, r.stdout, r.stderr, want)
			}
			if after := treeOf(t, home); after != before {
				t.Fatalf("%s changed the estate:\n%s\nwant\n%s", strings.Join(args, " "), after, before)
			}
		}
	}
}

// treeOf is every name under dir with its kind and, for a regular file,
// its bytes.
func treeOf(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b.WriteString(rel + " " + fi.Mode().String())
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b.WriteString(" " + string(data))
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
