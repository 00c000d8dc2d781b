//go:build unix

package lockspec_test

import (
	"context"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
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
		opts := fast(m.SpawnIn(nsA))
		told := 0
		lockspec.SetRestore(&opts, arrayRestorer, func(string, string) { told++ })
		if err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("mine"), opts); err != nil {
			t.Fatal(err)
		}
		e.wantRecords(t, "mine")
		if told != 0 || !e.exists(temp) {
			t.Errorf("told %d times, temp file there: %v; want no restore from a held temp file, and it kept", told, e.exists(temp))
		}
		release()
	})
}
