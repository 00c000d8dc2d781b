package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An estate whose agents/ is a regular file is bad input for every
// command (exit 1), said in one plain line naming it, as board check says
// of a file where a folder should be: never a system call's words
// ("readdirent", "openat", "mkdir"), and nothing is changed.
func TestAgentsFolderThatIsAFile(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	agents := filepath.Join(home, "agents")
	if err := os.WriteFile(agents, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "pa: agents cannot be read: it is a regular file, not a folder; look at it and fix or move it by hand\n"
	for _, args := range [][]string{
		{"dispatch", "open", "--agent", "demo", "--wait", "0"},
		{"dispatch", "list"},
		{"dispatch", "list", "--agent", "demo"},
		{"board", "check"},
		{"board", "check", "--agent", "demo"},
		{"dispatch", "unlock"},
		{"dispatch", "unlock", "--agent", "demo"},
		{"dispatch", "unlock", "--force", "--agent", "demo"},
	} {
		r := c.run(t, home, args...)
		if r.code != exitUsage || r.stdout != "" || r.stderr != want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and %q", strings.Join(args, " "), r.code, r.stdout, r.stderr, want)
		}
		if b, err := os.ReadFile(agents); err != nil || string(b) != "x\n" {
			t.Fatalf("%s: agents changed: %q, %v", strings.Join(args, " "), b, err)
		}
		if entries, _ := os.ReadDir(home); len(entries) != 1 {
			t.Fatalf("%s: the estate holds %d names, want agents alone", strings.Join(args, " "), len(entries))
		}
	}
	r := c.run(t, home, "board", "check", "--hook-envelope")
	wantEnv := `{"ok":false,"problems":["` + strings.TrimSuffix(want, "\n") + `"]}` + "\n"
	if r.code != 0 || r.stdout != wantEnv {
		t.Errorf("board check --hook-envelope: exit %d, stdout %q; want exit 0 and %q", r.code, r.stdout, wantEnv)
	}
}
