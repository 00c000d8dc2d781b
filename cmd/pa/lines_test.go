package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/estate/estatetest"
)

// The exit-2 line of an open that gave up on a real holder says which
// evidence decided its state, and names the one command, --force with
// when, for each holder not provably dead: one of this host that holds the
// lock's kernel lock ("alive: holds the lock's kernel lock"), one in
// another pid namespace of this host that holds it ("alive in another pid
// namespace of this host: ..."), and one there whose lock claims no kernel
// lock, which nothing proves dead ("in another pid namespace of this
// host"), cleared like a holder on another host.
func TestOpenLinesSayWhichEvidenceDecided(t *testing.T) {
	for _, tc := range []struct {
		name      string
		namespace bool // the holder in another pid namespace
		noClaim   bool // its lock rewritten without the kernel lock claim
		state     string
	}{
		{"this namespace", false, false, "alive: holds the lock's kernel lock"},
		{"another namespace", true, false, "alive in another pid namespace of this host: holds the lock's kernel lock"},
		{"another namespace, no kernel lock claimed", true, true, "in another pid namespace of this host"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eachBinClass(t, func(t *testing.T, c binClass) {
				home := t.TempDir()
				estatetest.WriteFile(t, home, demoLog, emptyLog)
				h := startHolder(t, home, tc.namespace)
				pid := h.pid()
				if tc.namespace {
					pid = 1
				}
				if tc.noClaim {
					dropKernelClaim(t, home)
				}
				before := readFile(t, home, demoLog+".lock")
				r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0")
				lead := fmt.Sprintf("pa: %s.lock held by pid %d on host \"%s\" (%s, age ", demoLog, pid, hostname(), tc.state)
				end := "): gave up at once (--wait 0); clear it with pa --home " + home + " dispatch unlock --force --agent demo, " + forceWhen + "\n"
				if r.code != 2 || r.stdout != "" || !strings.HasPrefix(r.stderr, lead) || !strings.HasSuffix(r.stderr, end) || strings.Count(r.stderr, "\n") != 1 {
					t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q...%q", r.code, r.stdout, r.stderr, lead, end)
				}
				if readFile(t, home, demoLog+".lock") != before {
					t.Error("open changed the lock")
				}
			})
		})
	}
}
