package locking_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// The errors name the command that clears the lock: the spec's
// `pa dispatch unlock` by default, and Options.UnlockCommand, whole, for a
// program that guards a file of its own (a library user's lock is not a
// spawn-log, and pa's unlock could not clear it).
func TestErrorsNameTheUnlockCommand(t *testing.T) {
	const own = "mytool unlock --file counter"
	for _, c := range []struct {
		cmd, want string
	}{
		{"", "pa dispatch unlock --force"},
		{own, own + " --force"},
	} {
		e := newEstate(t, classes[0])
		m := locktest.NewMachine("host-a")
		holder, err := locking.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
		if err != nil {
			t.Fatal(err)
		}
		o := fast(m.Spawn())
		o.Timeout = 20 * time.Millisecond
		o.UnlockCommand = c.cmd

		_, err = locking.Acquire(context.Background(), e.fsys, target, o)
		var te *locking.TimeoutError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), "clear it with "+c.want+", only once") {
			t.Errorf("UnlockCommand %q: Acquire beside a live holder = %v; want a TimeoutError naming %q", c.cmd, err, c.want)
		}
		if c.cmd != "" && strings.Contains(err.Error(), "pa dispatch") {
			t.Errorf("UnlockCommand %q: the timeout names pa's command: %v", c.cmd, err)
		}

		held, err := locking.Inspect(e.fsys, target, o)
		if err != nil {
			t.Fatal(err)
		}
		err = locking.Unlock(context.Background(), e.fsys, target, held, false, o)
		var re *locking.RefusedError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), "use "+c.want+" only once") {
			t.Errorf("UnlockCommand %q: Unlock of a live holder = %v; want a RefusedError naming %q", c.cmd, err, c.want)
		}
		holder.Release()
	}
}
