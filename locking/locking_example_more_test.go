package locking_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/aferofs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// settings is the JSON document of the examples below.
type settings struct {
	Theme    string `json:"theme"`
	Launches int    `json:"launches"`
}

// launch counts one launch in the settings: a whole read-modify-write that
// Update may run again after a lost lock, so it has no side effect.
func launch(current []byte, exists bool) ([]byte, error) {
	s := settings{Theme: "dark"}
	if exists {
		if err := json.Unmarshal(current, &s); err != nil {
			return nil, err // a file that does not parse is never overwritten
		}
	}
	s.Launches++
	return json.MarshalIndent(s, "", "  ")
}

// Update works for any file: here a JSON document, updated under its lock
// on the real file system. Each commit is a temp file renamed over it,
// fenced by a re-read of the lock.
func ExampleUpdate_json() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	fsys, err := osfs.New(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer fsys.Close()

	for range 2 {
		if err := locking.Update(context.Background(), fsys, "settings.json", launch, locking.Options{}); err != nil {
			fmt.Println(err)
			return
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "settings.json"))
	fmt.Println(string(b))
	// Output:
	// {
	//   "theme": "dark",
	//   "launches": 2
	// }
}

// The same update on an in-memory file system: aferofs.NewMem is afero's
// MemMapFs guarded for the lock (docs/adapters.md). It has no hard links,
// so each hold takes the lock by an exclusive create.
func ExampleUpdate_inMemory() {
	fsys := aferofs.NewMem()
	for range 3 {
		if err := locking.Update(context.Background(), fsys, "settings.json", launch, locking.Options{}); err != nil {
			fmt.Println(err)
			return
		}
	}
	b, _, _ := vfs.ReadFile(fsys, "settings.json", 0)
	var s settings
	_ = json.Unmarshal(b, &s)
	fmt.Printf("%+v\n", s)
	// Output: {Theme:dark Launches:3}
}

// Inspect reads who holds a lock and changes nothing; Unlock refuses a
// holder that may be alive, and removes exactly the lock inspected once its
// holder is provably dead. The host here is a fake one (locktest), whose
// processes can be made and killed at will.
func ExampleInspect() {
	ctx := context.Background()
	fsys := aferofs.NewMem()
	machine := locktest.NewMachine("build-host")
	worker := machine.Spawn()
	operator := locking.Options{Host: machine.Spawn()}

	if _, err := locking.Acquire(ctx, fsys, "counter", locking.Options{Host: worker}); err != nil {
		fmt.Println(err)
		return
	}
	held, _ := locking.Inspect(fsys, "counter", operator)
	fmt.Println(held.PID == worker.PID(), held.Hostname, held.State)
	var refused *locking.RefusedError
	err := locking.Unlock(ctx, fsys, "counter", held, false, operator)
	fmt.Println("refused:", errors.As(err, &refused))

	worker.Kill() // the worker dies holding the lock
	held, _ = locking.Inspect(fsys, "counter", operator)
	fmt.Println(held.State)
	fmt.Println("unlocked:", locking.Unlock(ctx, fsys, "counter", held, false, operator))
	_, err = locking.Inspect(fsys, "counter", operator)
	fmt.Println("no lock:", errors.Is(err, fs.ErrNotExist))
	// Output:
	// true build-host alive
	// refused: true
	// dead
	// unlocked: <nil>
	// no lock: true
}
