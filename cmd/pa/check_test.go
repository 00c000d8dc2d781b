package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// Row R23 through the binary: a lock held past the stale window (its
// acquiredAt and file time an hour old) by a live holder, with a
// 240-character agent and a 255-character host, gives one lock-held line
// that leads with pa dispatch unlock and the pid, in the plain, --json and
// --hook-envelope output (the envelope exits 0, and the line is whole under
// its cut); board check stays read-only; inside the window nothing is
// reported.
func TestBoardCheckReportsAHeldLock(t *testing.T) {
	live := locktest.LivePID(t)
	long := strings.Repeat("w", 240)
	cases := []struct{ name, agent, host string }{
		{"this host", "demo", hostname()},
		{"240-character agent, 255-character host", long, strings.Repeat("h", 255)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			eachBinClass(t, func(t *testing.T, c binClass) {
				home := t.TempDir()
				lock := "agents/" + tc.agent + "/spawn-log.json.lock"
				estatetest.WriteFile(t, home, lock, lockJSON(live, tc.host, time.Now()))

				if r := c.run(t, home, "board", "check"); r.code != 0 || r.stdout != "" {
					t.Errorf("inside the window: exit %d, stdout %q; want 0 and nothing", r.code, r.stdout)
				}
				estatetest.WriteFile(t, home, lock, lockJSON(live, tc.host, time.Now().Add(-time.Hour)))
				chtimes(t, home, lock, time.Now().Add(-time.Hour))
				before := estatetest.Snapshot(t, home)

				lead := fmt.Sprintf("pa dispatch unlock: pid %d on host ", live)
				r := c.run(t, home, "board", "check", "--agent", tc.agent)
				if r.code != 2 || !strings.HasPrefix(r.stdout, lead) || strings.Count(r.stdout, "\n") != 1 {
					t.Errorf("plain: exit %d, stdout %q; want exit 2 and one line leading with %q", r.code, r.stdout, lead)
				}
				if n := utf8.RuneCountInString(strings.TrimSuffix(r.stdout, "\n")); n > 360 {
					t.Errorf("plain: the line is %d characters; want it whole under the 360 cut", n)
				}

				r = c.run(t, home, "board", "check", "--json")
				var js struct {
					Problems []struct {
						Kind, Path, LockPath, Line, Command string
						Holder                              struct {
							PID      int
							Hostname string
						}
					}
				}
				if err := json.Unmarshal([]byte(r.stdout), &js); err != nil || r.code != 2 || len(js.Problems) != 1 {
					t.Fatalf("--json: exit %d, stdout %q (%v); want exit 2 and one problem", r.code, r.stdout, err)
				}
				p := js.Problems[0]
				if p.Kind != "lock-held" || p.Path != lock || p.LockPath != lock || p.Holder.PID != live || p.Holder.Hostname != tc.host ||
					!strings.HasPrefix(p.Line, lead) || p.Command != board.Program(home)+" dispatch unlock --force --agent "+tc.agent {
					t.Errorf("--json: problem %+v; want lock-held with the whole path, host and agent", p)
				}

				r = c.run(t, home, "board", "check", "--hook-envelope")
				var env struct {
					OK       bool
					Problems []string
				}
				if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || r.code != 0 || env.OK || len(env.Problems) != 1 {
					t.Fatalf("--hook-envelope: exit %d, stdout %q (%v); want exit 0 and one problem", r.code, r.stdout, err)
				}
				if env.Problems[0] != p.Line || !strings.HasPrefix(env.Problems[0], lead) {
					t.Errorf("--hook-envelope line %q; want the whole line %q", env.Problems[0], p.Line)
				}
				if after := estatetest.Snapshot(t, home); !maps.Equal(before, after) {
					t.Errorf("board check changed the estate")
				}
			})
		})
	}
}

// The envelope cuts each line at 360 characters and still exits 0; a
// dispatch not on the board is reported (exit 2 without the envelope).
func TestBoardCheckEnvelopeCutsLines(t *testing.T) {
	home := t.TempDir()
	c := binClasses[0]
	estatetest.WriteFile(t, home, "agents/demo/spawn-log.json", `{"version":1,"nextId":3,"records":[{"id":1},{"id":2}]}`)
	estatetest.WriteFile(t, home, "agents/demo/board/board.json", `{"version":1,"items":[{"dispatchId":1}]}`)
	estatetest.WriteFile(t, home, "agents/bad/spawn-log.json", `{"version":1,"nextId":1,"records":[],"x":"`+strings.Repeat("y", 500)+`"}`)
	r := c.run(t, home, "board", "check")
	if r.code != 2 || !strings.Contains(r.stdout, "dispatch 2 is in agents/demo/spawn-log.json but not on the board") {
		t.Errorf("plain: exit %d, stdout %q; want exit 2 naming dispatch 2", r.code, r.stdout)
	}
	r = c.run(t, home, "board", "check", "--hook-envelope")
	var env struct{ Problems []string }
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || r.code != 0 || len(env.Problems) != 2 {
		t.Fatalf("--hook-envelope: exit %d, stdout %q (%v); want exit 0 and two problems", r.code, r.stdout, err)
	}
	for _, l := range env.Problems {
		if utf8.RuneCountInString(l) > 360 {
			t.Errorf("envelope line of %d characters; want at most 360", utf8.RuneCountInString(l))
		}
	}
}

// --hook-envelope always exits 0 with one JSON object: even a bad agent
// name is a line inside it, and nothing is touched.
func TestBoardCheckEnvelopeAlwaysExitsZero(t *testing.T) {
	home := t.TempDir()
	r := binClasses[0].run(t, home, "board", "check", "--agent", "../x", "--hook-envelope")
	var env struct {
		OK       bool
		Problems []string
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || r.code != 0 || env.OK || len(env.Problems) != 1 ||
		!strings.HasPrefix(env.Problems[0], "pa: invalid agent name") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 0 and the usage error inside the envelope", r.code, r.stdout, r.stderr)
	}
	if left := estatetest.Files(t, home); len(left) != 0 {
		t.Errorf("the estate holds %q; want nothing", left)
	}
}
