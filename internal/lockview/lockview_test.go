package lockview_test

import (
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockview"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/locking"
)

// pa's lines show a holder and a claim byte for byte as package locking's
// errors do (both through lockspec.Shown and internal/display).
func TestSameAsLockingsErrors(t *testing.T) {
	const lock = "agents/a\x1b/spawn-log.json.lock"
	claim := locking.ClaimOwner{Claim: "agents/a/spawn-log.json.lock.claim-\u202e", HostHash: "0a1b2c3d", PID: 42}
	for _, h := range []locking.Holder{
		{PID: 7, Hostname: "h\"x", HasHostname: true, State: locking.StateAlive, AcquiredAt: "t", Age: 3 * time.Second},
		{PID: 7, Hostname: "h", HasHostname: true, State: locking.StateAlive, Evidence: locking.EvidenceKernelLock, OtherNamespace: true},
		{PID: 7, Hostname: "h", HasHostname: true, State: locking.StateAlive, OtherNamespace: true},
		{PID: 7, State: locking.StateDead, Evidence: "pid 7 is gone", AcquiredAt: strings.Repeat("x", 40)},
		{PID: 7, Hostname: "other", HasHostname: true, State: locking.StateOtherHost},
		{PID: 7, State: locking.StateOtherNamespace},
		{State: locking.StateUnreadable},
		{State: locking.StateUnreadable, Size: 1},
		{State: locking.StateUnreadable, Mode: fs.ModeNamedPipe, Age: time.Hour},
	} {
		want := "lock " + lockview.HeldBy(termsafe.Value(lock), h) + ": not removed"
		if got := (&locking.RefusedError{Lock: lock, Holder: h}).Error(); !strings.HasPrefix(got, want) {
			t.Errorf("RefusedError = %q\nwant it to start %q", got, want)
		}
		if d := lockview.Describe(h); !strings.Contains(lockview.HeldBy("L", h), d) {
			t.Errorf("HeldBy does not hold Describe %q", d)
		}
		want = "is breaking it"
		if got := (&locking.BusyError{Lock: lock, Holder: h, Claim: claim}).Error(); !strings.HasSuffix(got, lockview.Claim(claim)+" "+want) {
			t.Errorf("BusyError = %q\nwant it to end %q", got, lockview.Claim(claim)+" "+want)
		}
	}
	if got := lockview.Describe(locking.Holder{PID: 7, State: locking.StateAlive, OtherNamespace: true, Evidence: locking.EvidenceKernelLock}); !strings.Contains(got, "(alive in another pid namespace of this host: holds the lock's kernel lock, ") {
		t.Errorf("Describe = %q; want the other namespace named", got)
	}
}
