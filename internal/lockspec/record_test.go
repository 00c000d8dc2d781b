package lockspec_test

import (
	"fmt"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs"
)

// An identity field of a wrong type or an absurd value counts as not
// recorded (record.go, parseIdentity; recordown.go for the fast parse): it
// never makes a lock easier to break than the same lock without it. The
// lock's holder is alive in the judge's pid namespace, so the four-field
// lock is alive; each field's valid near neighbour (the "control" rows)
// would make it dead or a block, so a parser that took the absurd value for
// it would turn the row red. The kernelLock rows claim the very file the
// lock is (its device and inode), unlocked: a claim taken as valid would
// read as "no process holds the lock's kernel lock", dead: the judge tries
// that kernel lock for real (flock on the temp folder's file, as every
// judge does whatever its Host), which is what those rows need. A number with a
// leading zero is no JSON: that lock is unreadable, never broken.
func TestAbsurdIdentityFieldsCountAsNotRecorded(t *testing.T) {
	e := newEstate(t, classes[0])
	m := locktest.NewMachine("host-a")
	holder := m.SpawnIn(nsA)
	judge := m.SpawnIn(nsA)
	pid, start, boot := holder.PID(), holder.Self().StartTime, m.Boot()

	e.setLock(t, []byte("{}")) // the file, to learn its key; rewritten in place below
	fi, err := os.Stat(e.path(lockP))
	if err != nil {
		t.Fatal(err)
	}
	key, haveKey := vfs.KeyOf(fi)
	dev, ino := key.Dev, key.Ino

	e.setLock(t, identityLock(pid, "host-a"))
	base := e.inspectBy(t, judge)
	if base.State != lockspec.StateAlive || base.Evidence != "" {
		t.Fatalf("the four-field lock judged %v (%q); want alive, no evidence", base.State, base.Evidence)
	}

	same := func(got lockspec.Holder) bool {
		return got.State == base.State && got.Evidence == base.Evidence && got.Identity == base.Identity && got.KernelLock == base.KernelLock
	}
	for _, c := range []struct {
		field  string
		kind   fieldKind
		kernel bool // needs the file's key
	}{
		{bootField(otherBoot), valid, false},
		{bootField("x"), absurd, false},
		{bootField(""), absurd, false},
		{bootField(strings.ToUpper(otherBoot)), absurd, false},
		{bootField(strings.ToUpper(boot)), absurd, false},
		{bootField("{" + otherBoot + "}"), absurd, false},
		{bootField(otherBoot[:35]), absurd, false},
		{bootField(otherBoot + "0"), absurd, false},
		{bootField(" " + otherBoot[1:]), absurd, false},
		{bootField(strings.ReplaceAll(otherBoot, "-", "")), absurd, false},
		{bootField(otherBoot[:8] + "g" + otherBoot[9:]), absurd, false},
		{bootField(otherBoot[:8] + otherBoot[9:13] + "-" + otherBoot[14:] + "0"), absurd, false}, // a dash out of place
		{`"boot":12345678`, absurd, false},
		{`"boot":null`, absurd, false},
		{`"boot":true`, absurd, false},
		{`"boot":["` + otherBoot + `"]`, absurd, false},
		{`"boot":{"id":"` + otherBoot + `"}`, absurd, false},

		{nsField(nsB), valid, false},
		{`"pidNamespace":"4026532999"`, absurd, false},
		{`"pidNamespace":"123"`, absurd, false},
		{`"pidNamespace":0`, absurd, false},
		{`"pidNamespace":-1`, absurd, false},
		{`"pidNamespace":-4026532999`, absurd, false},
		{`"pidNamespace":1.5`, absurd, false},
		{`"pidNamespace":4026532999.0`, absurd, false},
		{`"pidNamespace":4.026532999e9`, absurd, false},
		{`"pidNamespace":04026532999`, notJSON, false},
		{`"pidNamespace":18446744073709551616`, absurd, false}, // 2^64
		{`"pidNamespace":` + past64(1), absurd, false},         // wraps to 1
		{`"pidNamespace":` + past64(nsB), absurd, false},       // wraps to nsB
		{`"pidNamespace":99999999999999999999999999999999`, absurd, false},
		{`"pidNamespace":null`, absurd, false},
		{`"pidNamespace":true`, absurd, false},
		{`"pidNamespace":[4026532999]`, absurd, false},
		{`"pidNamespace":{}`, absurd, false},

		{startField(start + 1), valid, false},
		{fmt.Sprintf(`"startTime":"%d"`, start+1), absurd, false},
		{`"startTime":"123"`, absurd, false},
		{`"startTime":0`, absurd, false},
		{`"startTime":-1`, absurd, false},
		{fmt.Sprintf(`"startTime":-%d`, start+1), absurd, false},
		{`"startTime":1.5`, absurd, false},
		{fmt.Sprintf(`"startTime":%d.0`, start+1), absurd, false},
		{`"startTime":1e3`, absurd, false},
		{fmt.Sprintf(`"startTime":0%d`, start+1), notJSON, false},
		{`"startTime":18446744073709551616`, absurd, false},
		{`"startTime":` + past64(start+1), absurd, false}, // wraps to a start time not the holder's
		{`"startTime":null`, absurd, false},
		{`"startTime":false`, absurd, false},
		{`"startTime":[1]`, absurd, false},

		{kernelField(dev, ino), valid, true},
		{fmt.Sprintf(`"kernelLock":{"dev":%d,"ino":%d,"x":1}`, dev, ino), absurd, true},
		{fmt.Sprintf(`"kernelLock":{"dev":%d,"ino":%d,"ino":%d}`, dev, ino, ino), absurd, true},
		{fmt.Sprintf(`"kernelLock":{"dev":%d,"dev":%d,"ino":%d}`, dev, dev, ino), absurd, true},
		{fmt.Sprintf(`"kernelLock":{"dev":%d}`, dev), absurd, true},
		{fmt.Sprintf(`"kernelLock":{"ino":%d}`, ino), absurd, true},
		{fmt.Sprintf(`"kernelLock":{"ino":%d,"x":%d}`, ino, dev), absurd, true},
		{fmt.Sprintf(`"kernelLock":{"dev":%d,"ino":0}`, dev), absurd, true},
		{fmt.Sprintf(`"kernelLock":{"dev":-%d,"ino":%d}`, dev, ino), absurd, true},
		{fmt.Sprintf(`"kernelLock":{"dev":%d,"ino":-%d}`, dev, ino), absurd, true},
		{fmt.Sprintf(`"kernelLock":{"dev":"%d","ino":%d}`, dev, ino), absurd, true},
		{fmt.Sprintf(`"kernelLock":{"dev":%d,"ino":"%d"}`, dev, ino), absurd, true},
		{fmt.Sprintf(`"kernelLock":{"dev":%d.0,"ino":%d}`, dev, ino), absurd, true},
		{fmt.Sprintf(`"kernelLock":{"dev":%d,"ino":%d.0}`, dev, ino), absurd, true},
		{fmt.Sprintf(`"kernelLock":{"dev":%d,"ino":%de0}`, dev, ino), absurd, true},
		{fmt.Sprintf(`"kernelLock":{"dev":0%d,"ino":%d}`, dev, ino), notJSON, true},
		{fmt.Sprintf(`"kernelLock":{"dev":%d,"ino":0%d}`, dev, ino), notJSON, true},
		{fmt.Sprintf(`"kernelLock":{"dev":%d,"ino":%s}`, dev, past64(ino)), absurd, true}, // wraps to the file's
		{fmt.Sprintf(`"kernelLock":{"dev":%s,"ino":%d}`, past64(dev), ino), absurd, true},
		{fmt.Sprintf(`"kernelLock":{"Dev":%d,"Ino":%d}`, dev, ino), absurd, true},
		{fmt.Sprintf(`"kernelLock":{"dev":{"n":%d},"ino":%d}`, dev, ino), absurd, true},
		{fmt.Sprintf(`"kernelLock":[%d,%d]`, dev, ino), absurd, true},
		{fmt.Sprintf(`"kernelLock":"%d:%d"`, dev, ino), absurd, true},
		{`"kernelLock":true`, absurd, true},
		{`"kernelLock":null`, absurd, true},
		{`"kernelLock":{}`, absurd, true},
	} {
		t.Run(c.field, func(t *testing.T) {
			if c.kernel && !haveKey {
				t.Skipf("this system's FileInfo gives no device and inode (%T): no kernel-lock claim to match", fi.Sys())
			}
			e.setLock(t, identityLock(pid, "host-a", c.field))
			got := e.inspectBy(t, judge)
			switch {
			case c.kind == valid && same(got):
				t.Fatalf("the valid field judged as the four-field lock (%v, %q): the row proves nothing", got.State, got.Evidence)
			case c.kind == absurd && !same(got):
				t.Fatalf("judged %v, %q, identity %+v, kernel lock %v; want the four-field lock's %v, %q, no identity, no claim",
					got.State, got.Evidence, got.Identity, got.KernelLock, base.State, base.Evidence)
			case c.kind == notJSON && got.State != lockspec.StateUnreadable:
				t.Fatalf("a lock that is not JSON judged %v; want unreadable", got.State)
			}
		})
	}
}

// fieldKind is what an identity field of TestAbsurdIdentityFieldsCountAsNotRecorded is.
type fieldKind int

const (
	absurd  fieldKind = iota // judged as if it were not there
	valid                    // a control: it changes the judgement
	notJSON                  // a number JSON refuses (a leading zero): the lock is unreadable, never broken
)

// past64 is the decimal of 2^64 + n: an integer that wraps to n in 64 bits.
func past64(n uint64) string {
	return new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 64), new(big.Int).SetUint64(n)).String()
}

// The holder's public-safe fields (record.go parseLabels; recordown.go for
// the fast parse): an old record without them is read as before, every
// field empty; a record with them gives them back, in pa's order or any
// other; one of a wrong type or shape (a path, a number, null, an escape,
// a policy that is no policy) counts as not recorded, and never makes the
// lock unreadable or its holder judged otherwise.
func TestLabelFieldsParse(t *testing.T) {
	e := newEstate(t, classes[0])
	m := locktest.NewMachine("host-a")
	holder := m.SpawnIn(nsA)
	judge := m.SpawnIn(nsA)
	pid := holder.PID()
	id := lockspec.LockID(target)

	e.setLock(t, identityLock(pid, "host-a"))
	old := e.inspectBy(t, judge)
	if old.State != lockspec.StateAlive || old.LockID != "" || old.Agent != "" || old.Operation != "" || old.Policy != "" {
		t.Fatalf("an old record: %v, labels %q %q %q %q; want alive and none", old.State, old.LockID, old.Agent, old.Operation, old.Policy)
	}
	all := []string{`"lock_id":"` + id + `"`, `"agent":"demo"`, `"operation":"board repair"`, `"policy":"monitor"`}
	for _, fields := range [][]string{all, {all[3], all[1], all[0], all[2]}} {
		e.setLock(t, identityLock(pid, "host-a", fields...))
		got := e.inspectBy(t, judge)
		if got.State != old.State || got.PID != pid || got.LockID != id || got.Agent != "demo" || got.Operation != "board repair" || got.Policy != "monitor" {
			t.Errorf("%s: %v, labels %q %q %q %q; want alive and each label", fields, got.State, got.LockID, got.Agent, got.Operation, got.Policy)
		}
	}
	for _, field := range []string{
		`"lock_id":"/home/alice/d/log.json"`, `"lock_id":"lk_0123456789ABCDEF"`, `"lock_id":"lk_0123"`, `"lock_id":5`,
		`"agent":"/home/alice"`, `"agent":"a\u001b[2J"`, `"agent":""`, `"agent":null`, `"agent":"` + strings.Repeat("a", 65) + `"`,
		`"operation":"$HOME"`, `"operation":["x"]`, `"operation":"a\\b"`,
		`"policy":"hurry"`, `"policy":"single-flight"`, `"policy":1`,
	} {
		e.setLock(t, identityLock(pid, "host-a", field))
		got := e.inspectBy(t, judge)
		if got.State != old.State || got.Evidence != old.Evidence || got.LockID != "" || got.Agent != "" || got.Operation != "" || got.Policy != "" {
			t.Errorf("%s: %v (%q), labels %q %q %q %q; want alive as without it and the label not recorded",
				field, got.State, got.Evidence, got.LockID, got.Agent, got.Operation, got.Policy)
		}
	}
}
