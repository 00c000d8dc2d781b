package lockspec_test

import (
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// TestLockWithTrailingNonJSONSpaceIsUnreadable: a lock is JSON; a dead
// holder's lock followed by a vertical tab, a form feed or a Unicode space
// does not parse (JSON.parse refuses it), so it is unreadable and never
// broken automatically. JSON whitespace after it is fine.
func TestLockWithTrailingNonJSONSpaceIsUnreadable(t *testing.T) {
	e := newEstate(t, classes[0])
	m := locktest.NewMachine("host-a")
	lock := deadLock(t, e, m)
	o := fast(m.Spawn())
	e.writeRaw(t, lockP, append(append([]byte(nil), lock...), " \t\r\n"...))
	if h, err := lockspec.Inspect(e.fsys, target, o); err != nil || h.State != lockspec.StateDead {
		t.Fatalf("Inspect of a dead lock with JSON whitespace after it = %v, %v; want dead", h.State, err)
	}
	for _, tr := range []string{"\v", "\f", "\u00a0", "\u0085", "\u2028", "\u3000"} {
		e.writeRaw(t, lockP, append(append([]byte(nil), lock...), tr...))
		h, err := lockspec.Inspect(e.fsys, target, o)
		if err != nil || h.State != lockspec.StateUnreadable {
			t.Errorf("Inspect of a dead lock followed by %q = %v, %v; want unreadable (not JSON)", tr, h.State, err)
		}
	}
}
