package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// Every command a line tells the operator to run names the estate it ran
// on: `pa --home DIR ...` for --home or PA_HOME (made absolute, so it works
// pasted into another shell, in another folder), plain `pa ...` for the
// default estate. Through the binary: open's timeout line, unlock's refusal
// and board check's --json command.
func TestAdviceNamesTheEstate(t *testing.T) {
	live := locktest.LivePID(t)
	user := t.TempDir() // the user's home folder: ~/.pa is the default estate
	cwd := t.TempDir()
	run := func(env []string, args ...string) result {
		cmd := exec.Command(paBin, args...)
		cmd.Dir = cwd
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "PA_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "USERPROFILE=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(cmd.Env, "HOME="+user, "USERPROFILE="+user)
		cmd.Env = append(cmd.Env, env...)
		return runCmd(t, cmd)
	}
	explicit := filepath.Join(t.TempDir(), "my estate")
	cases := []struct {
		name   string
		dir    string   // the estate's folder
		env    []string // PA_HOME, if any
		args   []string // --home, if any
		prefix string   // how the commands start
	}{
		{"--home", explicit, nil, []string{"--home", explicit}, "pa --home " + shellWord(explicit)},
		{"PA_HOME", filepath.Join(cwd, "rel"), []string{"PA_HOME=rel"}, nil, "pa --home " + shellWord(filepath.Join(cwd, "rel"))},
		{"--home relative", filepath.Join(cwd, "rel2"), nil, []string{"--home", "rel2"}, "pa --home " + shellWord(filepath.Join(cwd, "rel2"))},
		{"default", filepath.Join(user, ".pa"), nil, nil, "pa"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pa := func(args ...string) result { return run(tc.env, append(slicesClone(tc.args), args...)...) }
			if r := pa("dispatch", "open", "--agent", "demo"); r.code != 0 {
				t.Fatalf("open: exit %d, %q", r.code, r.stderr)
			}
			lock := filepath.Join(tc.dir, "agents", "demo", "spawn-log.json.lock")
			if err := os.WriteFile(lock, []byte(lockJSON(live, hostname(), time.Now().Add(-time.Hour))), 0o644); err != nil {
				t.Fatal(err)
			}
			chtimes(t, tc.dir, "agents/demo/spawn-log.json.lock", time.Now().Add(-time.Hour))
			force := tc.prefix + " dispatch unlock --force --agent demo, " + forceWhen + "\n"

			r := pa("dispatch", "open", "--agent", "demo", "--wait", "0")
			want := fmt.Sprintf("pa: agents/demo/spawn-log.json.lock held by pid %d on host %q (alive, age 1h0m0s, acquiredAt ", live, hostname())
			if r.code != 2 || !strings.HasPrefix(r.stderr, want) || !strings.HasSuffix(r.stderr, "): gave up at once (--wait 0); clear it with "+force) {
				t.Errorf("open: exit %d, stderr %q; want exit 2 ending with %q", r.code, r.stderr, force)
			}
			r = pa("dispatch", "unlock", "--agent", "demo")
			if r.code != 2 || !strings.HasSuffix(r.stderr, "): not removed; clear it with "+force) {
				t.Errorf("unlock: exit %d, stderr %q; want exit 2 ending with %q", r.code, r.stderr, force)
			}
			r = pa("board", "check", "--json")
			wantCmd := `"command":"` + strings.ReplaceAll(tc.prefix, `\`, `\\`) + ` dispatch unlock --force --agent demo"`
			if r.code != 2 || !strings.Contains(r.stdout, wantCmd) {
				t.Errorf("board check --json: exit %d, stdout %q; want %s", r.code, r.stdout, wantCmd)
			}
			r = pa("board", "check")
			r.stdout = withoutIncidentNotes(r.stdout) // the timeouts above
			lead := fmt.Sprintf("agents/demo/spawn-log.json.lock held by pid %d ", live)
			// The line's command is the estate's, as every line's is, or,
			// where a --home (a temp folder's, here) leaves the bounded line
			// no room for it, the line says where it is: never another
			// estate's command.
			pointer := `; clear it with the "command" this check prints with --json, ` + forceWhen + "\n"
			if r.code != 2 || !strings.HasPrefix(r.stdout, lead) || !strings.HasSuffix(r.stdout, "; clear it with "+force) && (tc.prefix == "pa" || !strings.HasSuffix(r.stdout, pointer)) {
				t.Errorf("board check: exit %d, stdout %q; want the line leading with %q and naming the command", r.code, r.stdout, lead)
			}
		})
	}
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// The lines built in-process: unlock's busy and changed lines and the lost
// lock's line name the estate too.
func TestAdviceLinesInProcess(t *testing.T) {
	a := advice{pa: "pa --home /tmp/X", home: "/tmp/X", agent: "demo"}
	dead := locking.Holder{PID: 7, State: locking.StateDead, HasHostname: true, Hostname: "h"}
	busy := &locking.BusyError{Holder: dead, Claim: locking.ClaimOwner{Claim: "c", HostHash: "0a1b2c3d", PID: 9}}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{a.lockError(busy, 0), "pid 9 (host 0a1b2c3d, claim c) is breaking it; run pa --home /tmp/X dispatch unlock --agent demo again"},
		{a.lockError(&locking.TimeoutError{Holder: dead, Waited: time.Second, Claim: &busy.Claim}, time.Second),
			"gave up after 1s; pid 9 (host 0a1b2c3d, claim c) is breaking it; clear it with pa --home /tmp/X dispatch unlock --force --agent demo, only once"},
		{fail(exitProblem, "%s", a.notRead()), "pa cannot read it: look at it by hand, then run pa --home /tmp/X dispatch unlock --agent demo"},
		{a.changed(dead, false), "nothing removed; run pa --home /tmp/X dispatch unlock --agent demo again"},
		{a.changed(dead, true), "nothing removed; run pa --home /tmp/X dispatch unlock --force --agent demo again, " + forceWhen},
		{a.lockError(&locking.TimeoutError{Holder: locking.Holder{State: locking.StateUnreadable}, Waited: time.Second}, 0),
			"agents/demo/spawn-log.json.lock is an empty lock (0 bytes, age 0s): gave up at once (--wait 0); clear it with pa --home /tmp/X dispatch unlock --force --agent demo"},
	} {
		var ee *exitError
		if !errors.As(tc.err, &ee) || ee.code != exitProblem || !strings.Contains(ee.msg, tc.want) {
			t.Errorf("line %v; want exit 2 and %q in it", tc.err, tc.want)
		}
	}
}

// Ctrl-C while unlock waits for another breaker's live claim: exit 2, one
// line leading with the lock and its holder's pid, saying nothing was
// removed and naming the same unlock to run again; the lock is left.
func TestUnlockInterruptedWhileWaiting(t *testing.T) {
	live, dead := locktest.LivePID(t), locktest.DeadPID(t)
	home := t.TempDir()
	content := lockJSON(dead, hostname(), time.Now())
	estatetest.WriteFile(t, home, logName+".lock", content)
	sum := sha256.Sum256([]byte(content))
	claim := logName + ".lock.claim-" + hex.EncodeToString(sum[:8]) + "-" + lockspec.HostHash(hostname()) + "-" + strconv.Itoa(live) + "-" + strings.Repeat("c", 24)
	estatetest.WriteFile(t, home, claim, "{}")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr strings.Builder
	code := run(ctx, []string{"--home", home, "dispatch", "unlock", "--agent", "demo"}, &stdout, &stderr)
	lead := fmt.Sprintf("pa: agents/demo/spawn-log.json.lock held by pid %d on host ", dead)
	tail := "): interrupted while waiting for another breaker: nothing removed; run " + programFor(home) + " dispatch unlock --agent demo again\n"
	if code != exitProblem || !strings.HasPrefix(stderr.String(), lead) || !strings.HasSuffix(stderr.String(), tail) || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("exit %d, stderr %q; want exit 2 and %s...%s", code, stderr.String(), lead, tail)
	}
	if got := readFile(t, home, logName+".lock"); got != content {
		t.Errorf("the lock is now %q; want it left", got)
	}
}
