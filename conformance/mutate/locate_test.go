package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryMutationIsFoundOnce runs in the ordinary test run, so that code
// moved or reworded under a mutation fails at once, not 13 minutes into a
// mutation run: each mutation's old text is in exactly one place of the
// lock's code, and no two mutations share a name.
func TestEveryMutationIsFoundOnce(t *testing.T) {
	names := map[string]bool{}
	for _, m := range mutations {
		if names[m.name] {
			t.Errorf("two mutations are named %q", m.name)
		}
		names[m.name] = true
		if m.old == m.new {
			t.Errorf("%s: new is old", m.name)
		}
		s, err := locate("../..", m)
		if err != nil {
			t.Errorf("%s: %v", m.name, err)
			continue
		}
		// The mutated file must still parse: a mutation whose text became
		// part of a longer statement would not apply (not a build check:
		// types are the mutation run's).
		orig, err := os.ReadFile(filepath.Join("../..", filepath.FromSlash(s.file)))
		if err != nil {
			t.Fatal(err)
		}
		mutated := bytes.Replace(orig, []byte(m.old), []byte(m.new), 1)
		if _, err := parser.ParseFile(token.NewFileSet(), s.file, mutated, 0); err != nil {
			t.Errorf("%s: the mutated %s does not parse: %v", m.name, s.file, err)
		}
	}
}

// TestLocateRefusesNoneAndTwo pins locate on a made-up tree: a text is
// found in its function, wherever the file; found nowhere, twice in one
// function, or in two files, it is not applied; a test file is never a
// site, nor a folder outside the searched ones.
func TestLocateRefusesNoneAndTwo(t *testing.T) {
	root := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("locking/a.go", "package locking\n\nfunc f() {\n\tonce()\n\ttwice()\n\ttwice()\n\tspread()\n}\n\nfunc (h *hold) g() {\n\tonce()\n}\n")
	write("internal/lock/b.go", "package lock\n\nfunc f() {\n\tspread()\n}\n\nfunc (r *recorder[T]) f() {\n\tmoved()\n}\n")
	write("locking/a_test.go", "package locking\n\nfunc moved() {\n\tonce()\n\tmoved()\n}\n")
	write("cmd/pa/c.go", "package main\n\nfunc moved() {\n\tmoved()\n}\n")
	for _, tc := range []struct {
		fn, old, file, err string
	}{
		{"f", "once()", "locking/a.go", ""},
		{"hold.g", "once()", "locking/a.go", ""},
		{"", "moved()", "internal/lock/b.go", ""},
		{"recorder.f", "moved()", "internal/lock/b.go", ""},
		{"f", "absent()", "", "is not in function f"},
		{"h", "once()", "", "is not in function h"},
		{"", "once()", "", "2 times (locking/a.go)"},
		{"f", "twice()", "", "2 times (locking/a.go)"},
		{"f", "spread()", "", "2 times (internal/lock/b.go, locking/a.go)"},
	} {
		s, err := locate(root, mutation{name: tc.old, fn: tc.fn, old: tc.old, new: "x"})
		switch {
		case tc.err == "" && (err != nil || s.file != tc.file):
			t.Errorf("locate(%q, %q) = %q, %v; want %q", tc.fn, tc.old, s.file, err, tc.file)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("locate(%q, %q) = %q, %v; want an error with %q", tc.fn, tc.old, s.file, err, tc.err)
		}
	}
	if s := (site{file: "vfs/osfs/queue_unix.go"}); s.pkg() != "./vfs/osfs" || covered("./internal/lock") || !covered("./locking/locktest") || !covered("./vfs/osfs") || !covered("./locking") {
		t.Errorf("pkg or covered: %q", s.pkg())
	}
}
