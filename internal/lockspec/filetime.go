package lockspec

// fileTimeValue is a FILETIME (high and low 32 bits) as one number: 100 ns
// intervals since 1601-01-01 UTC, the unit of Identity.StartTime on
// Windows.
func fileTimeValue(high, low uint32) uint64 {
	return uint64(high)<<32 | uint64(low)
}
