package conformance

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// Shapes of the names beside the lock (spec: The lock file and the names
// beside it).
const (
	shapeCurrent = "current"
	shapeFirst   = "first-earlier" // no host: claim-<inode>, broken-<pid>-<hex>, tmp-<pid>-<hex>
	shapeSecond  = "second-earlier"
)

// leftovers returns names beside the lock in one shape, owned by pid on
// hostname, with their contents (base names in the agent's folder).
func leftovers(shape string, pid int, hostname string) map[string][]byte {
	h := lockspec.HostHash(hostname)
	owner := lockJSON(pid, hostname, true, token24, time.Now())
	noHost := lockJSON(pid, "", false, token24, time.Now())
	l, g := logBase+".lock", logBase
	switch shape {
	case shapeFirst:
		return map[string][]byte{
			l + ".claim-1234567":                       noHost,
			fmt.Sprintf("%s.broken-%d-9f8e7d", l, pid): noHost,
			fmt.Sprintf("%s.tmp-%d-9f8e7d", g, pid):    []byte(`{}`),
		}
	case shapeSecond:
		return map[string][]byte{
			l + ".claim-h0a1b2c3d4e5f6a7b":                                 owner,
			fmt.Sprintf("%s.pending-%s-%d-1700000000000", l, h, pid):       owner,
			fmt.Sprintf("%s.broken-%s-%d-1700000000000-abc123", l, h, pid): owner,
			fmt.Sprintf("%s.tmp-%s-%d-1700000000000-abc123", g, h, pid):    []byte(`{}`),
		}
	}
	return map[string][]byte{
		fmt.Sprintf("%s.pending-%s-%d-%s", l, h, pid, token24):                owner,
		fmt.Sprintf("%s.claim-0123456789abcdef-%s-%d-%s", l, h, pid, token24): []byte(`{}`),
		fmt.Sprintf("%s.broken-%s-%d-%s", l, h, pid, token24):                 owner,
		fmt.Sprintf("%s.tmp-%s-%d-%s", g, h, pid, token24):                    []byte(`{}`),
	}
}

// R25: leftovers in one shape with a dead owner (with, for the first
// earlier shape, a lock with no hostname) are cleared at the first
// acquire, with no wait, and the next write loses nothing.
func deadLeftoversCleared(shape string) func(t *testing.T, s *site) {
	return func(t *testing.T, s *site) {
		dead := s.deadPID(t)
		s.writeRaw(t, logName, logDoc("before"))
		withHost := shape != shapeFirst
		s.writeRaw(t, lockName, lockJSON(dead, s.hostname(), withHost, "deaddeaddeaddeaddeaddead", time.Now()))
		left := leftovers(shape, dead, s.hostname())
		for name, data := range left {
			s.writeRaw(t, agentDir+"/"+name, data)
		}
		o := noWait(s.me())
		judged := 0
		lockspec.SetOnStep(&o, func(st lockspec.Step) {
			if st == lockspec.StepSweepJudged {
				judged++
			}
		})
		s.mustWrite(t, "after", o)
		s.wantTitles(t, "before", "after")
		s.onlyLog(t)
		if judged != len(left) {
			t.Fatalf("sweep:judged %d times; want once a leftover (%d)", judged, len(left))
		}
	}
}

// R26: leftovers whose owner is alive, on another host or unreadable are
// left alone, in every shape, however old (a year here), and the next
// write loses nothing.
func liveForeignUnreadableLeftAlone(t *testing.T, s *site) {
	live := s.livePID(t)
	dead := s.deadPID(t)
	keep := map[string][]byte{}
	for _, shape := range []string{shapeCurrent, shapeFirst, shapeSecond} {
		maps.Copy(keep, leftovers(shape, live, s.hostname())) // alive
		for name, data := range leftovers(shape, dead, "another-host") {
			switch {
			case name == logBase+".lock.claim-h0a1b2c3d4e5f6a7b":
				keep[name+"0"] = data // another host in its content
			case strings.Contains(name, lockspec.HostHash("another-host")):
				keep[name] = data // another host in its name
			}
		}
	}
	// earlier claims whose owner cannot be read
	keep[logBase+".lock.claim-7654321"] = []byte("garbage")
	keep[logBase+".lock.claim-hdeadbeef"] = nil
	for name, data := range keep {
		s.writeRaw(t, agentDir+"/"+name, data)
		s.chtimes(t, agentDir+"/"+name, time.Now().Add(-365*24*time.Hour)) // old: age is never a reason
	}
	s.writeRaw(t, logName, logDoc("before"))
	s.mustWrite(t, "after", noWait(s.me()))
	s.wantTitles(t, "before", "after")
	want := []string{logBase}
	for name := range keep {
		want = append(want, name)
	}
	slices.Sort(want)
	if got := s.ls(t); !slices.Equal(got, want) {
		t.Fatalf("the folder holds\n%q\nwant\n%q", got, want)
	}
	for name, data := range keep {
		if !bytes.Equal(s.readRaw(t, agentDir+"/"+name), data) {
			t.Errorf("%s changed", name)
		}
	}
}

// R27: claims, broken files, pending files and temp files carry the
// attempt's own token, so two attempts never share a name: five writes,
// each breaking a dead lock, make no name twice.
func namesUniquePerAttempt(t *testing.T, s *site) {
	ffs := faultfs.New(s.fs)
	var mu sync.Mutex
	seen := map[string]bool{}
	var dup []string
	ffs.Before(func(ev faultfs.Event) error {
		// A name is made by the exclusive create of a pending file, a claim
		// or a temp file, or by the rename to a broken name.
		var name string
		switch {
		case ev.Op == faultfs.OpOpenFile && ev.Flag&os.O_CREATE != 0 && (strings.Contains(ev.Name, ".pending-") || strings.Contains(ev.Name, ".claim-") || strings.Contains(ev.Name, ".tmp-")):
			name = ev.Name
		case ev.Op == faultfs.OpRename && strings.Contains(ev.NewName, ".broken-"):
			name = ev.NewName
		default:
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		if seen[name] {
			dup = append(dup, name)
		}
		seen[name] = true
		return nil
	})
	for i := range 5 {
		s.writeRaw(t, lockName, lockJSON(s.deadPID(t), s.hostname(), true, "deaddeaddeaddeaddeaddead", time.Now()))
		if _, err := spawnlog.Append(context.Background(), ffs, agent, fmt.Sprint(i), nil, noWait(s.me())); err != nil {
			t.Fatal(err)
		}
	}
	if len(dup) > 0 {
		t.Fatalf("names made twice: %q", dup)
	}
	kinds := map[string]int{}
	for name := range seen {
		for _, k := range []string{".pending-", ".claim-", ".broken-", ".tmp-"} {
			if strings.Contains(name, k) {
				kinds[k]++
			}
		}
	}
	for _, k := range []string{".pending-", ".claim-", ".broken-", ".tmp-"} {
		if kinds[k] < 5 {
			t.Errorf("only %d %s names made in 5 writes: %v", kinds[k], k, seen)
		}
	}
}
