package probe

import (
	"errors"
	"syscall"
)

// ErrnoName names the system error inside err ("EPERM", or on Windows
// "ERROR_ACCESS_DENIED"), "unsupported" for errors.ErrUnsupported, and ""
// when err carries neither.
func ErrnoName(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		if n := errnoName(errno); n != "" {
			return n
		}
		return "errno " + itoa(uint64(errno))
	}
	if errors.Is(err, errors.ErrUnsupported) {
		return "unsupported"
	}
	return ""
}

func itoa(n uint64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
