//go:build unix

package unixdir

import "golang.org/x/sys/unix"

// RetryEINTR calls f again while it fails with EINTR.
func RetryEINTR(f func() (int, error)) (int, error) {
	for {
		n, err := f()
		if err != unix.EINTR {
			return n, err
		}
	}
}
