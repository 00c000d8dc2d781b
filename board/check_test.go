package board_test

import (
	"encoding/json"
	"fmt"
	"maps"
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

// Row R23: a lock held longer than the stale window is a problem whose line
// leads with `pa dispatch unlock` and the holder's pid; inside the window
// it is not; Check is read-only. With a 240-character agent and a
// 255-character host the line stays under the envelope's 360-character cut.
func TestCheckReportsALockHeldPastTheStaleWindow(t *testing.T) {
	live := locktest.LivePID(t)
	dead := locktest.DeadPID(t)
	long := strings.Repeat("g", 240)
	tests := []struct {
		name, agent, host string
		pid               int
		state             string
		force             bool
	}{
		{"live holder", "demo", "", live, "alive", true},
		{"dead holder", "demo", "", dead, "dead", false},
		{"another host", "demo", "elsewhere", live, "on another host", true},
		{"240-character agent, live", long, "", live, "alive", true},
		{"240-character agent, 255-character host", long, strings.Repeat("h", 255), 9999999, "on another host", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			estatetest.Each(t, func(t *testing.T, e *estatetest.Estate) {
				writeLock(t, e, tt.agent, tt.pid, tt.host, time.Now())
				before := estatetest.Snapshot(t, e.Dir)

				// Inside the window: no problem.
				if p, err := board.Check(e.FS, tt.agent, board.CheckOptions{}); err != nil || len(p) != 0 {
					t.Errorf("%s: Check inside the window = %+v, %v; want nothing", tt.name, p, err)
				}
				// Past it (the clock two minutes on): one lock-held problem.
				o := board.CheckOptions{Lock: locking.Options{Now: func() time.Time { return time.Now().Add(2 * time.Minute) }}}
				p, err := board.Check(e.FS, tt.agent, o)
				if err != nil || len(p) != 1 || p[0].Kind != board.KindLockHeld {
					t.Fatalf("%s: Check past the window = %+v, %v; want one lock-held problem", tt.name, p, err)
				}
				h := p[0].Holder
				if h.PID != tt.pid || h.State != tt.state || h.AgeMs < 119_000 || p[0].Path != locking.LockName(estate.SpawnLogPath(tt.agent)) {
					t.Errorf("%s: problem %+v holder %+v; want pid %d, %s, age about 2m, the whole lock path", tt.name, p[0], h, tt.pid, tt.state)
				}
				line := p[0].Line()
				lead := fmt.Sprintf("pa dispatch unlock: pid %d ", tt.pid)
				if !strings.HasPrefix(line, lead) {
					t.Errorf("%s: line %q; want it to lead with %q", tt.name, line, lead)
				}
				if got := strings.Contains(line, "--force "+board.ForceWhen); got != tt.force {
					t.Errorf("%s: line %q: --force sentence present = %v; want %v", tt.name, line, got, tt.force)
				}
				if n := utf8.RuneCountInString(line); n > 362 {
					t.Errorf("%s: line is %d characters; want at most 362", tt.name, n)
				}
				if n := utf8.RuneCountInString(line); n > 360 && !tt.force {
					t.Errorf("%s: line is %d characters; a line without the --force sentence must fit the 360 cut", tt.name, n)
				}
				if !strings.Contains(p[0].Command, "--agent "+tt.agent) {
					t.Errorf("%s: command %q; want the whole agent", tt.name, p[0].Command)
				}
				if after := estatetest.Snapshot(t, e.Dir); !maps.Equal(before, after) {
					t.Errorf("%s: Check changed the estate", tt.name)
				}
			})
		})
	}
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
		if line := p[0].Line(); !strings.Contains(line, "does not parse") || strings.Contains(line, "\x1b") {
			t.Errorf("Check(%s) line %q; want 'does not parse' and no raw control character", agent, line)
		}
	}
	if _, err := os.Stat(filepath.Join(e.Dir, "agents", "a", "board")); !os.IsNotExist(err) {
		t.Errorf("Check created the board folder (stat: %v); want it read-only", err)
	}
}
