package locking

import "fmt"

// Windows' identity as this package records it (identity_windows.go), as
// pure functions so that it is tested on every system.

// windowsBootPrefix is the fixed first 20 characters of every Windows
// Identity.Boot: the ASCII bytes of "windbootid" as hex, in the UUID's
// 8-4-4-4 groups. The last group (12 hex digits) is the boot counter.
const windowsBootPrefix = "77696e64-626f-6f74-6964-"

// windowsBoot is the Identity.Boot of the boot whose counter is bootID
// (KUSER_SHARED_DATA.BootId: the boot sequence number the OS loader
// increments for each boot and the kernel stores before the first
// process starts): windowsBootPrefix and the counter as 12 lowercase hex
// digits. A counter of 0 is not known (a system without the field): "".
func windowsBoot(bootID uint32) string {
	if bootID == 0 {
		return ""
	}
	return fmt.Sprintf("%s%012x", windowsBootPrefix, bootID)
}

// fileTimeValue is a FILETIME (high and low 32 bits) as one number: 100 ns
// intervals since 1601-01-01 UTC, the unit of Identity.StartTime on
// Windows.
func fileTimeValue(high, low uint32) uint64 {
	return uint64(high)<<32 | uint64(low)
}
