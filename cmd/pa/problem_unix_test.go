//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking"
)

// A lock name holding no regular file (a directory, a named pipe, a
// symbolic link) is one unreadable problem at once, with the default stale
// window, saying what is there and what to do: remove a directory by hand
// (no command: no unlock removes one), remove anything else by hand or with
// pa dispatch unlock --force (its command). The spawn-log and board are
// still checked.
func TestCheckReportsALockNameThatIsNoFile(t *testing.T) {
	for _, k := range []struct {
		name, what, todo, command string
		make                      func(p string) error
	}{
		{"directory", "a directory", "; no pa dispatch unlock removes a directory holding more than a lock's record: look at it and remove it by hand", "",
			func(p string) error { return os.Mkdir(p, 0o755) }},
		{"fifo", "a named pipe", "; look at it, then remove it by hand or with pa dispatch unlock --force --agent demo (it is no writer's lock, so no holder can lose it)", "pa dispatch unlock --force --agent demo",
			func(p string) error { return syscall.Mkfifo(p, 0o644) }},
		{"symlink", "a symbolic link", "; look at it, then remove it by hand or with pa dispatch unlock --force --agent demo (the link, never its target; it is no writer's lock, so no holder can lose it)", "pa dispatch unlock --force --agent demo",
			func(p string) error { return os.Symlink("nothing", p) }},
	} {
		estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
			estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("demo"), `{"version":1,"nextId":2,"records":[{"id":1}]}`)
			lock := locking.LockName(estate.SpawnLogPath("demo"))
			if err := k.make(filepath.Join(e.Dir, filepath.FromSlash(lock))); err != nil {
				t.Fatal(err)
			}
			p, err := dispatch.Check(e.FS, "demo", dispatch.CheckOptions{})
			if err != nil || len(p) != 2 || p[0].Kind != dispatch.KindUnreadable || p[0].Path != lock || p[1].Kind != dispatch.KindNotOnBoard {
				t.Fatalf("%s: Check = %+v, %v; want the lock unreadable at once, then dispatch 1 not on the board", k.name, p, err)
			}
			want := lock + " cannot be read: it is " + k.what + ", not a lock" + k.todo
			if got := problemLine("", p[0]); got != want {
				t.Errorf("%s: line\n%q; want\n%q", k.name, got, want)
			}
			if p[0].Err != "it is "+k.what+", not a lock" || problemCommand("", p[0]) != k.command || p[0].Holder != nil {
				t.Errorf("%s: error %q, command %q, holder %+v; want %q, command %q, no holder", k.name, p[0].Err, problemCommand("", p[0]), p[0].Holder, "it is "+k.what+", not a lock", k.command)
			}
			if b, _ := json.Marshal(p[0]); k.command == "" && strings.Contains(string(b), `"command"`) {
				t.Errorf("%s: --json form %s names a command; want none", k.name, b)
			}
		})
	}
}
