package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// forceQualified checks every line of out: each --force it names is
// followed, on the same line and before the next --force, by when to use it
// (`--force` is always qualified: only once the holder's process
// is gone or stuck, never while it still runs). wantForce says whether out
// names --force at all.
func forceQualified(t *testing.T, what, out string, wantForce bool) {
	t.Helper()
	named := false
	for _, line := range strings.Split(out, "\n") {
		parts := strings.Split(line, "--force")
		for _, after := range parts[1:] {
			named = true
			if !strings.Contains(after, forceWhen) {
				t.Errorf("%s: --force without %q after it in %q", what, forceWhen, line)
			}
		}
	}
	if named != wantForce {
		t.Errorf("%s: names --force %v, want %v: %q", what, named, wantForce, out)
	}
}

// Every line pa prints that names --force says when to use it: open's
// timeout (a live holder, an empty lock, a dead holder kept by another
// breaker's live claim), unlock's refusal, its changed line with --force,
// its usage error, board check's line (plain and --hook-envelope). Unlock's
// busy line names no --force: its one command is the same unlock again
// (spec: Unlock).
func TestEveryForceIsQualified(t *testing.T) {
	live, dead := locktest.LivePID(t), locktest.DeadPID(t)
	c := binClasses[0]
	stale := time.Now().Add(-time.Hour)
	type setup func(t *testing.T, home string)
	withLock := func(content string) setup {
		return func(t *testing.T, home string) {
			estatetest.WriteFile(t, home, demoLog+".lock", content)
			chtimes(t, home, demoLog+".lock", stale)
		}
	}
	withClaim := func(t *testing.T, home string) {
		content := lockJSON(dead, hostname(), stale)
		withLock(content)(t, home)
		estatetest.WriteFile(t, home, claimName(demoLog+".lock", content, hostname(), live), "{}")
	}
	empty := withLock("")
	alive := withLock(lockJSON(live, hostname(), stale))
	for _, tc := range []struct {
		name      string
		setup     setup
		args      []string
		stdout    bool // the line is on stdout (board check), not stderr
		wantForce bool
	}{
		{"open timeout, live holder", alive, []string{"dispatch", "open", "--agent", "demo", "--wait", "0"}, false, true},
		{"open timeout, empty lock", empty, []string{"dispatch", "open", "--agent", "demo", "--wait", "0"}, false, true},
		{"open timeout, claim-blocked", withClaim, []string{"dispatch", "open", "--agent", "demo", "--wait", "0"}, false, true},
		{"unlock refused, live holder", alive, []string{"dispatch", "unlock", "--agent", "demo"}, false, true},
		{"unlock refused, empty lock", empty, []string{"dispatch", "unlock", "--agent", "demo"}, false, true},
		{"unlock refused, every agent", alive, []string{"dispatch", "unlock"}, false, true},
		{"unlock busy", withClaim, []string{"dispatch", "unlock", "--agent", "demo"}, false, false},
		{"unlock usage", alive, []string{"dispatch", "unlock", "--force"}, false, true},
		{"board check, live holder", alive, []string{"board", "check", "--stale-window", "1ms"}, true, true},
		{"board check, empty lock", empty, []string{"board", "check", "--stale-window", "1ms"}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The default estate: the bounded board check line has room
			// for its command only without a temp folder's --home.
			user, home := defaultEstate(t)
			tc.setup(t, home)
			r := c.runDefault(t, user, tc.args...)
			out := r.stderr
			if tc.stdout {
				out = r.stdout
			}
			if r.code == 0 || out == "" {
				t.Fatalf("%q: exit %d, stdout %q, stderr %q; want a line", tc.args, r.code, r.stdout, r.stderr)
			}
			forceQualified(t, tc.name, out, tc.wantForce)
		})
	}

	t.Run("board check envelope", func(t *testing.T) {
		user, home := defaultEstate(t)
		alive(t, home)
		r := c.runDefault(t, user, "board", "check", "--stale-window", "1ms", "--hook-envelope")
		var env struct{ Problems []string }
		if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || r.code != 0 || len(env.Problems) != 1 {
			t.Fatalf("exit %d, stdout %q (%v); want exit 0 and one problem", r.code, r.stdout, err)
		}
		forceQualified(t, "envelope", env.Problems[0], true)
	})

	t.Run("unlock forced, lock changed", func(t *testing.T) {
		home := t.TempDir()
		alive(t, home)
		lock := filepath.Join(home, filepath.FromSlash(demoLog+".lock"))
		stdout := &hookWriter{hook: func(s string) {
			if strings.Contains(s, ": held by pid ") {
				if err := os.Remove(lock); err != nil {
					t.Error(err)
				}
			}
		}}
		var stderr strings.Builder
		code := run(context.Background(), []string{"--home", home, "dispatch", "unlock", "--force", "--agent", "demo"}, stdout, &stderr)
		if code != exitProblem || !strings.Contains(stderr.String(), " changed since it was read") {
			t.Fatalf("exit %d, stderr %q; want the changed line", code, stderr.String())
		}
		forceQualified(t, "changed", stderr.String(), true)
	})
}
