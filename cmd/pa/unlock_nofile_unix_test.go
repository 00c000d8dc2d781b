//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
)

// A lock name that is a directory, a symbolic link (out of the estate, or
// dangling) or a FIFO, as every command meets it: open waits its --wait and
// exits 2 with one line saying what is there, never blocking on the FIFO;
// board check names it; unlock without --force leaves it. --force removes
// a symbolic link (never its target) or a FIFO, and the next open goes
// through; no unlock removes a directory, and every line says to remove it
// by hand instead of naming --force. No line speaks of a holder's process
// (the --force sentence): the name is no writer's lock. The spawn-log
// keeps its bytes.
func TestLockNameThatIsNoFile(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "target")
	if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, k := range []struct {
		name, shown string
		make        func(p string) error
	}{
		{"directory", "a directory", func(p string) error { return os.MkdirAll(filepath.Join(p, "sub"), 0o755) }}, // more than a marker
		{"symlink-out", "a symbolic link", func(p string) error { return os.Symlink(outside, p) }},
		{"dangling-symlink", "a symbolic link", func(p string) error { return os.Symlink("nothing", p) }},
		{"fifo", "a named pipe", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
	} {
		t.Run(k.name, func(t *testing.T) {
			eachBinClass(t, func(t *testing.T, c binClass) {
				home := t.TempDir()
				if r := c.run(t, home, "dispatch", "open", "--agent", "demo"); r.code != 0 {
					t.Fatalf("first open: exit %d, %q", r.code, r.stderr)
				}
				log := readFile(t, home, logName)
				lockPath := filepath.Join(home, filepath.FromSlash(logName+".lock"))
				if err := k.make(lockPath); err != nil {
					t.Fatal(err)
				}
				before := estatetest.Files(t, home)
				lead := "pa: agents/demo/spawn-log.json.lock is not a regular file (" + k.shown + ", age "
				// No writer's lock: said as board check says it, never
				// with the --force sentence, which speaks of a holder.
				advice := "dispatch unlock --force --agent demo (it is no writer's lock, so no holder can lose it)"
				switch k.name {
				case "directory":
					advice = "no pa dispatch unlock removes a directory holding more than a lock's record: look at it and remove it by hand"
				case "symlink-out", "dangling-symlink":
					advice = "dispatch unlock --force --agent demo (the link, never its target; it is no writer's lock, so no holder can lose it)"
				}
				oneLine := func(what string, r result, code int, subs ...string) {
					t.Helper()
					if r.code != code || strings.Count(r.stderr, "\n") != 1 || r.stdout != "" {
						t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and one line on stderr", what, r.code, r.stdout, r.stderr, code)
					}
					for _, s := range subs {
						if !strings.Contains(r.stderr, s) {
							t.Errorf("%s: %q does not say %q", what, r.stderr, s)
						}
					}
					if k.name == "directory" && strings.Contains(r.stderr, "--force") {
						t.Errorf("%s: %q names --force, which leaves a directory", what, r.stderr)
					}
					if strings.Contains(r.stderr, forceOnlyWhen) {
						t.Errorf("%s: %q speaks of a holder's process, which no name that is not a file has", what, r.stderr)
					}
				}

				oneLine("open --wait 0", c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0"), 2, lead, advice)
				r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "300ms")
				oneLine("open --wait 300ms", r, 2, lead, "gave up after ")
				if r.took < 300*time.Millisecond || r.took > 10*time.Second {
					t.Errorf("open --wait 300ms took %s; want about 300ms, never a hang", r.took)
				}
				boardCheckNamesNoFile(t, c, home, k.name, k.shown)
				r = c.run(t, home, "dispatch", "unlock", "--agent", "demo")
				if r.code != 2 || !strings.Contains(r.stderr, advice) {
					t.Errorf("unlock: exit %d, stderr %q; want exit 2 naming %q", r.code, r.stderr, advice)
				}
				after := slices.DeleteFunc(estatetest.Files(t, home), estatetest.IsIncidentLog) // the timeouts' rows
				if !slices.Equal(before, after) || readFile(t, home, logName) != log {
					t.Fatalf("the estate changed: %q -> %q", before, after)
				}

				r = c.run(t, home, "dispatch", "unlock", "--force", "--agent", "demo")
				if k.name == "directory" {
					r.stdout = "" // the holder, printed first
					oneLine("unlock --force", r, 2, "pa: agents/demo/spawn-log.json.lock is a directory, not a lock; nothing removed; "+advice)
					if fi, err := os.Lstat(lockPath); err != nil || !fi.IsDir() {
						t.Errorf("unlock --force of a directory: %v, %v; want it left where it was", fi, err)
					}
					return
				}
				if r.code != 0 || !strings.HasSuffix(r.stdout, "agents/demo/spawn-log.json.lock: removed\n") {
					t.Errorf("unlock --force: exit %d, stdout %q, stderr %q; want it removed", r.code, r.stdout, r.stderr)
				}
				if b, err := os.ReadFile(outside); err != nil || string(b) != "secret" {
					t.Errorf("the symbolic link's target reads %q, %v; want it untouched", b, err)
				}
				if r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0"); r.code != 0 || r.stdout != "2\n" {
					t.Errorf("the next open: exit %d, stdout %q, stderr %q; want id 2", r.code, r.stdout, r.stderr)
				}
			})
		})
	}
}

// boardCheckNamesNoFile: board check, with the default stale window (the
// name is reported at once, whatever its age), gives one unreadable problem
// saying what is under the lock name (shown) and what to do, in the plain,
// --json and --hook-envelope output (the envelope exits 0): remove a
// directory by hand, with no command and no --force; anything else by hand
// or with pa dispatch unlock --force, its command.
func boardCheckNamesNoFile(t *testing.T, c binClass, home, kind, shown string) {
	t.Helper()
	line := "agents/demo/spawn-log.json.lock cannot be read: it is " + shown + ", not a lock; "
	command := programFor(home) + " dispatch unlock --force --agent demo" // the one unlock --force below runs
	switch kind {
	case "directory":
		line += "no pa dispatch unlock removes a directory holding more than a lock's record: look at it and remove it by hand"
		command = ""
	case "fifo":
		line += "look at it, then remove it by hand or with " + command + " (it is no writer's lock, so no holder can lose it)"
	default:
		line += "look at it, then remove it by hand or with " + command + " (the link, never its target; it is no writer's lock, so no holder can lose it)"
	}
	r := c.run(t, home, "board", "check", "--agent", "demo")
	r.stdout = withoutIncidentNotes(r.stdout) // the timeouts above
	if r.code != 2 || r.stdout != line+"\n" {
		t.Errorf("board check: exit %d, stdout %q, stderr %q; want exit 2 and %q", r.code, r.stdout, r.stderr, line)
	}
	r = c.run(t, home, "board", "check", "--agent", "demo", "--json")
	var out struct{ Problems []map[string]any }
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || r.code != 2 || len(out.Problems) != 1 {
		t.Fatalf("board check --json: exit %d, stdout %q (%v); want exit 2 and one problem", r.code, r.stdout, err)
	}
	p := out.Problems[0]
	if p["kind"] != "unreadable" || p["path"] != "agents/demo/spawn-log.json.lock" || p["error"] != "it is "+shown+", not a lock" || p["line"] != line {
		t.Errorf("board check --json: %v; want kind unreadable, the lock, what it is and the line %q", p, line)
	}
	if got, ok := p["command"]; command == "" && ok || command != "" && got != command {
		t.Errorf("board check --json: command %v (present %v); want %q", got, ok, command)
	}
	r = c.run(t, home, "board", "check", "--agent", "demo", "--hook-envelope")
	var env struct {
		OK       *bool
		Problems []string
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || r.code != 0 || env.OK == nil || *env.OK || len(env.Problems) != 1 || env.Problems[0] != line {
		t.Errorf("board check --hook-envelope: exit %d, stdout %q (%v); want exit 0 and the one line %q", r.code, r.stdout, err, line)
	}
}
