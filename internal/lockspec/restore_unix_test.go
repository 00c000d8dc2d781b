//go:build unix

package lockspec_test

import (
	"testing"

	"github.com/pa-toolkit/pa/locking/locktest"
)

// A dead writer's temp file whose kernel lock another handle holds is no
// dead writer's: its owner is alive in another pid namespace, where this
// process reads its pid as gone. Nothing is restored from it, and it is
// kept; the missing file starts empty.
func TestUpdateRestoresNothingFromATempFileHeldElsewhere(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		// Identity hosts: this process judges by kernel locks.
		m := locktest.NewMachine(hostname(t))
		dead := m.SpawnIn(nsA)
		dead.Kill()
		temp := restoreTemp(m, dead.PID(), "aaaaaaaaaaaaaaaaaaaaaaaa")
		e.writeRaw(t, temp, []byte(`["r1","r2","r3"]`))
		release := holdKernelLock(t, e, temp)
		wantNoRestoreFrom(t, e, fast(m.SpawnIn(nsA)), temp)
		release()
	})
}
