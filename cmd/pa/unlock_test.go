package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking/locktest"
)

const forceWhen = "only once the holder's process is gone or stuck, never while it still runs"

// unlock without --agent acts on every agent of the estate: the dead
// holder is removed, the live one refused (exit 2).
func TestUnlockEveryAgent(t *testing.T) {
	live, dead := locktest.LivePID(t), locktest.DeadPID(t)
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		estatetest.WriteFile(t, home, "agents/a/spawn-log.json.lock", lockJSON(dead, hostname(), time.Now()))
		estatetest.WriteFile(t, home, "agents/b/spawn-log.json.lock", lockJSON(live, hostname(), time.Now()))
		estatetest.WriteFile(t, home, "agents/c/spawn-log.json", `{"version":1,"nextId":1,"records":[]}`)
		r := c.run(t, home, "dispatch", "unlock")
		if r.code != 2 || !strings.Contains(r.stdout, "agents/a/spawn-log.json.lock: removed\n") ||
			!strings.HasPrefix(r.stderr, "pa: agents/b/spawn-log.json.lock held by pid") || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("exit %d, stdout %q, stderr %q; want a removed, b refused, exit 2", r.code, r.stdout, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(home, "agents", "b", "spawn-log.json.lock")); err != nil {
			t.Errorf("b's lock: %v; want it left", err)
		}
	})
}
