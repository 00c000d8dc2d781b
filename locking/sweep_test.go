package locking_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// leftovers returns names beside the lock, in every shape of the spec,
// owned by pid on host (hostname), with their contents.
func leftovers(pid int, hostname string) map[string][]byte {
	h := locking.HostHash(hostname)
	owner := lockJSON(pid, hostname, true, "0123456789abcdef01234567", time.Now())
	noHost := lockJSON(pid, "", false, "0123456789abcdef01234567", time.Now())
	return map[string][]byte{
		// current shape
		fmt.Sprintf("log.json.lock.pending-%s-%d-0123456789abcdef01234567", h, pid):                owner,
		fmt.Sprintf("log.json.lock.claim-0123456789abcdef-%s-%d-0123456789abcdef01234567", h, pid): []byte(`{}`),
		fmt.Sprintf("log.json.lock.broken-%s-%d-0123456789abcdef01234567", h, pid):                 owner,
		fmt.Sprintf("log.json.tmp-%s-%d-0123456789abcdef01234567", h, pid):                         []byte(`[]`),
		// first earlier shape: no host
		"log.json.lock.claim-1234567":                      noHost,
		fmt.Sprintf("log.json.lock.broken-%d-9f8e7d", pid): noHost,
		fmt.Sprintf("log.json.tmp-%d-9f8e7d", pid):         []byte(`[]`),
		// second earlier shape: host and pid
		"log.json.lock.claim-h0a1b2c3d4e5f6a7b":                                owner,
		fmt.Sprintf("log.json.lock.pending-%s-%d-1700000000000", h, pid):       owner,
		fmt.Sprintf("log.json.lock.broken-%s-%d-1700000000000-abc123", h, pid): owner,
		fmt.Sprintf("log.json.tmp-%s-%d-1700000000000-abc123", h, pid):         []byte(`[]`),
	}
}

// R25: leftovers in the earlier shapes (and the current one) with a dead
// owner are cleared at the first acquire, with no wait, and the next write
// loses nothing. The lock itself, with no hostname, is broken.
func TestSweepClearsDeadLeftovers(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		dead := locktest.DeadPID(t)
		e.writeRaw(t, target, []byte(`["before"]`))
		e.writeRaw(t, lockP, lockJSON(dead, "", false, "deaddeaddeaddeaddeaddead", time.Now()))
		for name, data := range leftovers(dead, hostname(t)) {
			e.writeRaw(t, "d/"+name, data)
		}
		opts := fast(nil)
		opts.Timeout = locking.NoWait
		judged := 0
		opts.OnStep = func(s locking.Step) {
			if s == locking.StepSweepJudged {
				judged++
			}
		}
		if err := locking.Update(context.Background(), e.fsys, target, appendRecord("after"), opts); err != nil {
			t.Fatal(err)
		}
		e.wantRecords(t, "before", "after")
		e.onlyTarget(t, true)
		if judged != len(leftovers(dead, hostname(t))) {
			t.Fatalf("sweep:judged %d times, want once per leftover (%d)", judged, len(leftovers(dead, hostname(t))))
		}
	})
}

// R26: leftovers whose owner is alive, on another host or unreadable are
// left alone, in every shape, and the next write loses nothing.
func TestSweepLeavesLiveForeignAndUnreadable(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		live := locktest.LivePID(t)
		dead := locktest.DeadPID(t)
		keep := leftovers(live, hostname(t)) // alive, every shape
		for name, data := range leftovers(dead, "another-host") {
			switch {
			case name == "log.json.lock.claim-h0a1b2c3d4e5f6a7b":
				keep[name+"0"] = data // another host in its content
			case strings.Contains(name, locking.HostHash("another-host")):
				keep[name] = data // another host in its name
			}
		}
		// earlier claims whose owner cannot be read
		keep["log.json.lock.claim-7654321"] = []byte("garbage")
		keep["log.json.lock.claim-hdeadbeef"] = nil
		for name, data := range keep {
			e.writeRaw(t, "d/"+name, data)
		}
		e.writeRaw(t, target, []byte(`["before"]`))
		opts := fast(nil)
		opts.Timeout = locking.NoWait
		if err := locking.Update(context.Background(), e.fsys, target, appendRecord("after"), opts); err != nil {
			t.Fatal(err)
		}
		e.wantRecords(t, "before", "after")
		want := []string{"log.json"}
		for name := range keep {
			want = append(want, name)
		}
		slices.Sort(want)
		if got := e.ls(t); !slices.Equal(got, want) {
			t.Fatalf("folder holds\n%q\nwant\n%q", got, want)
		}
	})
}
