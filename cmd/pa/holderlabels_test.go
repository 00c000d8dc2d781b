package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// The record pa dispatch open and pa board repair write names the holder
// for an operator: the lock's hashed id (never a path), the agent, the
// operation and the policy. Each is read in the spawn-log lock left by a
// pa killed once its lock is published (the pafault build).
func TestHolderLabelsRecorded(t *testing.T) {
	fault := binClass{"fault", func() string { return paFaultBin }, ""}
	kill := []string{"PA_FAULT_STEP=acquire:published"}
	for _, tc := range []struct {
		args      []string
		operation string
		policy    string
	}{
		{[]string{"dispatch", "open", "--agent", "demo", "--policy", "monitor"}, "dispatch open", "monitor"},
		{[]string{"board", "repair", "--agent", "demo"}, "board repair", "mutation"},
	} {
		home := t.TempDir()
		if r := fault.run(t, home, "dispatch", "open", "--agent", "demo"); r.code != 0 {
			t.Fatalf("open: exit %d, stderr %q", r.code, r.stderr)
		}
		if err := os.Remove(filepath.Join(home, "agents", "demo", "board", "board.json")); err != nil {
			t.Fatal(err)
		}
		if r := runCmd(t, fault.command(home, kill, tc.args...)); r.code == 0 {
			t.Fatalf("%q with %s: exit 0; want it killed", tc.args, kill)
		}
		data := readFile(t, home, logName+".lock")
		var rec map[string]any
		if err := json.Unmarshal([]byte(data), &rec); err != nil {
			t.Fatalf("%q: the lock %q: %v", tc.args, data, err)
		}
		guarded := logName
		if rec["lock_id"] != locking.LockID(guarded) || rec["agent"] != "demo" || rec["operation"] != tc.operation || rec["policy"] != tc.policy ||
			strings.Contains(data, home) || !strings.HasSuffix(strings.TrimSpace(data), `"}`) || !strings.Contains(data, `","acquiredAt":"`) {
			t.Errorf("%q: the lock %s; want lock_id %s, agent demo, operation %q, policy %q, no path, acquiredAt last",
				tc.args, data, locking.LockID(guarded), tc.operation, tc.policy)
		}
	}
}

// A live holder's labels are in the --json outputs that show a holder:
// pa board check --json and the error of pa dispatch open --json.
func TestHolderLabelsInJSON(t *testing.T) {
	home := t.TempDir()
	c := binClasses[0]
	live := locktest.LivePID(t)
	lock := strings.TrimSuffix(lockJSON(live, hostname(), time.Now().Add(-time.Hour)), "}")
	lock = strings.Replace(lock, `"acquiredAt"`, `"lock_id":"`+locking.LockID(logName)+`","agent":"demo","operation":"dispatch open","policy":"mutation","acquiredAt"`, 1) + "}"
	estatetest.WriteFile(t, home, logName+".lock", lock)
	chtimes(t, home, logName+".lock", time.Now().Add(-time.Hour)) // past board check's stale window
	want := map[string]any{"lockId": locking.LockID(logName), "agent": "demo", "operation": "dispatch open", "policy": "mutation"}
	has := func(h map[string]any) bool {
		for k, v := range want {
			if h[k] != v {
				return false
			}
		}
		return true
	}
	r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0", "--json")
	if got := jsonError(t, r); !has(got["holder"].(map[string]any)) {
		t.Errorf("open --json: %s; want the holder's %v", r.stderr, want)
	}
	r = c.run(t, home, "board", "check", "--agent", "demo", "--json")
	var check struct {
		Problems []struct {
			Holder map[string]any `json:"holder"`
		} `json:"problems"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &check); err != nil || len(check.Problems) == 0 || !has(check.Problems[0].Holder) {
		t.Errorf("board check --json: %s (%v); want the holder's %v", r.stdout, err, want)
	}
}
