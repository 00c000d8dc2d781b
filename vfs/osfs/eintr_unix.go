//go:build unix

package osfs

import "golang.org/x/sys/unix"

// retryEINTR calls f again while it fails with EINTR.
func retryEINTR(f func() (int, error)) (int, error) {
	for {
		n, err := f()
		if err != unix.EINTR {
			return n, err
		}
	}
}
