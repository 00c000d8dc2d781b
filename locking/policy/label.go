package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
)

// MaxLabel is the longest agent or operation label a lock's record holds,
// in bytes.
const MaxLabel = 64

// ValidLabel reports whether s may be a lock record's agent or operation
// (design: Holder And Incident Records, "public-safe"): at most
// [MaxLabel] bytes of ASCII letters, digits, spaces and ._:@+- (no '/',
// '\\', '$', '%', '=' or control character, so no path, variable or
// command line of any length). The empty label is valid: not recorded.
// Both locks (the fail-safe lock and locking/kernel) check their labels
// with it.
func ValidLabel(s string) bool {
	if len(s) > MaxLabel {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == ' ', c == '.', c == '_', c == ':', c == '@', c == '+', c == '-':
		default:
			return false
		}
	}
	return true
}

// LockID returns the stable hashed id of the lock on name, the guarded
// file's slash-separated name in its FS (spawn-log.json's, not the
// .lock's): "lk_" and 16 lowercase hex digits of a SHA-256. Both locks
// use it, so their records and incident rows of one file agree. It never
// holds the path itself, and every process that names the file alike
// (the same FS root) gets the same id.
func LockID(name string) string {
	sum := sha256.Sum256([]byte("file_lock_v0\x00" + path.Clean(name)))
	return "lk_" + hex.EncodeToString(sum[:8])
}
