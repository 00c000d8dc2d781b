package lockspec_test

// The names beside the lock: their shape, the claim key.

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// Every name beside the lock ends with its host (8 hex), its pid and a
// 24-hex attempt token, and the token is 24 hex (R27's shape).
func TestAttemptTokenShape(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		ffs := faultfs.New(e.fsys)
		shape := regexp.MustCompile(`\.(pending|broken|tmp)-[0-9a-f]{8}-[0-9]+-[0-9a-f]{24}$|\.claim-[0-9a-f]{16}-[0-9a-f]{8}-[0-9]+-[0-9a-f]{24}$`)
		var bad []string
		seen := 0
		ffs.Before(func(ev faultfs.Event) error {
			name := ev.Name
			if ev.Op == faultfs.OpRename {
				name = ev.NewName
			}
			if strings.ContainsAny(name, "-") && (ev.Op == faultfs.OpOpenFile || ev.Op == faultfs.OpRename) {
				seen++
				if !shape.MatchString(name) {
					bad = append(bad, name)
				}
			}
			return nil
		})
		e.writeRaw(t, lockP, lockJSON(locktest.DeadPID(t), hostname(t), true, "deaddeaddeaddeaddeaddead", time.Now()))
		if err := lockspec.Update(context.Background(), ffs, target, appendRecord("a"), fast(nil)); err != nil {
			t.Fatal(err)
		}
		if seen < 4 || len(bad) > 0 {
			t.Fatalf("%d names seen; not of the spec's shape: %q", seen, bad)
		}
	})
}

// A claim's key is 16 hex of the sha256 of the lock's bytes judged, so
// breakers of different locks never see each other's claims.
func TestClaimKeyIsTheLocksHash(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		lock := deadLock(t, e, m)
		ffs := faultfs.New(e.fsys)
		var claims []string
		ffs.Before(func(ev faultfs.Event) error {
			if ev.Op == faultfs.OpOpenFile && strings.Contains(ev.Name, ".claim-") {
				claims = append(claims, ev.Name)
			}
			return nil
		})
		opts := fast(m.Spawn())
		opts.Timeout = lockspec.NoWait
		if err := lockspec.Update(context.Background(), ffs, target, appendRecord("a"), opts); err != nil {
			t.Fatal(err)
		}
		want := "d/log.json.lock.claim-" + keyOf(lock) + "-"
		if len(claims) != 1 || !strings.HasPrefix(claims[0], want) {
			t.Fatalf("claims %q, want one named %s...", claims, want)
		}
	})
}
