package lockspec

import (
	"syscall"
	"testing"
)

// The Windows liveness judgement (alive_windows.go): access denied and a
// running process read as alive; no such process, or an exit code, as dead.
func TestWindowsAlive(t *testing.T) {
	const errorInvalidParameter = syscall.Errno(87) // OpenProcess of a pid that does not exist
	for _, tt := range []struct {
		what    string
		openErr error
		code    uint32
		codeErr error
		want    bool
	}{
		{"access denied", errorAccessDenied, 0, nil, true},
		{"no such process", errorInvalidParameter, 0, nil, false},
		{"running", nil, stillActive, nil, true},
		{"exited 0", nil, 0, nil, false},
		{"exited 1", nil, 1, nil, false},
		{"exit code unreadable", nil, 0, errorAccessDenied, true},
	} {
		if got := windowsAlive(tt.openErr, tt.code, tt.codeErr); got != tt.want {
			t.Errorf("%s: windowsAlive = %v, want %v", tt.what, got, tt.want)
		}
	}
}
