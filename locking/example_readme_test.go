package locking_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// increment adds one to the number in dir/counter, under the file's lock.
func increment(ctx context.Context, dir string) error {
	fsys, err := osfs.New(dir) // the real file system, rooted at dir
	if err != nil {
		return err
	}
	defer fsys.Close()
	return locking.Update(ctx, fsys, "counter", func(old []byte, exists bool) ([]byte, error) {
		if !exists {
			return []byte("1"), nil
		}
		n, err := strconv.Atoi(string(old))
		if err != nil {
			return nil, err // not a number: nothing is written
		}
		return []byte(strconv.Itoa(n + 1)), nil
	}, locking.Options{}) // a lock still held after 10 s: a *locking.TimeoutError
}

// The README's library example: increment (its text is the README's, kept
// so by TestREADMELibraryExample), run by eight goroutines at once, each
// with a file system of its own as a process would have, loses no update.
func Example() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if err := increment(context.Background(), dir); err != nil {
				fmt.Println(err)
			}
		})
	}
	wg.Wait()
	b, err := os.ReadFile(filepath.Join(dir, "counter"))
	fmt.Println(string(b), err)
	// Output: 8 <nil>
}
