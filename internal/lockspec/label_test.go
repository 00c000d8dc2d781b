package lockspec_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/locking/policy"
)

// The holder's labels reach its record and come back in its Holder: the
// lock's hashed id (never the path), the agent, the operation and the
// policy, in the shape record.encode writes (acquiredAt last), on both
// classes; the lock's id is the same for every process naming the file
// alike.
func TestLabelsRecordedAndRead(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine("host-a")
		opts := fast(m.Spawn())
		opts.Agent, opts.Operation, opts.Policy = "demo", "dispatch open", "single_flight"
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer h.Release()
		data := string(e.readRaw(t, lockP))
		want := `,"lock_id":"` + lockspec.LockID(target) + `","agent":"demo","operation":"dispatch open","policy":"single_flight","acquiredAt":"`
		if !strings.Contains(data, want) || strings.Contains(data, e.root) || strings.Contains(data, target) {
			t.Errorf("record %s; want %s... before acquiredAt, and no path", data, want)
		}
		got, err := lockspec.Inspect(e.fsys, target, lockspec.Options{Host: m.Spawn()})
		if err != nil {
			t.Fatal(err)
		}
		if got.LockID != lockspec.LockID(target) || got.Agent != "demo" || got.Operation != "dispatch open" || got.Policy != "single_flight" {
			t.Errorf("Holder %q %q %q %q; want the labels recorded", got.LockID, got.Agent, got.Operation, got.Policy)
		}
	})
	if a, b := lockspec.LockID("d/log.json"), lockspec.LockID("d/./log.json"); a != b || len(a) != 19 || !strings.HasPrefix(a, "lk_") || a == lockspec.LockID("d/other.json") {
		t.Errorf("LockID: %q, %q; want one stable lk_ and 16 hex id per file", a, b)
	}
}

// A label a record must not hold fails Acquire and Update with a
// *LabelError, code lock_invalid_label, before any file is touched: a
// path, a variable, a control character, a long one, a policy that is no
// policy. Its message names the field, never the value.
func TestBadLabelsRefusedBeforeAnything(t *testing.T) {
	for _, c := range []struct {
		field string
		set   func(o *lockspec.Options)
	}{
		{"agent", func(o *lockspec.Options) { o.Agent = "/home/alice" }},
		{"agent", func(o *lockspec.Options) { o.Agent = `C:\Users\alice` }},
		{"agent", func(o *lockspec.Options) { o.Agent = "$HOME" }},
		{"agent", func(o *lockspec.Options) { o.Agent = "a\x1b[2J" }},
		{"agent", func(o *lockspec.Options) { o.Agent = strings.Repeat("a", lockspec.MaxLabel+1) }},
		{"operation", func(o *lockspec.Options) { o.Operation = "TOKEN=s3cret" }},
		{"operation", func(o *lockspec.Options) { o.Operation = "rm\n-rf" }},
		{"policy", func(o *lockspec.Options) { o.Policy = "hurry" }},
		{"policy", func(o *lockspec.Options) { o.Policy = "single-flight" }},
	} {
		e := newEstate(t, classes[0])
		opts := fast(locktest.NewMachine("host-a").Spawn())
		c.set(&opts)
		_, err := lockspec.Acquire(context.Background(), e.fsys, target, opts)
		uerr := lockspec.Update(context.Background(), e.fsys, target, appendRecord("x"), opts)
		var le *lockspec.LabelError
		for _, err := range []error{err, uerr} {
			code, _ := policy.CodeOf(err)
			if !errors.As(err, &le) || le.Field != c.field || code != policy.CodeInvalidLabel {
				t.Errorf("%s %+v: %v; want a *LabelError of %s", c.field, opts, err, c.field)
				continue
			}
			if msg := err.Error(); strings.Contains(msg, "alice") || strings.Contains(msg, "s3cret") || strings.Contains(msg, "\x1b") || strings.Contains(msg, "hurry") {
				t.Errorf("%s: %q names the value", c.field, msg)
			}
		}
		if ls := e.ls(t); len(ls) != 0 {
			t.Errorf("%s: a refused label left %q", c.field, ls)
		}
	}
	e := newEstate(t, classes[0])
	opts := fast(locktest.NewMachine("host-a").Spawn())
	opts.Agent, opts.Operation, opts.Policy = "a-b_c.d:e@f+g 1", strings.Repeat("o", lockspec.MaxLabel), "monitor"
	if err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("x"), opts); err != nil {
		t.Errorf("labels of every allowed character: %v", err)
	}
}
