package board_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/locking"
)

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
					p, err := board.Check(e.FS, agent, board.CheckOptions{StaleWindow: window, Home: "/" + strings.Repeat("d", 500)})
					if err != nil || len(p) != 1 || p[0].Kind != board.KindLockHeld {
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
		if got := board.AgentFlag(tc.agent); got != tc.flag {
			t.Errorf("AgentFlag(%q) = %q; want %q", tc.agent, got, tc.flag)
		}
		dead := locking.Holder{State: locking.StateDead}
		if got, want := board.UnlockCommand("", tc.agent, dead), "pa dispatch unlock "+tc.flag; got != want {
			t.Errorf("UnlockCommand(dead, %q) = %q; want %q", tc.agent, got, want)
		}
		for _, s := range []locking.State{locking.StateAlive, locking.StateOtherHost, locking.StateUnreadable} {
			if got, want := board.UnlockCommand("/tmp/X", tc.agent, locking.Holder{State: s}), "pa --home /tmp/X dispatch unlock --force "+tc.flag; got != want {
				t.Errorf("UnlockCommand(%s, %q) = %q; want %q", s, tc.agent, got, want)
			}
		}
	}
	for s, want := range map[string]string{"": "''", "a b": "'a b'", "it's": `'it'\''s'`, "''": `''\'''\'''`, "plain": "plain", "-x": "-x"} {
		if got := board.ShellQuote(s); got != want {
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
		p, err := board.Check(e.FS, agent, board.CheckOptions{Lock: later})
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
		rec, err := board.OpenDispatch(context.Background(), e.FS, "demo", "new", opts())
		if err != nil || rec.ID != 1 {
			t.Fatalf("OpenDispatch = %+v, %v; want dispatch 1", rec, err)
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
		if rec, err := board.OpenDispatch(context.Background(), e.FS, "demo", "next", opts()); err != nil || rec.ID != 2 {
			t.Fatalf("second OpenDispatch = %+v, %v; want dispatch 2", rec, err)
		}
		b, err = board.Read(e.FS, "demo")
		if err != nil || len(b.Items) != 2 || b.Items[0].DispatchID != 1 || b.Items[1].DispatchID != 2 || b.Items[1].Title != "next" {
			t.Errorf("board %+v, %v; want dispatches 1 and 2, once each", b, err)
		}
	})
}
