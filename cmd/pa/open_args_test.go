package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking/locktest"
)

const logName = "agents/demo/spawn-log.json"

// --wait 0 fails at once when the lock is held.
func TestOpenWaitZeroFailsAtOnce(t *testing.T) {
	live := locktest.LivePID(t)
	home := t.TempDir()
	estatetest.WriteFile(t, home, logName+".lock", lockJSON(live, hostname(), time.Now()))
	r := binClasses[0].run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0")
	if r.code != 2 || r.took > 2*time.Second || !strings.Contains(r.stderr, fmt.Sprintf("pid %d", live)) {
		t.Errorf("exit %d after %s, stderr %q; want exit 2 at once naming pid %d", r.code, r.took, r.stderr, live)
	}
}

// A bad agent name is a usage error (exit 1) that touches nothing; so are
// a kong parse error and a bad --wait.
func TestOpenUsageErrorsTouchNothing(t *testing.T) {
	cases := [][]string{
		{"dispatch", "open", "--agent", "../x"},
		{"dispatch", "open", "--agent", "a/b"},
		{"dispatch", "open", "--agent", ".hidden"},
		{"dispatch", "open", "--agent", ""},
		{"dispatch", "open", "--agent", strings.Repeat("x", 300)},
		{"dispatch", "open", "--agent", "a\x01b"},
		{"dispatch", "open"},
		{"dispatch", "open", "--agent", "demo", "--wait", "soon"},
		{"dispatch", "open", "--agent", "demo", "--wait", "-1s"},
		{"dispatch", "opne", "--agent", "demo"},
		{"dispatch", "list", "--agent", "../x"},
		{"board", "check", "--agent", "a/b"},
	}
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := filepath.Join(t.TempDir(), "estate")
		if err := os.Mkdir(home, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, args := range cases {
			r := c.run(t, home, args...)
			if r.code != 1 || !strings.HasPrefix(r.stderr, "pa: ") || strings.Count(r.stderr, "\n") != 1 || strings.Contains(r.stderr, "goroutine") {
				t.Errorf("%.60q: exit %d, stderr %q; want exit 1 and one line prefixed pa:", args, r.code, r.stderr)
			}
			if got := estatetest.Files(t, home); len(got) != 0 {
				t.Fatalf("%.60q: the estate holds %q; want nothing", args, got)
			}
		}
	})
}
