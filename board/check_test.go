package board_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs"
)

// writeLock puts a lock of pid on host (this host when host is "") under
// agent's spawn-log, acquired at acquiredAt.
func writeLock(t *testing.T, e *estatetest.Estate, agent string, pid int, host string, acquiredAt time.Time) string {
	t.Helper()
	if host == "" {
		host = locking.OSHost().Hostname()
	}
	b, _ := json.Marshal(map[string]any{"pid": pid, "hostname": host, "token": strings.Repeat("ab", 12),
		"acquiredAt": acquiredAt.UTC().Format("2006-01-02T15:04:05.000Z")})
	estatetest.WriteFile(t, e.Dir, locking.LockName(estate.SpawnLogPath(agent)), string(b))
	return string(b)
}

func TestCheckReportsCorruptFiles(t *testing.T) {
	e := estatetest.New(t, estatetest.Classes[0])
	estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("a"), "{\x1b[31m")
	estatetest.WriteFile(t, e.Dir, estate.BoardPath("b"), "nope")
	estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("b"), `{"version":1,"nextId":2,"records":[{"id":1}]}`)
	for _, agent := range []string{"a", "b"} {
		p, err := board.Check(e.FS, agent, board.CheckOptions{})
		if err != nil || len(p) != 1 || p[0].Kind != board.KindCorrupt {
			t.Fatalf("Check(%s) = %+v, %v; want one corrupt problem", agent, p, err)
		}
		if line := p[0].Line(); !strings.Contains(line, "does not parse: want a JSON object with version") || strings.Contains(line, "\x1b") || strings.Contains(line, "Go ") {
			t.Errorf("Check(%s) line %q; want 'does not parse' in plain words and no raw control character", agent, line)
		}
	}
	if _, err := os.Stat(filepath.Join(e.Dir, "agents", "a", "board")); !os.IsNotExist(err) {
		t.Errorf("Check created the board folder (stat: %v); want it read-only", err)
	}
}

// Outside the default estate, the command of a lock-held problem names the
// estate with --home (whole, shell-quoted), so it acts on that estate when
// pasted into another shell; the line stays as the spec has it (leading
// with pa dispatch unlock and the pid, bounded), without the home.
func TestCheckCommandNamesTheEstate(t *testing.T) {
	live := locktest.LivePID(t)
	e := estatetest.New(t, estatetest.Classes[0])
	writeLock(t, e, "demo", live, "", time.Now().Add(-time.Hour))
	later := locking.Options{Now: func() time.Time { return time.Now().Add(time.Hour) }}
	for _, tc := range []struct{ home, want string }{
		{"", "pa dispatch unlock --force --agent demo"},
		{"/tmp/X", "pa --home /tmp/X dispatch unlock --force --agent demo"},
		{"/tmp/my estate/it's", `pa --home '/tmp/my estate/it'\''s' dispatch unlock --force --agent demo`},
		{"/" + strings.Repeat("d", 500), "pa --home /" + strings.Repeat("d", 500) + " dispatch unlock --force --agent demo"},
	} {
		p, err := board.Check(e.FS, "demo", board.CheckOptions{Lock: later, Home: tc.home})
		if err != nil || len(p) != 1 {
			t.Fatalf("home %.20q: Check = %+v, %v; want one problem", tc.home, p, err)
		}
		if p[0].Command != tc.want {
			t.Errorf("home %.20q: command %q; want %q", tc.home, p[0].Command, tc.want)
		}
		line := p[0].Line()
		if lead := fmt.Sprintf("pa dispatch unlock: pid %d ", live); !strings.HasPrefix(line, lead) || strings.Contains(line, "--home") {
			t.Errorf("home %.20q: line %q; want it to lead with %q and name no --home", tc.home, line, lead)
		}
	}
	if got := board.Program("-odd"); got != "pa --home=-odd" {
		t.Errorf("Program(-odd) = %q; want pa --home=-odd", got)
	}
}

// An empty or unreadable lock past the window reads as the lock itself
// ("is an empty lock (0 bytes, age ...)"), not as "held by an empty lock",
// and names --force; a tiny stale window prints as itself, not "0s".
func TestCheckLinesForAnEmptyLockAndATinyWindow(t *testing.T) {
	e := estatetest.New(t, estatetest.Classes[0])
	lock := locking.LockName(estate.SpawnLogPath("demo"))
	later := locking.Options{Now: func() time.Time { return time.Now().Add(time.Hour) }}
	for _, tc := range []struct{ content, what string }{
		{"", "is an empty lock (0 bytes, age 1h0m0s)"},
		{"nope", "is an unreadable lock (4 bytes, not a JSON object with an integer pid, age 1h0m0s)"},
		{"{", "is an unreadable lock (1 byte, not a JSON object with an integer pid, age 1h0m0s)"},
	} {
		estatetest.WriteFile(t, e.Dir, lock, tc.content)
		p, err := board.Check(e.FS, "demo", board.CheckOptions{Lock: later, StaleWindow: time.Nanosecond})
		if err != nil || len(p) != 1 {
			t.Fatalf("%q: Check = %+v, %v; want one problem", tc.content, p, err)
		}
		want := "pa dispatch unlock: agents/demo/spawn-log.json.lock " + tc.what + ", older than the 1ns stale window; use --force " + board.ForceWhen
		if got := p[0].Line(); got != want {
			t.Errorf("%q: line\n%q; want\n%q", tc.content, got, want)
		}
	}
	for d, want := range map[time.Duration]string{time.Nanosecond: "1ns", 1500 * time.Microsecond: "1.5ms", 500 * time.Millisecond: "500ms", time.Second: "1s",
		time.Minute: "60s", 90 * time.Second: "90s", time.Hour: "3600s", 1500 * time.Millisecond: "2s"} {
		if got := board.FormatWindow(d); got != want {
			t.Errorf("FormatWindow(%d) = %q; want %q", d, got, want)
		}
	}
}

// The lock-held line with what decided its holder's state beside the
// worst values a lock of this host can carry (a 240-character agent, a
// 255-character acquiredAt of control characters, a file time in 1902, the
// longest window below that age): it stays within the spec's bound, 362
// characters with the --force sentence, and 360 for a dead holder (which
// the envelope's cut never reaches: a dead holder's evidence always fits),
// the evidence cut to fit where it must (the longest, a holder alive in
// another pid namespace by its kernel lock, always is); --json's
// "evidence" keeps it whole.
func TestLockHeldLineFitsTheEvidenceInTheBound(t *testing.T) {
	agent := strings.Repeat("w", 240)
	opening := "\x1b[2J\x1b]0;x\x07" + strings.Repeat("\u009b", 5)
	acquiredAt := opening + strings.Repeat("z", 255-utf8.RuneCountInString(opening))
	old := time.Date(1902, 1, 1, 0, 0, 0, 0, time.UTC)
	self := locking.OSHost().(locking.IdentityHost).Self()
	const maxStart = "18446744073709551615"
	for _, tc := range []struct {
		name     string
		record   string // the lock's fields after its token: {dev}, {ino} are the file's, {ns} another pid namespace
		pid      int
		held     bool // the test holds the lock's kernel lock
		ownStart bool // needs this process's start time
		evidence string
		state    string // the line's state, up to the evidence
		bound    int
		cut      bool // the evidence is always cut to fit (whatever the hostname)
	}{
		{"alive in another pid namespace by its kernel lock", `"pidNamespace":{ns},"kernelLock":{"dev":{dev},"ino":{ino}},`, 2147483647, true, false,
			locking.EvidenceKernelLock, "alive in another pid namespace of this host", 362, true},
		{"alive by its kernel lock", `"kernelLock":{"dev":{dev},"ino":{ino}},`, 2147483647, true, false,
			locking.EvidenceKernelLock, "alive", 362, false},
		{"dead, its kernel lock free", `"kernelLock":{"dev":{dev},"ino":{ino}},`, 2147483647, false, false,
			"pid 2147483647 is gone and no process holds the lock's kernel lock", "dead", 360, false},
		{"dead, its pid reused", `"startTime":` + maxStart + `,`, os.Getpid(), false, true,
			"started at", "dead", 360, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.ownStart && self.StartTime == 0 {
				t.Skip("this system says no process's start time")
			}
			estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
				lock := locking.LockName(estate.SpawnLogPath(agent))
				estatetest.WriteFile(t, e.Dir, lock, "{}")
				path := filepath.Join(e.Dir, filepath.FromSlash(lock))
				fi, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				key, ok := vfs.KeyOf(fi)
				if !ok && strings.Contains(tc.record, "kernelLock") {
					t.Skip("this system gives no file's device and inode")
				}
				at, _ := json.Marshal(acquiredAt)
				rec := fmt.Sprintf(`{"pid":%d,"hostname":%q,"token":"%s",`, tc.pid, locking.OSHost().Hostname(), strings.Repeat("ab", 12)) +
					strings.NewReplacer("{dev}", fmt.Sprint(key.Dev), "{ino}", fmt.Sprint(key.Ino), "{ns}", fmt.Sprint(self.PIDNamespace+1)).Replace(tc.record) +
					`"acquiredAt":` + string(at) + `}`
				f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.WriteString(rec); err != nil {
					t.Fatal(err)
				}
				f.Close()
				if err := os.Chtimes(path, old, old); err != nil {
					t.Skipf("this file system keeps no file time in 1902: %v", err)
				}
				if tc.held {
					k, err := e.FS.OpenFile(lock, vfs.ReadFlags, 0)
					if err != nil {
						t.Fatal(err)
					}
					defer k.Close()
					if err := vfs.TryLock(k, lock); err != nil {
						t.Skipf("no kernel lock on this volume: %v", err)
					}
				}
				h, err := locking.Inspect(e.FS, estate.SpawnLogPath(agent), locking.Options{})
				if err != nil {
					t.Fatal(err)
				}
				for _, window := range []time.Duration{0, (h.Age - time.Second).Truncate(time.Hour) - time.Second} {
					p, err := board.Check(e.FS, agent, board.CheckOptions{StaleWindow: window})
					if err != nil || len(p) != 1 || p[0].Kind != board.KindLockHeld {
						t.Fatalf("window %s: Check = %+v, %v; want one lock-held problem", window, p, err)
					}
					line := p[0].Line()
					lead := fmt.Sprintf("pa dispatch unlock: pid %d on host \"%s\" (%s", tc.pid, locking.OSHost().Hostname(), tc.state)
					if n := utf8.RuneCountInString(line); n > tc.bound || !strings.HasPrefix(line, lead) {
						t.Errorf("window %s: the line is %d characters: %q; want at most %d, leading with %q", window, n, line, tc.bound, lead)
					}
					if tc.cut && strings.Contains(line, h.Evidence) {
						t.Errorf("window %s: line %q holds the whole evidence; want it cut", window, line)
					}
					if got := p[0].Holder.Evidence; got != h.Evidence || !strings.Contains(got, tc.evidence) {
						t.Errorf("window %s: the problem's evidence %q; want %q whole, with %q", window, got, h.Evidence, tc.evidence)
					}
				}
			})
		})
	}
}
