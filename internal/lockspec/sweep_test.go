package lockspec_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs"
)

// The sweep lists only the names that begin like one beside the lock: among
// many unrelated files, and files whose names only look alike, it removes
// the dead owner's leftovers of every shape and touches nothing else, with
// the listing by prefix and without it.
func TestSweepAmongUnrelatedNames(t *testing.T) {
	for _, c := range []struct {
		name string
		wrap func(vfs.FS) vfs.FS
	}{
		{"by prefix", func(f vfs.FS) vfs.FS { return f }},
		{"by ReadDir", func(f vfs.FS) vfs.FS { return plainFS{f} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			eachClass(t, func(t *testing.T, e *estate) {
				m := locktest.NewMachine("host-a")
				dead := m.Spawn()
				dead.Kill()
				host := lockspec.HostHash("host-a")
				owned := fmt.Sprintf("%s-%d-%s", host, dead.PID(), "0123456789abcdef01234567")
				leftovers := []string{
					"log.json.lock.pending-" + owned,
					"log.json.lock.broken-" + owned,
					"log.json.lock.claim-0123456789abcdef-" + owned,
					"log.json.tmp-" + owned,
					fmt.Sprintf("log.json.lock.broken-%d-abcdef", dead.PID()),
					fmt.Sprintf("log.json.tmp-%d-abcdef", dead.PID()),
				}
				unrelated := []string{
					"log.json.lockfile-" + owned, "log.json.tmpx-" + owned, "log.jsonl.lock.pending-" + owned,
					"other.json.lock.pending-" + owned, "log.json.bak",
				}
				for i := range 500 {
					unrelated = append(unrelated, fmt.Sprintf("unrelated-%04d.dat", i))
				}
				for _, n := range append(slices.Clone(leftovers), unrelated...) {
					e.writeRaw(t, "d/"+n, nil)
				}
				h, err := lockspec.Acquire(context.Background(), c.wrap(e.fsys), target, fast(m.Spawn()))
				if err != nil {
					t.Fatal(err)
				}
				h.Release()
				for _, n := range leftovers {
					if e.exists("d/" + n) {
						t.Errorf("the dead owner's %s was not swept", n)
					}
				}
				for _, n := range unrelated {
					if !e.exists("d/" + n) {
						t.Errorf("the sweep removed %s, which is not beside the lock", n)
					}
				}
			})
		})
	}
}

// A pending file's probe name (where a hold learns whether a kernel lock
// taken through one link is the lock of another) is swept by its pending
// twin alone: kept while the twin is there, whatever its owner's pid says,
// removed once the twin is gone even where its owner's pid answers (a pid
// of another namespace may name anyone here), and left when it is another
// host's.
func TestSweepOfProbeNames(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		live, dead := m.Spawn(), m.Spawn()
		dead.Kill()
		host := lockspec.HostHash("host-a")
		twinned := fmt.Sprintf("%s-%d-%s", host, live.PID(), "0123456789abcdef01234567")
		deadTwinned := fmt.Sprintf("%s-%d-%s", host, dead.PID(), "0123456789abcdef01234568")
		alone := fmt.Sprintf("%s-%d-%s", host, live.PID(), "89abcdef0123456701234567")
		elsewhere := fmt.Sprintf("%s-%d-%s", lockspec.HostHash("host-b"), live.PID(), "89abcdef0123456701234567")
		for _, n := range []string{
			"log.json.lock.pending-" + twinned, "log.json.lock.probe-" + twinned,
			"log.json.lock.pending-" + deadTwinned, "log.json.lock.probe-" + deadTwinned,
			"log.json.lock.probe-" + alone, "log.json.lock.probe-" + elsewhere,
		} {
			e.writeRaw(t, "d/"+n, nil)
		}
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
		if err != nil {
			t.Fatal(err)
		}
		h.Release()
		for n, kept := range map[string]bool{
			"log.json.lock.pending-" + twinned:     true,
			"log.json.lock.probe-" + twinned:       true,
			"log.json.lock.pending-" + deadTwinned: false,
			"log.json.lock.probe-" + deadTwinned:   false,
			"log.json.lock.probe-" + alone:         false,
			"log.json.lock.probe-" + elsewhere:     true,
		} {
			if e.exists("d/"+n) != kept {
				t.Errorf("%s: kept = %v; want %v", n, !kept, kept)
			}
		}
	})
}

// A directory named as a probe name of this host, with no pending twin, is
// no probe of the lock's (a probe is a link of a pending file): the sweep
// leaves it, empty as it is, where a probe file would go.
func TestSweepLeavesADirectoryNamedAsAProbe(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		live := m.Spawn()
		name := fmt.Sprintf("d/log.json.lock.probe-%s-%d-%s", lockspec.HostHash("host-a"), live.PID(), "89abcdef0123456701234567")
		if err := os.Mkdir(e.path(name), 0o755); err != nil {
			t.Fatal(err)
		}
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
		if err != nil {
			t.Fatal(err)
		}
		h.Release()
		if !e.exists(name) {
			t.Errorf("the sweep removed the directory %s", name)
		}
	})
}
