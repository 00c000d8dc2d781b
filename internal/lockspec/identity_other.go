//go:build !linux && !darwin && !windows

package lockspec

// On other systems the identity is not read yet: locks record none of it
// and are judged by the pid alone, as the spec says.
func (h *osHost) Self() Identity { return Identity{} }

func (h *osHost) StartTime(int) (uint64, bool) { return 0, false }
