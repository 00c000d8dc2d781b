package locking_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
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
			fmt.Println(err) // a *TimeoutError names the lock and its holder
			return
		}
	}
	b, _ := os.ReadFile(dir + "/counter")
	fmt.Println(string(b))
	// Output: 3
}

// Unlock removes a lock whose holder is provably dead, by the break's
// steps, and nothing else. Here a worker of a fake host (locktest, whose
// processes can be made and killed at will) takes the lock of report.json
// on the real file system and dies holding it. Inspect reads the holder;
// Unlock is given exactly that holder, so a lock changed since would be
// left alone (ErrLockChanged); then the next writer takes the lock at once.
func ExampleUnlock() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	fsys, err := osfs.New(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer fsys.Close()
	machine := locktest.NewMachine("build-host")
	worker := machine.Spawn()
	if _, err := locking.Acquire(ctx, fsys, "report.json", locking.Options{Host: worker}); err != nil {
		fmt.Println(err)
		return
	}
	worker.Kill() // the worker dies holding the lock

	operator := locking.Options{Host: machine.Spawn()}
	held, err := locking.Inspect(fsys, "report.json", operator)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("report.json.lock held by pid %d on %s: %s\n", held.PID, held.Hostname, held.State)
	if err := locking.Unlock(ctx, fsys, "report.json", held, false, operator); err != nil {
		fmt.Println(err)
		return
	}
	_, err = os.Stat(filepath.Join(dir, "report.json.lock"))
	fmt.Println("removed:", errors.Is(err, fs.ErrNotExist))
	entries, _ := os.ReadDir(dir)
	fmt.Println("left beside it:", len(entries))

	next, err := locking.Acquire(ctx, fsys, "report.json", locking.Options{Host: machine.Spawn(), Timeout: locking.NoWait})
	fmt.Println("the next writer:", err)
	if err == nil {
		_ = next.Release()
	}
	// Output:
	// report.json.lock held by pid 1001 on build-host: dead
	// removed: true
	// left beside it: 0
	// the next writer: <nil>
}
