package conformance

import (
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
)

// childEnv is the environment variable that makes the test binary a child
// of the suite; its value is a childSpec in JSON.
const childEnv = "PA_CONFORMANCE_CHILD"

// The roles of a child.
const (
	roleWrite  = "write"  // spawnlog.Append of one record
	roleUnlock = "unlock" // locking.Inspect, then locking.Unlock
)

// childSpec is what a child process does.
type childSpec struct {
	Root string // the estate (home) on disk
	Shim bool   // wrap the OS with nolinkfs (ENOTSUP)
	// Class is the site's column: its view of the OS (classView).
	Class   Class
	Role    string        // roleWrite or roleUnlock
	Title   string        // the record's title (roleWrite)
	Force   bool          // unlock --force (roleUnlock)
	Timeout time.Duration // the lock timeout; 0 is the shipped 10 s
	// Pause are steps where the child says "pause STEP" and waits for a
	// line on its stdin before it goes on; then it says "resumed STEP
	// after NANOSECONDS", how long it was paused by its own clock.
	Pause []stepAt
	// Kill are steps where the child says "kill STEP" and kills itself with
	// SIGKILL: the first of them it reaches.
	Kill []lockspec.Step
	// Report makes the child say "step STEP" at every step and "op OP NAME
	// [NEWNAME] RESULT" after every remove, rename and link it makes.
	Report bool
	// Namespace runs the child in a pid namespace of its own, with the
	// same hostname (unshare -p -f --mount-proc, as root on Linux): the
	// containers of one host sharing a volume.
	Namespace bool
	// KernelLocks, when not "", makes the child's volume answer kernel
	// locks as one that has none that work: kernelRefused (every TryLock
	// is unsupported) or kernelNoExclude (every TryLock succeeds).
	KernelLocks string
}

// The volumes without a kernel lock that works, as KernelLocks names them.
const (
	kernelRefused   = "refused"
	kernelNoExclude = "no-exclude"
)

// stepAt is the Nth time (1 when 0) a child reaches Step.
type stepAt struct {
	Step lockspec.Step
	Nth  int
}
