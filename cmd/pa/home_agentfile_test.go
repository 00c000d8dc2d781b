package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An agent named whose agents/<agent> is a regular file is bad input for
// open, list and unlock (exit 1), said in one plain line naming it, as
// board check --agent says it: never a system call's words, never unlock's
// advice to run the same unlock again, and nothing is changed.
func TestAgentFolderThatIsAFile(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	if r := c.run(t, home, "dispatch", "open", "--agent", "other"); r.code != 0 {
		t.Fatalf("open: exit %d, stderr %q", r.code, r.stderr)
	}
	file := filepath.Join(home, "agents", "demo")
	if err := os.WriteFile(file, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "pa: agents/demo cannot be read: it is a regular file, not an agent's folder; look at it and fix or move it by hand\n"
	for _, args := range [][]string{
		{"dispatch", "open", "--agent", "demo", "--wait", "0"},
		{"dispatch", "list", "--agent", "demo"},
		{"dispatch", "unlock", "--agent", "demo"},
		{"dispatch", "unlock", "--force", "--agent", "demo"},
	} {
		r := c.run(t, home, args...)
		if r.code != exitUsage || r.stdout != "" || r.stderr != want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and %q", strings.Join(args, " "), r.code, r.stdout, r.stderr, want)
		}
		if b, err := os.ReadFile(file); err != nil || string(b) != "x\n" {
			t.Fatalf("%s: agents/demo changed: %q, %v", strings.Join(args, " "), b, err)
		}
		if entries, _ := os.ReadDir(filepath.Join(home, "agents")); len(entries) != 2 {
			t.Fatalf("%s: agents/ holds %d names, want other and demo", strings.Join(args, " "), len(entries))
		}
	}
}

// Among every agent, board check reports a regular file under agents/
// that bears an agent's name as the problem board check --agent reports
// for it (exit 2, ok false in the envelope), not silently skipped: the
// health check must not say ok over a file where an agent's folder should
// be.
func TestBoardCheckReportsAnAgentFileAmongEveryAgent(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	if r := c.run(t, home, "dispatch", "open", "--agent", "other"); r.code != 0 {
		t.Fatalf("open: exit %d, stderr %q", r.code, r.stderr)
	}
	if err := os.WriteFile(filepath.Join(home, "agents", "demo"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	line := "agents/demo cannot be read: it is a regular file, not an agent's folder; look at it and fix or move it by hand"
	if r := c.run(t, home, "board", "check"); r.code != exitProblem || r.stdout != line+"\n" {
		t.Errorf("board check: exit %d, stdout %q, stderr %q; want exit 2 and %q", r.code, r.stdout, r.stderr, line)
	}
	want := `{"ok":false,"problems":["` + line + `"]}` + "\n"
	if r := c.run(t, home, "board", "check", "--hook-envelope"); r.code != 0 || r.stdout != want {
		t.Errorf("board check --hook-envelope: exit %d, stdout %q; want exit 0 and %q", r.code, r.stdout, want)
	}
	// A name no agent could have (here a dot file) stays no agent's.
	if err := os.Remove(filepath.Join(home, "agents", "demo")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "agents", ".DS_Store"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := c.run(t, home, "board", "check"); r.code != 0 || r.stdout != "" {
		t.Errorf("board check with agents/.DS_Store: exit %d, stdout %q; want exit 0 and nothing", r.code, r.stdout)
	}
}
