package dispatch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
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

func TestCheckReportsCorruptFiles(t *testing.T) {
	e := estatetest.New(t, estatetest.Classes[0])
	estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("a"), "{\x1b[31m")
	estatetest.WriteFile(t, e.Dir, estate.BoardPath("b"), "nope")
	estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath("b"), `{"version":1,"nextId":2,"records":[{"id":1}]}`)
	for _, agent := range []string{"a", "b"} {
		p, err := dispatch.Check(e.FS, agent, dispatch.CheckOptions{})
		if err != nil || len(p) != 1 || p[0].Kind != dispatch.KindCorrupt {
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
		p, err := dispatch.Check(e.FS, "demo", dispatch.CheckOptions{Lock: later, Home: tc.home})
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
	if got := dispatch.Program("-odd"); got != "pa --home=-odd" {
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
		p, err := dispatch.Check(e.FS, "demo", dispatch.CheckOptions{Lock: later, StaleWindow: time.Nanosecond})
		if err != nil || len(p) != 1 {
			t.Fatalf("%q: Check = %+v, %v; want one problem", tc.content, p, err)
		}
		want := "pa dispatch unlock: agents/demo/spawn-log.json.lock " + tc.what + ", older than the 1ns stale window; use --force " + dispatch.ForceWhen
		if got := p[0].Line(); got != want {
			t.Errorf("%q: line\n%q; want\n%q", tc.content, got, want)
		}
	}
	for d, want := range map[time.Duration]string{time.Nanosecond: "1ns", 1500 * time.Microsecond: "1.5ms", 500 * time.Millisecond: "500ms", time.Second: "1s",
		time.Minute: "60s", 90 * time.Second: "90s", time.Hour: "3600s", 1500 * time.Millisecond: "2s"} {
		if got := dispatch.FormatWindow(d); got != want {
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
					p, err := dispatch.Check(e.FS, agent, dispatch.CheckOptions{StaleWindow: window})
					if err != nil || len(p) != 1 || p[0].Kind != dispatch.KindLockHeld {
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

// The spec's bound on the lock-held line (spec: pa board check): with the
// worst values a lock can carry (a 240-character agent, a 255-character
// host made of '"' or '\', pid 2147483647, a 255-character acquiredAt full
// of control characters, a file time in 1902, and the longest stale window
// below that age) the line leads with pa dispatch unlock and the pid, is at
// most 362 characters, names --force, and holds no raw control character.
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
					p, err := dispatch.Check(e.FS, agent, dispatch.CheckOptions{StaleWindow: window, Home: "/" + strings.Repeat("d", 500)})
					if err != nil || len(p) != 1 || p[0].Kind != dispatch.KindLockHeld {
						t.Fatalf("window %s: Check = %+v, %v; want one lock-held problem", window, p, err)
					}
					line := p[0].Line()
					if n := utf8.RuneCountInString(line); n > 362 {
						t.Errorf("host %.4q, window %s: the line is %d characters; want at most 362: %q", host, window, n, line)
					}
					if !strings.HasPrefix(line, "pa dispatch unlock: pid 2147483647 on host \"") ||
						!strings.HasSuffix(line, "; use --force only once the holder's process is gone or stuck, never while it still runs") {
						t.Errorf("host %.4q: line %q; want it to lead with pa dispatch unlock and the pid and name --force", host, line)
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

// The commands a message names quote the agent for a POSIX shell. The
// expected strings are written out here, not built with the helpers.
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
		if got := dispatch.AgentFlag(tc.agent); got != tc.flag {
			t.Errorf("AgentFlag(%q) = %q; want %q", tc.agent, got, tc.flag)
		}
		dead := locking.Holder{State: locking.StateDead}
		if got, want := dispatch.UnlockCommand("", tc.agent, dead), "pa dispatch unlock "+tc.flag; got != want {
			t.Errorf("UnlockCommand(dead, %q) = %q; want %q", tc.agent, got, want)
		}
		for _, s := range []locking.State{locking.StateAlive, locking.StateOtherHost, locking.StateUnreadable} {
			if got, want := dispatch.UnlockCommand("/tmp/X", tc.agent, locking.Holder{State: s}), "pa --home /tmp/X dispatch unlock --force "+tc.flag; got != want {
				t.Errorf("UnlockCommand(%s, %q) = %q; want %q", s, tc.agent, got, want)
			}
		}
	}
	for s, want := range map[string]string{"": "''", "a b": "'a b'", "it's": `'it'\''s'`, "''": `''\'''\'''`, "plain": "plain", "-x": "-x"} {
		if got := dispatch.ShellQuote(s); got != want {
			t.Errorf("ShellQuote(%q) = %q; want %q", s, got, want)
		}
	}
}

// A lock-held problem's command quotes the agent: through Check.
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
		if err != nil || len(p) != 1 || p[0].Command != want {
			t.Errorf("agent %q: Check = %+v, %v; want the command %q", agent, p, err, want)
		}
	}
}

// Opening a dispatch whose id is on the board already (an item put there
// by hand, or left by an earlier run) does not put it there twice: the
// board keeps one item per dispatch id, the first one, byte for byte.
func TestOpenDispatchPutsADispatchOnTheBoardOnce(t *testing.T) {
	estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
		estatetest.WriteFile(t, e.Dir, estate.BoardPath("demo"), `{"version":1,"items":[{"dispatchId":1,"title":"kept","addedAt":"2020-01-01T00:00:00.000Z","note":"mine"}]}`)
		rec, err := dispatch.Open(context.Background(), e.FS, "demo", "new", opts())
		if err != nil || rec.ID != 1 {
			t.Fatalf("Open = %+v, %v; want dispatch 1", rec, err)
		}
		b, err := board.Read(e.FS, "demo")
		if err != nil || len(b.Items) != 1 || b.Items[0].DispatchID != 1 || b.Items[0].Title != "kept" {
			t.Fatalf("board %+v, %v; want the one item of dispatch 1 as it was", b, err)
		}
		raw, err := os.ReadFile(filepath.Join(e.Dir, filepath.FromSlash(estate.BoardPath("demo"))))
		if err != nil || strings.Count(string(raw), `"dispatchId"`) != 1 || !strings.Contains(string(raw), `"note": "mine"`) {
			t.Errorf("board file %q, %v; want one item, its unknown field kept", raw, err)
		}
		// A second open adds dispatch 2 once, beside it.
		if rec, err := dispatch.Open(context.Background(), e.FS, "demo", "next", opts()); err != nil || rec.ID != 2 {
			t.Fatalf("second Open = %+v, %v; want dispatch 2", rec, err)
		}
		b, err = board.Read(e.FS, "demo")
		if err != nil || len(b.Items) != 2 || b.Items[0].DispatchID != 1 || b.Items[1].DispatchID != 2 || b.Items[1].Title != "next" {
			t.Errorf("board %+v, %v; want dispatches 1 and 2, once each", b, err)
		}
	})
}

// writeEstate puts n records on agent's spawn-log and n-1 of them on its
// board (the last one is missing), laid out as pa writes them.
func writeEstate(t *testing.T, e *estatetest.Estate, agent string, n int) {
	t.Helper()
	var log, items strings.Builder
	log.WriteString("{\n  \"version\": 1,\n  \"nextId\": " + strconv.Itoa(n+1) + ",\n  \"records\": [")
	items.WriteString("{\n  \"version\": 1,\n  \"items\": [")
	for i := 1; i <= n; i++ {
		id := strconv.Itoa(i)
		if i > 1 {
			log.WriteString(",")
		}
		log.WriteString("\n    {\n      \"id\": " + id + ",\n      \"agent\": \"" + agent + "\",\n      \"title\": \"t\",\n      \"openedAt\": \"2026-01-01T00:00:00.000Z\",\n      \"pid\": 1,\n      \"hostname\": \"h\"\n    }")
		if i < n {
			if i > 1 {
				items.WriteString(",")
			}
			items.WriteString("\n    {\n      \"dispatchId\": " + id + ",\n      \"title\": \"t\",\n      \"addedAt\": \"2026-01-01T00:00:00.000Z\"\n    }")
		}
	}
	log.WriteString("\n  ]\n}\n")
	items.WriteString("\n  ]\n}\n")
	estatetest.WriteFile(t, e.Dir, estate.SpawnLogPath(agent), log.String())
	estatetest.WriteFile(t, e.Dir, estate.BoardPath(agent), items.String())
}

// Check is linear in the records and items (a set of the board's ids, not
// a look through the board per record): twenty times the dispatches take
// far less than the four hundred times as long a quadratic check would
// (at most 200 times). Each size is timed five times, the two interleaved,
// and the best of each is compared, so that a loaded machine (other test
// binaries on the same cores) does not decide it.
func TestCheckGrowsLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a spawn-log of 40,000 records")
	}
	e := estatetest.New(t, estatetest.Classes[0])
	const small, large = 2000, 40000
	writeEstate(t, e, "small", small)
	writeEstate(t, e, "large", large)
	timed := func(agent string, want int) time.Duration {
		t0 := time.Now()
		p, err := dispatch.Check(e.FS, agent, dispatch.CheckOptions{})
		d := time.Since(t0)
		if err != nil || len(p) != 1 || p[0].Kind != dispatch.KindNotOnBoard || p[0].DispatchID != want {
			t.Fatalf("Check(%s) = %+v, %v; want dispatch %d not on the board", agent, p, err, want)
		}
		return d
	}
	s, l := time.Hour, time.Hour
	for range 5 {
		s = min(s, timed("small", small))
		l = min(l, timed("large", large))
	}
	ratio := float64(l) / float64(s)
	t.Logf("Check took %v for %d dispatches and %v for %d: %.0f times as long", s, small, l, large, ratio)
	if ratio > 200 {
		t.Errorf("Check took %.0f times as long for twenty times the dispatches; want it linear (at most 200 times)", ratio)
	}
}
