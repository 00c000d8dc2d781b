package vfs_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
)

// Each wrapper forwards the wait queue of the FS it wraps: the first place
// is the head, the second is not while the first is there.
func TestWrappersForwardQueue(t *testing.T) {
	for _, w := range wrappers {
		t.Run(w.name, func(t *testing.T) {
			o, _ := osWithLock(t)
			if p, err := o.JoinQueue("d/l"); errors.Is(err, errors.ErrUnsupported) {
				t.Skip("no queue on this system")
			} else if err == nil {
				p.Close()
			}
			fsys := w.wrap(o)
			first, err := vfs.JoinQueue(fsys, "d/l")
			if err != nil {
				t.Fatalf("JoinQueue through %s: %v", w.name, err)
			}
			defer first.Close()
			second, err := vfs.JoinQueue(fsys, "d/l")
			if err != nil {
				t.Fatalf("JoinQueue through %s: %v", w.name, err)
			}
			defer second.Close()
			if head, err := first.Wait(context.Background(), 0); !head || err != nil {
				t.Fatalf("first place through %s: Wait = %v, %v; want the head", w.name, head, err)
			}
			if head, err := second.Wait(context.Background(), 0); head || err != nil {
				t.Fatalf("second place through %s: Wait = %v, %v; want not the head", w.name, head, err)
			}
		})
	}
}
