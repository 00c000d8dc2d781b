package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/internal/termsafe"
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
		p, err := dispatch.Check(e.FS, "demo", dispatch.CheckOptions{Lock: later})
		if err != nil || len(p) != 1 {
			t.Fatalf("home %.20q: Check = %+v, %v; want one problem", tc.home, p, err)
		}
		if problemCommand(tc.home, p[0]) != tc.want {
			t.Errorf("home %.20q: command %q; want %q", tc.home, problemCommand(tc.home, p[0]), tc.want)
		}
		// The line names the same whole command, or where a --home too
		// long for its bound leaves it no room, where the command is.
		line := problemLine(tc.home, p[0])
		lead := fmt.Sprintf("agents/demo/spawn-log.json.lock held by pid %d ", live)
		clear := tc.want
		if len(tc.home) > 100 {
			clear = commandInJSON
		}
		end := "; clear it with " + clear + ", " + forceOnlyWhen
		if !strings.HasPrefix(line, lead) || !strings.HasSuffix(line, end) || utf8.RuneCountInString(line) > maxHeldLine {
			t.Errorf("home %.20q: line %q; want it to lead with %q and end with %q, within %d characters", tc.home, line, lead, end, maxHeldLine)
		}
	}
	if got := programFor("-odd"); got != "pa --home=-odd" {
		t.Errorf("programFor(-odd) = %q; want pa --home=-odd", got)
	}
}

func TestCheckLinesForAnEmptyLockAndATinyWindow(t *testing.T) {
	e := estatetest.New(t, estatetest.Classes[0])
	lock := locking.LockName(estate.SpawnLogPath("demo"))
	later := locking.Options{Now: func() time.Time { return time.Now().Add(time.Hour) }}
	for _, tc := range []struct{ content, what string }{
		{"", "is an empty lock (0 bytes, age 1h0m0s)"},
		{"nope", "is an unreadable lock (4 bytes, not a JSON object with an integer pid, age 1h0m0s)"},
		{"{", "is an unreadable lock (1 byte, not a JSON object with an integer pid, age 1h0m0s)"},
		// A lock past the cap is unreadable for its length alone, and
		// said so, whatever it holds.
		{`{"pid":1}` + strings.Repeat(" ", 65537-9), "is an unreadable lock (65537 bytes, longer than the 65536 bytes a lock may hold, age 1h0m0s)"},
	} {
		estatetest.WriteFile(t, e.Dir, lock, tc.content)
		p, err := dispatch.Check(e.FS, "demo", dispatch.CheckOptions{Lock: later, StaleWindow: time.Nanosecond})
		if err != nil || len(p) != 1 {
			t.Fatalf("%.20q: Check = %+v, %v; want one problem", tc.content, p, err)
		}
		want := "agents/demo/spawn-log.json.lock " + tc.what + ", older than the 1ns stale window; clear it with pa dispatch unlock --force --agent demo, " + forceOnlyWhen
		if got := problemLine("", p[0]); got != want {
			t.Errorf("%.20q: line\n%q; want\n%q", tc.content, got, want)
		}
	}
	for d, want := range map[time.Duration]string{time.Nanosecond: "1ns", 1500 * time.Microsecond: "1.5ms", 500 * time.Millisecond: "500ms", time.Second: "1s",
		time.Minute: "60s", 90 * time.Second: "90s", time.Hour: "3600s", 1500 * time.Millisecond: "2s"} {
		if got := formatWindow(d); got != want {
			t.Errorf("FormatWindow(%d) = %q; want %q", d, got, want)
		}
	}
}

func TestLockHeldLineFitsTheEvidenceInTheBound(t *testing.T) {
	agent := strings.Repeat("w", 240)
	opening := "\x1b[2J\x1b]0;x\x07" + strings.Repeat("\u009b", 5)
	acquiredAt := opening + strings.Repeat("z", 255-utf8.RuneCountInString(opening))
	old := time.Date(1902, 1, 1, 0, 0, 0, 0, time.UTC)
	self := locking.OSHost().(lockspec.IdentityHost).Self()
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
					p, err := dispatch.Check(e.FS, agent, dispatch.CheckOptions{StaleWindow: window})
					if err != nil || len(p) != 1 || p[0].Kind != dispatch.KindLockHeld {
						t.Fatalf("window %s: Check = %+v, %v; want one lock-held problem", window, p, err)
					}
					line := problemLine("", p[0])
					lead := fmt.Sprintf("agents/wwwwwwwwwwwwwwwwwwwwwwwwwwwww.../spawn-log.json.lock held by pid %d on host \"%s\" (%s", tc.pid, locking.OSHost().Hostname(), tc.state)
					// The 240-character agent leaves the command no room:
					// the line says where it is, never a command cut short.
					end := "; clear it with " + commandInJSON
					if tc.bound == 362 {
						end += ", " + forceOnlyWhen
					}
					if n := utf8.RuneCountInString(line); n > tc.bound || !strings.HasPrefix(line, lead) || !strings.HasSuffix(line, end) {
						t.Errorf("window %s: the line is %d characters: %q; want at most %d, leading with %q, ending with %q", window, n, line, tc.bound, lead, end)
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

func TestLockHeldLineBoundWithTheWorstValues(t *testing.T) {
	agent := strings.Repeat("w", 240)
	opening := "\x1b[2J\x1b]0;x\x07" + strings.Repeat("\u009b", 5)
	acquiredAt := opening + strings.Repeat("z", 255-utf8.RuneCountInString(opening))
	old := time.Date(1902, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ name, host string }{
		{"quotes", strings.Repeat(`"`, 255)},
		{"backslashes", strings.Repeat(`\`, 255)},
		{"quotes and a backslash", strings.Repeat(`"`, 254) + `\`},
		{"escapes", strings.Repeat("\x1b", 255)},
	} {
		host := tc.host
		t.Run(tc.name, func(t *testing.T) {
			estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
				lock := locking.LockName(estate.SpawnLogPath(agent))
				b, _ := json.Marshal(map[string]any{"pid": 2147483647, "hostname": host, "token": strings.Repeat("5a", 12), "acquiredAt": acquiredAt})
				estatetest.WriteFile(t, e.Dir, lock, string(b))
				if err := os.Chtimes(filepath.Join(e.Dir, filepath.FromSlash(lock)), old, old); err != nil {
					t.Skipf("this file system keeps no file time in 1902: %v", err)
				}
				h, err := locking.Inspect(e.FS, estate.SpawnLogPath(agent), locking.Options{})
				if err != nil {
					t.Fatal(err)
				}
				// The default window, and the longest window the age still
				// passes: its whole hours, minutes and seconds all shown.
				for _, window := range []time.Duration{0, (h.Age - time.Second).Truncate(time.Hour) - time.Second} {
					p, err := dispatch.Check(e.FS, agent, dispatch.CheckOptions{StaleWindow: window})
					if err != nil || len(p) != 1 || p[0].Kind != dispatch.KindLockHeld {
						t.Fatalf("window %s: Check = %+v, %v; want one lock-held problem", window, p, err)
					}
					line := problemLine("/"+strings.Repeat("d", 500), p[0])
					if n := utf8.RuneCountInString(line); n > 362 {
						t.Errorf("host %.4q, window %s: the line is %d characters; want at most 362: %q", host, window, n, line)
					}
					if !strings.HasPrefix(line, "agents/wwwwwwwwwwwwwwwwwwwwwwwwwwwww.../spawn-log.json.lock held by pid 2147483647 on host \"") ||
						!strings.HasSuffix(line, `; clear it with the "command" this check prints with --json, only once the holder's process is gone or stuck, never while it still runs`) ||
						strings.Contains(line, "dispatch unlock") {
						t.Errorf("host %.4q: line %q; want it to lead with the lock and the pid, name where the command is, never a command cut short, and name --force", host, line)
					}
					if strings.IndexFunc(line, termsafe.Unsafe) >= 0 || !utf8.ValidString(line) {
						t.Errorf("host %.4q: line %q holds a raw control character", host, line)
					}
					if p[0].Holder.Hostname != host || p[0].Holder.AcquiredAt != acquiredAt || p[0].Holder.PID != 2147483647 {
						t.Errorf("host %.4q: holder %+v; want the values whole", host, p[0].Holder)
					}
				}
			})
		})
	}
}

func TestAgentFlagAndUnlockCommandLiterals(t *testing.T) {
	for _, tc := range []struct{ agent, flag string }{
		{"demo", "--agent demo"},
		{"a b", "--agent 'a b'"},
		{"it's", `--agent 'it'\''s'`},
		{"-x", "--agent=-x"},
		{"-a b", "--agent='-a b'"},
		{"--x's", `--agent='--x'\''s'`},
		{"a$b", "--agent 'a$b'"},
		{"~x", "--agent '~x'"},
		{"x*", "--agent 'x*'"},
		{"é", "--agent 'é'"},
		{"v1.2_a-b,c:d@e%f+g=h", "--agent v1.2_a-b,c:d@e%f+g=h"},
	} {
		if got := agentFlag(tc.agent); got != tc.flag {
			t.Errorf("AgentFlag(%q) = %q; want %q", tc.agent, got, tc.flag)
		}
		dead := locking.Holder{State: locking.StateDead}
		if got, want := unlockCommand("", tc.agent, dead), "pa dispatch unlock "+tc.flag; got != want {
			t.Errorf("UnlockCommand(dead, %q) = %q; want %q", tc.agent, got, want)
		}
		for _, s := range []locking.State{locking.StateAlive, locking.StateOtherHost, locking.StateUnreadable} {
			if got, want := unlockCommand("/tmp/X", tc.agent, locking.Holder{State: s}), "pa --home /tmp/X dispatch unlock --force "+tc.flag; got != want {
				t.Errorf("UnlockCommand(%s, %q) = %q; want %q", s, tc.agent, got, want)
			}
		}
	}
	for s, want := range map[string]string{"": "''", "a b": "'a b'", "it's": `'it'\''s'`, "''": `''\'''\'''`, "plain": "plain", "-x": "-x"} {
		if got := shellWord(s); got != want {
			t.Errorf("ShellQuote(%q) = %q; want %q", s, got, want)
		}
	}
}

func TestCheckCommandQuotesTheAgent(t *testing.T) {
	e := estatetest.New(t, estatetest.Classes[0])
	later := locking.Options{Now: func() time.Time { return time.Now().Add(time.Hour) }}
	for agent, want := range map[string]string{
		"a b":  "pa dispatch unlock --force --agent 'a b'",
		"-x":   "pa dispatch unlock --force --agent=-x",
		"it's": `pa dispatch unlock --force --agent 'it'\''s'`,
	} {
		writeLock(t, e, agent, 2147483647, "elsewhere", time.Now())
		p, err := dispatch.Check(e.FS, agent, dispatch.CheckOptions{Lock: later})
		if err != nil || len(p) != 1 || problemCommand("", p[0]) != want {
			t.Errorf("agent %q: Check = %+v, %v; want the command %q", agent, p, err, want)
		}
	}
}

// The lines of the other kinds of problem: the file as shown, then what is
// wrong; a not-on-board line names both files, then the whole command that
// puts the dispatch on the board (with --home outside the default estate,
// the agent whole and shell-quoted), which is its --json "command" too.
func TestProblemLineOfEachKind(t *testing.T) {
	long := strings.Repeat("x", 40)
	for _, tc := range []struct {
		home    string
		p       dispatch.Problem
		want    string
		command string
	}{
		{"/tmp/X", dispatch.Problem{Kind: dispatch.KindCorrupt, Agent: "a", Path: estate.BoardPath("a"), Err: "want a JSON object with version and items: it is empty"},
			"agents/a/board/board.json does not parse: want a JSON object with version and items: it is empty", ""},
		{"/tmp/X", dispatch.Problem{Kind: dispatch.KindUnreadable, Agent: "c", Path: estate.SpawnLogPath("c"), Err: "it is a directory, not a regular file"},
			"agents/c/spawn-log.json cannot be read: it is a directory, not a regular file; look at it and fix or move it by hand", ""},
		{"/tmp/X", dispatch.Problem{Kind: dispatch.KindNotOnBoard, Agent: "a", Path: estate.BoardPath("a"), DispatchID: 3},
			"dispatch 3 is in agents/a/spawn-log.json but not on the board agents/a/board/board.json; put it there with pa --home /tmp/X board repair --agent a",
			"pa --home /tmp/X board repair --agent a"},
		{"", dispatch.Problem{Kind: dispatch.KindNotOnBoard, Agent: "it's", Path: estate.BoardPath("it's"), DispatchID: 3},
			`dispatch 3 is in agents/it's/spawn-log.json but not on the board agents/it's/board/board.json; put it there with pa board repair --agent 'it'\''s'`,
			`pa board repair --agent 'it'\''s'`},
		{"/tmp/a b", dispatch.Problem{Kind: dispatch.KindNotOnBoard, Agent: "-" + long, Path: estate.BoardPath("-" + long), DispatchID: 12},
			"dispatch 12 is in agents/-xxxxxxxxxxxxxxxxxxxxxxxxxxxx.../spawn-log.json but not on the board agents/-xxxxxxxxxxxxxxxxxxxxxxxxxxxx.../board/board.json; put it there with pa --home '/tmp/a b' board repair --agent=-" + long,
			"pa --home '/tmp/a b' board repair --agent=-" + long},
		{"", dispatch.Problem{Kind: dispatch.KindListedTwice, Agent: "a", Path: estate.SpawnLogPath("a"), Times: 2},
			"agents/a/spawn-log.json is listed twice in its folder, a copy under each entry (a power cut inside an exFAT rename over it, say); the next pa dispatch open --agent a that writes it removes the extra entries, keeping the copy pa reads (each holds every dispatch that was reported)", ""},
		{"/tmp/X", dispatch.Problem{Kind: dispatch.KindListedTwice, Agent: "a", Path: estate.BoardPath("a"), Times: 3},
			"agents/a/board/board.json is listed 3 times in its folder, a copy under each entry (a power cut inside an exFAT rename over it, say); the next pa --home /tmp/X dispatch open --agent a that writes it removes the extra entries, keeping the copy pa reads (each holds every dispatch that was reported)", ""},
		{"", dispatch.Problem{Kind: dispatch.KindBehindBoard, Agent: "a", Path: estate.BoardPath("a"), DispatchID: 3, NextID: 1},
			"agents/a/board/board.json lists dispatch 3, but the spawn-log's next id is 1: the spawn-log is behind its board (its records were lost, or it is an older copy); pa dispatch open refuses until the spawn-log is put back from a copy, or the board is moved aside (keep it) to start a new board from the spawn-log", ""},
	} {
		if got := problemLine(tc.home, tc.p); got != tc.want {
			t.Errorf("%s: line %q; want %q", tc.p.Kind, got, tc.want)
		}
		if got := problemCommand(tc.home, tc.p); got != tc.command {
			t.Errorf("%s: command %q; want %q", tc.p.Kind, got, tc.command)
		}
	}
}
