package lockspec_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// target is the guarded file of every test; its lock is target + ".lock".
const (
	target = "d/log.json"
	lockP  = "d/log.json.lock"
)

// fsClass is one column of the spec's table.
type fsClass struct {
	name string
	wrap func(vfs.FS) vfs.FS
}

var classes = []fsClass{
	{"links", func(f vfs.FS) vfs.FS { return f }},
	{"nolinks", func(f vfs.FS) vfs.FS { return nolinkfs.New(f, syscall.ENOTSUP).ExclusiveCreate() }},
}

// dirClass is the class of no hard links with the directory publish, the
// default there.
var dirClass = fsClass{"nolinksdir", func(f vfs.FS) vfs.FS { return nolinkfs.New(f, syscall.ENOTSUP) }}

// eachClass runs fn as one subtest per class, on a fresh temp estate whose
// folder "d" exists.
func eachClass(t *testing.T, fn func(t *testing.T, e *estate)) {
	for _, c := range classes {
		t.Run(c.name, func(t *testing.T) { fn(t, newEstate(t, c)) })
	}
}

type estate struct {
	fsys  vfs.FS
	root  string // the FS root on disk
	class string
}

func newEstate(t *testing.T, c fsClass) *estate {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	o, err := osfs.New(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	return &estate{fsys: c.wrap(o), root: root, class: c.name}
}

func (e *estate) path(name string) string { return filepath.Join(e.root, filepath.FromSlash(name)) }

// writeRaw puts bytes under a name, as another process (or a crash) left
// them.
func (e *estate) writeRaw(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(e.path(name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func (e *estate) readRaw(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(e.path(name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (e *estate) exists(name string) bool {
	_, err := os.Lstat(e.path(name))
	return err == nil
}

// ls lists the folder "d", but for the lock's incident log
// (lockspec.IncidentsName): a record that timeouts, breaks and forced
// unlocks append to and no step removes (incident_test.go pins it).
func (e *estate) ls(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir(e.path("d"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range ents {
		if de.Name() != path.Base(lockspec.IncidentsName(target)) {
			names = append(names, de.Name())
		}
	}
	return names
}

// onlyTarget fails unless the folder holds the guarded file and nothing else
// (want false: nothing at all).
func (e *estate) onlyTarget(t *testing.T, want bool) {
	t.Helper()
	got := e.ls(t)
	var expect []string
	if want {
		expect = []string{"log.json"}
	}
	if !slices.Equal(got, expect) {
		t.Fatalf("folder holds %q, want %q", got, expect)
	}
}

// lockJSON is a lock's content as another process would write it.
func lockJSON(pid int, hostname string, withHost bool, token string, at time.Time) []byte {
	m := map[string]any{"pid": pid, "token": token, "acquiredAt": at.UTC().Format("2006-01-02T15:04:05.000Z")}
	if withHost {
		m["hostname"] = hostname
	}
	b, _ := json.Marshal(m)
	return b
}

func hostname(t *testing.T) string {
	t.Helper()
	h, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// fast returns options with short windows for tests.
func fast(h lockspec.Host) lockspec.Options {
	return lockspec.Options{Host: h, Timeout: 300 * time.Millisecond, PollInterval: 2 * time.Millisecond, UnlockBusyWait: 100 * time.Millisecond}
}

// appendRecord is an UpdateFunc that appends rec to a JSON array of strings.
func appendRecord(rec string) lockspec.UpdateFunc {
	return func(cur []byte, exists bool) ([]byte, error) {
		var recs []string
		if exists {
			if err := json.Unmarshal(cur, &recs); err != nil {
				return nil, err
			}
		}
		return json.Marshal(append(recs, rec))
	}
}

// records reads the guarded file's records.
func (e *estate) records(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(e.path(target))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var recs []string
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatalf("guarded file does not parse: %v: %q", err, b)
	}
	return recs
}

// wantRecords fails unless the guarded file holds exactly want, each once,
// in any order.
func (e *estate) wantRecords(t *testing.T, want ...string) {
	t.Helper()
	got := e.records(t)
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		t.Fatalf("records = %q, want %q (each once)", got, want)
	}
}

func contains(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("%q does not contain %q", s, sub)
		}
	}
}

// deadLock writes a lock of a dead process of machine m and returns its
// bytes.
func deadLock(t *testing.T, e *estate, m *locktest.Machine) []byte {
	t.Helper()
	p := m.Spawn()
	p.Kill()
	lock := lockJSON(p.PID(), m.Hostname(), true, "deaddeaddeaddeaddeaddead", time.Now().Add(-time.Hour))
	e.writeRaw(t, lockP, lock)
	return lock
}

func hasStep(steps []lockspec.Step, s lockspec.Step) bool {
	for _, x := range steps {
		if x == s {
			return true
		}
	}
	return false
}

// holdLock takes the lock on target in e for a process of a fresh fake
// host "host-a", with fast options, and returns the host (to spawn the
// waiters on) and the hold.
func holdLock(t *testing.T, e *estate) (*locktest.Machine, *lockspec.Hold) {
	t.Helper()
	m := locktest.NewMachine("host-a")
	holder, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
	if err != nil {
		t.Fatal(err)
	}
	return m, holder
}

// The pid namespaces of the fake identity hosts: nsA is the judges', nsB
// another one of the same host.
const (
	nsA uint64 = 4026531836
	nsB uint64 = 4026532999
)

// otherBoot is a valid boot id that no fake Machine has.
const otherBoot = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"

// judgedAt is the acquiredAt of every hand-made lock, and the file time
// setLock gives it; judgeNow is 3 s later, the judges' clock.
var (
	judgedAt = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	judgeNow = func() time.Time { return judgedAt.Add(3 * time.Second) }
)

// identityLock is a lock's bytes in the one shape record.encode writes, the
// raw JSON members fields (`"boot":"…"`, in the record's order for the
// fast parse) between the token and acquiredAt.
func identityLock(pid int, host string, fields ...string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{"pid":%d,"hostname":"%s","token":"0123456789abcdef01234567"`, pid, host)
	for _, f := range fields {
		b.WriteString("," + f)
	}
	b.WriteString(`,"acquiredAt":"` + judgedAt.Format("2006-01-02T15:04:05.000Z") + `"}`)
	return []byte(b.String())
}

// The identity members as record.encode writes them.
func bootField(b string) string  { return `"boot":"` + b + `"` }
func nsField(ns uint64) string   { return fmt.Sprintf(`"pidNamespace":%d`, ns) }
func startField(s uint64) string { return fmt.Sprintf(`"startTime":%d`, s) }
func kernelField(dev, ino uint64) string {
	return fmt.Sprintf(`"kernelLock":{"dev":%d,"ino":%d}`, dev, ino)
}

// setLock writes data under the lock name, with judgedAt as its file time,
// in place (a lock file already there keeps its inode).
func (e *estate) setLock(t *testing.T, data []byte) {
	t.Helper()
	e.writeRaw(t, lockP, data)
	if err := os.Chtimes(e.path(lockP), judgedAt, judgedAt); err != nil {
		t.Fatal(err)
	}
}

// inspectBy judges the lock as h sees it, on judgeNow's clock.
func (e *estate) inspectBy(t *testing.T, h lockspec.Host) lockspec.Holder {
	t.Helper()
	got, err := lockspec.Inspect(e.fsys, target, lockspec.Options{Host: h, Now: judgeNow})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func keyOf(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:8]) }
