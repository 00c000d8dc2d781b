package lockspec_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// Claims a hostile file could be, beside a lock whose holder is dead: the
// earlier shapes whose owner is read from their content (10 MB of binary
// bytes, 100,000 nested arrays, a pid of 0, of 2^63, a float, a hostname of
// 64 KiB) are unreadable, so they are left alone byte for byte and block
// nothing; and a current-shape claim on the dead lock whose owner (in its
// name) is dead is swept whatever its content. The write goes through at
// once and nothing else is left.
func TestHostileClaimsBesideADeadLock(t *testing.T) {
	binary := make([]byte, 10<<20)
	for i := range binary {
		binary[i] = byte(i*31 + i>>11)
	}
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		lock := deadLock(t, e, m)
		keep := map[string][]byte{
			"log.json.lock.claim-h0123456789abcdef": binary,
			"log.json.lock.claim-7654321":           []byte(strings.Repeat("[", 100000)),
			"log.json.lock.claim-h00aa":             []byte(`{"pid":0}`),
			"log.json.lock.claim-h00bb":             []byte(`{"pid":9223372036854775808,"hostname":"host-a"}`),
			"log.json.lock.claim-h00cc":             []byte(`{"pid":12.0,"hostname":"host-a"}`),
			"log.json.lock.claim-1234":              []byte(`{"pid":12,"hostname":"` + strings.Repeat("h", 64<<10) + `"}`),
		}
		for name, data := range keep {
			e.writeRaw(t, "d/"+name, data)
		}
		gone := m.Spawn()
		gone.Kill()
		sum := sha256.Sum256(lock)
		stale := fmt.Sprintf("log.json.lock.claim-%s-%s-%d-%s", hex.EncodeToString(sum[:8]), lockspec.HostHash("host-a"), gone.PID(), strings.Repeat("c", 24))
		e.writeRaw(t, "d/"+stale, binary[:1<<20])

		o := fast(m.Spawn())
		o.Timeout = lockspec.NoWait
		if err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("a"), o); err != nil {
			t.Fatalf("a write beside hostile claims: %v; want the dead lock broken at once", err)
		}
		e.wantRecords(t, "a")
		for name, data := range keep {
			if !bytes.Equal(e.readRaw(t, "d/"+name), data) {
				t.Errorf("%s changed", name)
			}
		}
		if e.exists("d/" + stale) {
			t.Errorf("the dead breaker's claim %s was left", stale)
		}
		if got := e.ls(t); len(got) != len(keep)+1 {
			t.Errorf("the folder holds %q; want the log and the claims kept", got)
		}
	})
}

// A lock with a key twice at its top level is unreadable, so it is never
// broken, whichever copy names a dead pid or this host: a live holder
// {"pid":LIVE,...,"pid":DEAD} (the last copy, which JSON.parse and
// encoding/json keep, is dead) and {"hostname":"host-a",...,"hostname":
// other} block the writer until its timeout, and the lock stays byte for
// byte. Spec: guarantee 2, row R05.
func TestLockWithAKeyTwiceIsNeverBroken(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		live := m.Spawn()
		dead := m.Spawn()
		dead.Kill()
		for _, lock := range []string{
			fmt.Sprintf(`{"pid":%d,"hostname":"host-a","token":"0123456789abcdef01234567","acquiredAt":"2026-01-01T00:00:00.000Z","pid":%d}`, live.PID(), dead.PID()),
			fmt.Sprintf(`{"pid":%d,"hostname":"host-b","token":"0123456789abcdef01234567","acquiredAt":"2026-01-01T00:00:00.000Z","hostname":"host-a"}`, dead.PID()),
		} {
			e.writeRaw(t, lockP, []byte(lock))
			opts := fast(m.Spawn())
			opts.Timeout = lockspec.NoWait
			_, err := lockspec.Acquire(context.Background(), e.fsys, target, opts)
			var te *lockspec.TimeoutError
			if !errors.As(err, &te) || te.Holder.State != lockspec.StateUnreadable {
				t.Errorf("acquire over %s: %v; want a timeout naming an unreadable lock", lock, err)
			}
			if got := e.readRaw(t, lockP); string(got) != lock {
				t.Errorf("the lock %s became %q; want it left byte for byte", lock, got)
			}
		}
	})
}
