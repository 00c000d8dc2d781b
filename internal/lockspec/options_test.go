package lockspec_test

import (
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
)

// The spec's windows are the defaults.
func TestDefaultWindows(t *testing.T) {
	if lockspec.DefaultTimeout != 10*time.Second ||
		lockspec.DefaultUnlockBusyWait != time.Second || lockspec.DefaultPollInterval != 10*time.Millisecond {
		t.Fatalf("windows %v %v %v; want the spec's 10s, 1s and about 10ms",
			lockspec.DefaultTimeout, lockspec.DefaultUnlockBusyWait, lockspec.DefaultPollInterval)
	}
}
