package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking/locktest"
)

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

// --json and --hook-envelope together: --hook-envelope wins (the envelope,
// exit 0), and --help says so.
func TestBoardCheckHookEnvelopeWinsOverJSON(t *testing.T) {
	home := t.TempDir()
	c := binClasses[0]
	estatetest.WriteFile(t, home, "agents/demo/spawn-log.json", `{"version":1,"nextId":2,"records":[{"id":1}]}`)
	for _, args := range [][]string{{"--json", "--hook-envelope"}, {"--hook-envelope", "--json"}} {
		r := c.run(t, home, append([]string{"board", "check"}, args...)...)
		var env struct {
			OK       *bool
			Problems []string
		}
		if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || r.code != 0 || env.OK == nil || *env.OK || len(env.Problems) != 1 {
			t.Errorf("%q: exit %d, stdout %q (%v); want exit 0 and the envelope with one line", args, r.code, r.stdout, err)
		}
	}
	r := c.run(t, home, "board", "check", "--help")
	if !strings.Contains(r.stdout, "--hook-envelope wins") {
		t.Errorf("board check --help: %q; want it to say that --hook-envelope wins over --json", r.stdout)
	}
}

// Real `pa dispatch open` processes, one after another, raced by `pa board
// check` runs: no check reports a dispatch as not on the board (each open
// writes its board item before it releases the lock, and the check waits
// for a live holder), and at the end every dispatch is on the board.
func TestBoardCheckRacingOpensGivesNoFalseAlarm(t *testing.T) {
	const opens = 20
	home := t.TempDir()
	c := binClasses[0]
	if r := c.run(t, home, "dispatch", "open", "--agent", "demo"); r.code != 0 {
		t.Fatalf("first open: exit %d, %q", r.code, r.stderr)
	}
	done := make(chan []result, 1)
	go func() {
		var failed []result
		for range opens {
			if r := c.run(t, home, "dispatch", "open", "--agent", "demo"); r.code != 0 {
				failed = append(failed, r)
			}
		}
		done <- failed
	}()
	checks := 0
	for {
		select {
		case failed := <-done:
			for _, r := range failed {
				t.Errorf("an open: exit %d, stderr %q", r.code, r.stderr)
			}
			if checks == 0 {
				t.Log("no check ran while the opens did")
			}
			if r := c.run(t, home, "board", "check", "--agent", "demo"); r.code != 0 || r.stdout != "" {
				t.Errorf("the check after the opens: exit %d, stdout %q, stderr %q; want exit 0 and nothing", r.code, r.stdout, r.stderr)
			}
			return
		default:
		}
		checks++
		if r := c.run(t, home, "board", "check", "--agent", "demo"); r.code != 0 || r.stdout != "" {
			t.Errorf("check %d while the opens run: exit %d, stdout %q, stderr %q; want exit 0 and nothing", checks, r.code, r.stdout, r.stderr)
		}
	}
}

// board check over a lock held past the stale window says which evidence
// decided its holder's state: in its line, and in --json as the holder's
// "evidence", whole, only where there is one. A lock of the spec's four
// fields has none: its holder object is as before, byte for byte, with
// the same keys in the same order. A holder in another pid namespace whose
// lock claims no kernel lock has none either: its state says it.
func TestBoardCheckSaysWhichEvidenceDecided(t *testing.T) {
	c := binClasses[0]
	live := locktest.LivePID(t)
	for _, tc := range []struct {
		name      string
		holder    func(t *testing.T, home string) int // sets the lock up, returns its pid
		state     string                              // --json "state"
		evidence  string                              // --json "evidence", "" for none
		described string                              // the state as the line shows it
	}{
		{"four fields", func(t *testing.T, home string) int {
			estatetest.WriteFile(t, home, demoLog+".lock", lockJSON(live, hostname(), time.Now().Add(-time.Hour)))
			return live
		}, "alive", "", "alive"},
		{"this namespace", func(t *testing.T, home string) int {
			return startHolder(t, home, false).pid()
		}, "alive", "holds the lock's kernel lock", "alive: holds the lock's kernel lock"},
		{"another namespace", func(t *testing.T, home string) int {
			startHolder(t, home, true)
			return 1
		}, "alive", "holds the lock's kernel lock", "alive in another pid namespace of this host: holds the lock's kernel lock"},
		{"another namespace, no kernel lock claimed", func(t *testing.T, home string) int {
			startHolder(t, home, true)
			dropKernelClaim(t, home)
			return 1
		}, "in another pid namespace of this host", "", "in another pid namespace of this host"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The default estate, ~/.pa: its command names no --home, which
			// leaves the line room for the whole evidence.
			user, home := defaultEstate(t)
			estatetest.WriteFile(t, home, demoLog, emptyLog)
			pid := tc.holder(t, home)
			lead := fmt.Sprintf("agents/demo/spawn-log.json.lock held by pid %d on host \"%s\" (%s, age ", pid, hostname(), tc.described)
			end := " past the 1ms stale window; clear it with pa dispatch unlock --force --agent demo, " + forceWhen
			check := func(args ...string) result {
				return c.runDefault(t, user, append([]string{"board", "check"}, args...)...)
			}
			r := check("--stale-window", "1ms")
			if line := strings.TrimSuffix(r.stdout, "\n"); r.code != 2 || !strings.HasPrefix(line, lead) || !strings.HasSuffix(line, end) || strings.Contains(line, "\n") {
				t.Errorf("plain: exit %d, stdout %q; want exit 2 and %q...%q", r.code, r.stdout, lead, end)
			}

			r = check("--stale-window", "1ms", "--json")
			var js struct {
				Problems []struct {
					Line   string
					Holder json.RawMessage
				}
			}
			if err := json.Unmarshal([]byte(r.stdout), &js); err != nil || r.code != 2 || len(js.Problems) != 1 {
				t.Fatalf("--json: exit %d, stdout %q (%v); want exit 2 and one problem", r.code, r.stdout, err)
			}
			var h struct {
				PID             int
				State, Evidence string
			}
			if err := json.Unmarshal(js.Problems[0].Holder, &h); err != nil {
				t.Fatal(err)
			}
			// The keys as before, in their order, with evidence after
			// state where there is one, then the holder's public-safe
			// fields where its record has them.
			keys := `^\{"pid":[0-9]+,"hostname":"[^"]*","state":"[^"]*",("evidence":"[^"]*",)?"ageMs":[0-9]+,"acquiredAt":"[^"]*"` +
				`(,"lockId":"lk_[0-9a-f]{16}")?(,"agent":"[^"]*")?(,"operation":"[^"]*")?(,"policy":"[^"]*")?\}$`
			hasEvidence := strings.Contains(string(js.Problems[0].Holder), `"evidence"`)
			if !regexp.MustCompile(keys).Match(js.Problems[0].Holder) || h.PID != pid || h.State != tc.state || h.Evidence != tc.evidence ||
				hasEvidence != (tc.evidence != "") || !strings.HasPrefix(js.Problems[0].Line, lead) {
				t.Errorf("--json: holder %s, line %q; want pid %d, state %q, evidence %q (left out when none), and the line %q...",
					js.Problems[0].Holder, js.Problems[0].Line, pid, tc.state, tc.evidence, lead)
			}
		})
	}
}

// A board ahead of its spawn-log (its records lost, or an older copy put
// back), where open refuses, is a problem of board check too: exit 2, the
// line naming both ids, the --json object with dispatchId and nextId and
// no command.
func TestBoardCheckSaysTheBoardIsAhead(t *testing.T) {
	home := t.TempDir()
	c := binClasses[0]
	estatetest.WriteFile(t, home, "agents/demo/spawn-log.json", `{"version":1,"nextId":2,"records":[{"id":1}]}`)
	estatetest.WriteFile(t, home, "agents/demo/board/board.json", `{"version":1,"items":[{"dispatchId":1},{"dispatchId":2}]}`)
	r := c.run(t, home, "board", "check")
	if r.code != 2 || !strings.Contains(r.stdout, "agents/demo/board/board.json lists dispatch 2, but the spawn-log's next id is 2: the spawn-log is behind its board") {
		t.Errorf("exit %d, stdout %q; want exit 2 and the board ahead", r.code, r.stdout)
	}
	r = c.run(t, home, "board", "check", "--json")
	var out struct {
		Problems []struct {
			Kind       string
			DispatchID int
			NextID     int
			Command    string
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || len(out.Problems) != 1 ||
		out.Problems[0].Kind != "behind-board" || out.Problems[0].DispatchID != 2 || out.Problems[0].NextID != 2 || out.Problems[0].Command != "" {
		t.Errorf("--json: exit %d, stdout %q (%v); want one behind-board problem, dispatchId 2, nextId 2, no command", r.code, r.stdout, err)
	}
}
