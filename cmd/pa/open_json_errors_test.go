package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// jsonError parses r's stderr as the one JSON object of a failed `pa
// dispatch open --json` (one line, nothing on stdout, no "pa: " line).
func jsonError(t *testing.T, r result) map[string]any {
	t.Helper()
	var got map[string]any
	if err := json.Unmarshal([]byte(r.stderr), &got); err != nil || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 || strings.HasPrefix(r.stderr, "pa: ") {
		t.Fatalf("exit %d, stdout %q, stderr %q (%v); want one JSON object on stderr and nothing on stdout", r.code, r.stdout, r.stderr, err)
	}
	for _, key := range []string{"error_code", "message", "lock", "holder", "waited_ms"} {
		if _, ok := got[key]; !ok {
			t.Errorf("stderr %q has no %q", r.stderr, key)
		}
	}
	return got
}

// A timeout against a live holder, with --json: exit 2 as without it, and
// one object on stderr with the stable code, the lock, the holder (pid,
// host, state, evidence where known) and the time waited in milliseconds;
// its message is the line pa prints without --json. Values read from the
// lock are escaped as all pa's JSON is (no raw ESC or bidi control).
func TestOpenJSONTimeout(t *testing.T) {
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		live := locktest.LivePID(t)
		estatetest.WriteFile(t, home, logName+".lock", lockJSON(live, hostname(), time.Now()))
		r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "200ms", "--json")
		got := jsonError(t, r)
		h, _ := got["holder"].(map[string]any)
		if r.code != exitProblem || got["error_code"] != "lock_acquire_timeout" || got["lock"] != "agents/demo/spawn-log.json.lock" ||
			h == nil || h["pid"] != float64(live) || h["hostname"] != hostname() || h["state"] != "alive" {
			t.Errorf("timeout --json: exit %d, stderr %q; want exit 2, lock_acquire_timeout, the lock and the live holder", r.code, r.stderr)
		}
		if w, _ := got["waited_ms"].(float64); w < 200 || w > 5000 {
			t.Errorf("timeout --json: waited_ms %v; want the 200 ms waited", got["waited_ms"])
		}
		msg, _ := got["message"].(string)
		lead := fmt.Sprintf("agents/demo/spawn-log.json.lock held by pid %d on host ", live)
		if !strings.HasPrefix(msg, lead) || !strings.Contains(msg, "gave up after") || !strings.Contains(msg, "dispatch unlock --force --agent demo") {
			t.Errorf("timeout --json: message %q; want the human line", msg)
		}

		estatetest.WriteFile(t, home, logName+".lock", lockJSON(live, "h\x1b[2J\u202e", time.Now()))
		r = c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0", "--json")
		got = jsonError(t, r)
		if strings.ContainsAny(r.stderr, "\x1b\u202e") {
			t.Errorf("timeout --json with a hostile hostname: stderr %q holds it raw", r.stderr)
		}
		if h, _ := got["holder"].(map[string]any); h == nil || h["hostname"] != "h\x1b[2J\u202e" {
			t.Errorf("timeout --json with a hostile hostname: holder %v; want the hostname whole, escaped", got["holder"])
		}
	})
}

// An unreadable lock, with --json: exit 2; bytes that are no record are a
// holder in state "empty or unreadable", a directory under the lock name
// no holder (null); the code and the lock are said either way.
func TestOpenJSONUnreadableLock(t *testing.T) {
	home := t.TempDir()
	c := binClasses[0]
	estatetest.WriteFile(t, home, logName+".lock", "garbage")
	r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0", "--json")
	got := jsonError(t, r)
	h, _ := got["holder"].(map[string]any)
	if r.code != exitProblem || got["error_code"] != "lock_acquire_timeout" || got["lock"] != "agents/demo/spawn-log.json.lock" ||
		h == nil || h["state"] != "empty or unreadable" || h["pid"] != float64(0) {
		t.Errorf("unreadable lock --json: exit %d, stderr %q; want exit 2 and the unreadable holder", r.code, r.stderr)
	}
	if msg, _ := got["message"].(string); !strings.Contains(msg, "is an unreadable lock (7 bytes") {
		t.Errorf("unreadable lock --json: message %q; want the human line", msg)
	}

	home = t.TempDir()
	estatetest.WriteFile(t, home, logName+".lock/x/y", "")
	r = c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0", "--json")
	got = jsonError(t, r)
	if r.code != exitProblem || got["holder"] != nil || got["lock"] != "agents/demo/spawn-log.json.lock" || got["error_code"] == "" {
		t.Errorf("a directory under the lock name --json: exit %d, stderr %q; want exit 2, no holder", r.code, r.stderr)
	}
}

// Usage errors, with --json: exit 1 and the object, code "usage", for an
// error found by open (--wait with single-flight, a bad agent name) and
// one of the parse (an unknown --policy, a bad --wait, --agent left out)
// or found after it (a flag given twice or empty);
// the lock is the --agent's, "" where no valid agent is known.
func TestOpenJSONUsage(t *testing.T) {
	home := t.TempDir()
	c := binClasses[0]
	for _, tc := range []struct {
		args []string
		lock string
		msg  string
	}{
		{[]string{"--agent", "demo", "--policy", "single-flight", "--wait", "1s"}, "agents/demo/spawn-log.json.lock", "--wait does not go with --policy single-flight"},
		{[]string{"--agent", "../x"}, "", "../x"},
		{[]string{"--agent", "demo", "--policy", "hurry"}, "agents/demo/spawn-log.json.lock", "--policy"},
		{[]string{"--agent=demo", "--wait", "soon"}, "agents/demo/spawn-log.json.lock", "--wait"},
		{[]string{"--policy", "hurry", "--agent", "../x"}, "", "--policy"},
		{nil, "", "needs --agent"},
		{[]string{"--agent", "demo", "--wait"}, "agents/demo/spawn-log.json.lock", "--wait needs a value"},
		// Found after the parse: a flag given twice, or empty.
		{[]string{"--agent", "demo", "--title", "a", "--title", "b"}, "agents/demo/spawn-log.json.lock", "--title is given twice"},
		{[]string{"--agent", "demo", "--agent", "x"}, "", "--agent is given twice"},
		{[]string{"--agent", ""}, "", "--agent is empty"},
	} {
		args := append([]string{"dispatch", "open", "--json"}, tc.args...)
		r := c.run(t, home, args...)
		got := jsonError(t, r)
		msg, _ := got["message"].(string)
		if r.code != exitUsage || got["error_code"] != "usage" || got["lock"] != tc.lock || got["holder"] != nil || got["waited_ms"] != float64(0) || !strings.Contains(msg, tc.msg) {
			t.Errorf("%q: exit %d, stderr %q; want exit 1, code usage, lock %q, a message with %q", args, r.code, r.stderr, tc.lock, tc.msg)
		}
		if r := c.run(t, home, append([]string{"dispatch", "open"}, tc.args...)...); r.code != exitUsage || !strings.HasPrefix(r.stderr, "pa: ") {
			t.Errorf("%q without --json: exit %d, stderr %q; want exit 1 and pa's line", tc.args, r.code, r.stderr)
		}
	}
	// --json as the value of a flag that takes one is no --json: the line.
	for _, args := range [][]string{{"--agent", "demo", "--wait", "--json"}, {"--agent", "demo", "--policy", "--json"}} {
		if r := c.run(t, home, append([]string{"dispatch", "open"}, args...)...); r.code != exitUsage || !strings.HasPrefix(r.stderr, "pa: ") {
			t.Errorf("%q: exit %d, stderr %q; want exit 1 and pa's line", args, r.code, r.stderr)
		}
	}
}
