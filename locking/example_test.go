package locking_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// Update is a whole read-modify-write of one file under its lock: here a
// counter, incremented by as many writers as run at once, none lost.
func ExampleUpdate() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	fsys, err := osfs.New(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer fsys.Close()

	increment := func(current []byte, exists bool) ([]byte, error) {
		n := 0
		if exists {
			if n, err = strconv.Atoi(string(current)); err != nil {
				return nil, err // a file that does not parse is never overwritten
			}
		}
		return []byte(strconv.Itoa(n + 1)), nil
	}
	for i := 0; i < 3; i++ {
		if err := locking.Update(context.Background(), fsys, "counter", increment, locking.Options{}); err != nil {
			var te *locking.TimeoutError
			if errors.As(err, &te) {
				fmt.Println("held by", te.Holder.Describe())
			}
			return
		}
	}
	b, _ := os.ReadFile(dir + "/counter")
	fmt.Println(string(b))
	// Output: 3
}

// Inspect reads who holds a lock without changing anything; Unlock removes
// exactly that lock, and only when its holder is provably dead (or with
// force, the operator's decision).
func ExampleUnlock() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	fsys, _ := osfs.New(dir)
	defer fsys.Close()

	holder, err := locking.Inspect(fsys, "counter", locking.Options{})
	if errors.Is(err, os.ErrNotExist) {
		fmt.Println("no lock")
		return
	}
	fmt.Println(holder.HeldBy("counter.lock"))
	if err := locking.Unlock(context.Background(), fsys, "counter", holder, false, locking.Options{}); err != nil {
		fmt.Println(err)
	}
	// Output: no lock
}
