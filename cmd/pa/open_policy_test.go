package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// pa dispatch open --policy single-flight with a live holder: exit 3, one
// line naming the holder and that nothing was recorded, at once, and the
// estate as it was; with --json one object on stdout a script tells from a
// record ("recorded": false, error_code lock_held). Without a holder it
// records as open always does.
func TestOpenSingleFlight(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		if r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--policy", "single-flight"); r.code != 0 || r.stdout != "1\n" {
			t.Fatalf("single-flight with the lock free: exit %d, stdout %q, stderr %q; want id 1", r.code, r.stdout, r.stderr)
		}
		live := locktest.LivePID(t)
		estatetest.WriteFile(t, home, logName+".lock", lockJSON(live, hostname(), time.Now()))
		before := estatetest.Snapshot(t, home)
		r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--policy", "single-flight")
		lead := fmt.Sprintf("pa: agents/demo/spawn-log.json.lock held by pid %d on host ", live)
		tail := "): not recorded: --policy single-flight, and a dispatch is already being opened\n"
		if r.code != exitHeld || r.stdout != "" || !strings.HasPrefix(r.stderr, lead) || !strings.HasSuffix(r.stderr, tail) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("single-flight with a live holder: exit %d, stdout %q, stderr %q; want exit 3 and %s...%s", r.code, r.stdout, r.stderr, lead, tail)
		}
		line := r.stderr
		if r.took > 5*time.Second {
			t.Errorf("single-flight took %v; it must not wait", r.took)
		}
		r = c.run(t, home, "dispatch", "open", "--agent", "demo", "--policy", "single-flight", "--json")
		var got map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &got); r.code != exitHeld || r.stderr != "" || err != nil ||
			got["recorded"] != false || got["error_code"] != "lock_held" || got["lock"] != "agents/demo/spawn-log.json.lock" ||
			got["pid"] != float64(live) || got["state"] != "alive" || got["waited_ms"] != float64(0) ||
			withoutAge(got["message"]) != withoutAge(strings.TrimSuffix(strings.TrimPrefix(line, "pa: "), "\n")) {
			t.Errorf("single-flight --json with a live holder: exit %d, stdout %q (%v), stderr %q; want exit 3 and the object, its message %q", r.code, r.stdout, err, r.stderr, line)
		}
		if h, _ := got["holder"].(map[string]any); h["pid"] != float64(live) || h["state"] != "alive" || h["hostname"] != hostname() {
			t.Errorf("single-flight --json: holder %v; want pid %d, alive, on this host, as open's error object has it", got["holder"], live)
		}
		if after := estatetest.Snapshot(t, home); !maps.Equal(before, after) {
			t.Errorf("a single-flight open that found the lock held changed the estate:\nbefore %q\nafter  %q", before, after)
		}
	})
}

// withoutAge is message m (a string) with the holder's age, which differs
// from one run to the next, said as "age X".
func withoutAge(m any) string {
	s, _ := m.(string)
	return ageIn.ReplaceAllString(s, "age X")
}

var ageIn = regexp.MustCompile(`age [0-9.]+(ns|µs|ms|s|m|h)`)

// --policy picks the wait: single-flight refuses --wait (exit 1, nothing
// written), monitor waits 1 s by default and --wait where given, and an
// unknown policy is a usage error; mutation is the default (the spec's
// 10 s, shortened here by --wait).
func TestOpenPolicyWait(t *testing.T) {
	home := t.TempDir()
	var c binClass = binClasses[0]
	r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--policy", "single-flight", "--wait", "1s")
	if r.code != exitUsage || r.stderr != "pa: --wait does not go with --policy single-flight, which never waits; nothing was written\n" {
		t.Errorf("single-flight --wait: exit %d, stderr %q; want exit 1", r.code, r.stderr)
	}
	if r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--policy", "hurry"); r.code != exitUsage || !strings.Contains(r.stderr, "--policy") {
		t.Errorf("--policy hurry: exit %d, stderr %q; want a usage error naming --policy", r.code, r.stderr)
	}
	live := locktest.LivePID(t)
	estatetest.WriteFile(t, home, logName+".lock", lockJSON(live, hostname(), time.Now()))
	r = c.run(t, home, "dispatch", "open", "--agent", "demo", "--policy", "monitor")
	if r.code != exitProblem || !strings.Contains(r.stderr, "gave up after 1s") || r.took < time.Second || r.took > 8*time.Second {
		t.Errorf("monitor with a live holder: exit %d after %v, stderr %q; want exit 2 after its 1 s", r.code, r.took, r.stderr)
	}
	r = c.run(t, home, "dispatch", "open", "--agent", "demo", "--policy", "monitor", "--wait", "0")
	if r.code != exitProblem || !strings.Contains(r.stderr, "gave up at once (--wait 0)") {
		t.Errorf("monitor --wait 0 with a live holder: exit %d, stderr %q; want exit 2 at once", r.code, r.stderr)
	}
	r = c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0")
	if r.code != exitProblem || !strings.Contains(r.stderr, "gave up at once (--wait 0)") {
		t.Errorf("the default policy (mutation) --wait 0: exit %d, stderr %q; want exit 2 at once", r.code, r.stderr)
	}
}

// A single-flight open whose holder's record names what it does says so:
// a board repair is not a dispatch being opened, and a label of another
// program is quoted as recorded. The exit and the object are the same.
func TestOpenSingleFlightSaysTheHoldersOperation(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	if r := c.run(t, home, "dispatch", "open", "--agent", "demo"); r.code != 0 {
		t.Fatalf("open: exit %d, %q", r.code, r.stderr)
	}
	live := locktest.LivePID(t)
	for op, want := range map[string]string{
		"board repair":    "a board repair holds the lock",
		"dispatch open":   "a dispatch is already being opened",
		"nightly sync":    `the lock is held for "nightly sync"`,
		"dispatch unlock": "an unlock holds the lock",
	} {
		b, _ := json.Marshal(map[string]any{"pid": live, "hostname": hostname(), "token": strings.Repeat("5a", 12),
			"operation": op, "acquiredAt": time.Now().UTC().Format("2006-01-02T15:04:05.000Z")})
		estatetest.WriteFile(t, home, logName+".lock", string(b))
		r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--policy", "single-flight")
		tail := "): not recorded: --policy single-flight, and " + want + "\n"
		if r.code != exitHeld || !strings.HasSuffix(r.stderr, tail) {
			t.Errorf("holder doing %q: exit %d, stderr %q; want exit 3 ending %q", op, r.code, r.stderr, tail)
		}
		r = c.run(t, home, "dispatch", "open", "--agent", "demo", "--policy", "single-flight", "--json")
		var got map[string]any
		_ = json.Unmarshal([]byte(r.stdout), &got)
		if h, _ := got["holder"].(map[string]any); r.code != exitHeld || !strings.HasSuffix(fmt.Sprint(got["message"]), want) || h["operation"] != op {
			t.Errorf("holder doing %q, --json: exit %d, stdout %q; want exit 3, the message ending %q and the holder's operation", op, r.code, r.stdout, want)
		}
	}
}
