package kernel_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/pa-toolkit/pa/locking/kernel"
	"github.com/pa-toolkit/pa/locking/policy"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// Example counts under the kernel lock, then shows single_flight finding
// the lock held: an ordinary result, not an incident.
func Example() {
	dir, _ := os.MkdirTemp("", "kernel-example-")
	defer os.RemoveAll(dir)
	fsys, _ := osfs.New(dir)
	defer fsys.Close()
	ctx := context.Background()
	increment := func(old []byte) ([]byte, error) {
		n, _ := strconv.Atoi(string(old))
		return []byte(strconv.Itoa(n + 1)), nil
	}
	o := kernel.Options{Agent: "crow", Operation: "count"}
	for range 3 {
		if err := kernel.Update(ctx, fsys, "counter", o, increment); err != nil {
			fmt.Println(err)
			return
		}
	}
	data, _ := os.ReadFile(dir + "/counter")
	fmt.Println("counter:", string(data))

	h, err := kernel.Acquire(ctx, fsys, "counter", o)
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = kernel.Acquire(ctx, fsys, "counter", kernel.Options{Policy: policy.SingleFlight})
	code, _ := policy.CodeOf(err)
	fmt.Println("single_flight:", errors.Is(err, kernel.ErrHeld), code)
	h.Release()
	// Output:
	// counter: 3
	// single_flight: true lock_held
}
