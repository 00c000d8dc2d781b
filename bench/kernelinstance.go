package main

import (
	"context"
	"errors"
	"fmt"

	kernellock "github.com/pa-toolkit/pa/locking/kernel"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// kernelInstance is the kernel lock of locking/kernel (the design of
// kernel-lock-policies.txt) on the folder, through vfs/osfs: a sibling
// data.json.lock taken with a non-blocking flock and a bounded sleep
// between tries, under the mutation policy with the same 10 s deadline as
// the other contenders; its own Update (temp file, sync, rename, folder
// sync).
type kernelInstance struct {
	root *osfs.FS
	o    kernellock.Options
}

func openKernel(dir string) (*kernelInstance, error) {
	root, err := osfs.New(dir)
	if err != nil {
		return nil, err
	}
	return &kernelInstance{root: root, o: kernellock.Options{Deadline: Timeout}}, nil
}

// Update is kernel.Update; acquired, when not nil, is called as fn starts,
// once the lock is held and the data file read (kernel.Update has no
// earlier seam): a handoff measured through it includes that read.
func (k *kernelInstance) Update(fn UpdateFunc, acquired func()) error {
	err := kernellock.Update(context.Background(), k.root, dataName, k.o, func(old []byte) ([]byte, error) {
		if acquired != nil {
			acquired()
		}
		return fn(old, old != nil)
	})
	if errors.Is(err, kernellock.ErrTimeout) {
		return fmt.Errorf("%w: %w", errTimeout, err)
	}
	return err
}

// Lock is kernel.Acquire; its release is Hold.Release.
func (k *kernelInstance) Lock() (func() error, error) {
	h, err := kernellock.Acquire(context.Background(), k.root, dataName, k.o)
	if errors.Is(err, kernellock.ErrTimeout) {
		return nil, fmt.Errorf("%w: %w", errTimeout, err)
	}
	if err != nil {
		return nil, err
	}
	return h.Release, nil
}

func (k *kernelInstance) Close() error { return k.root.Close() }
