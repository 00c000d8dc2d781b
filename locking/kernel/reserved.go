package kernel

import (
	"strings"

	"github.com/pa-toolkit/pa/internal/lockname"
)

// ErrReservedName is matched (errors.Is) by the error of [Acquire] and
// [Update] when the file to guard is named as one this lock writes for
// another file: its lock (`ok.lock`), a name beside a lock
// (`ok.lock.incidents.jsonl`, `ok.lock.holder.json`), or [Update]'s temp
// file (`ok.tmp`). Update("ok.lock") would otherwise replace the lock file
// of `ok`, whose kernel lock a holder keeps, by another file: the next
// acquirer of `ok` would lock that one while the holder keeps the old.
// Nothing is touched when it is returned.
var ErrReservedName = lockname.ErrReserved

// checkGuarded is a *fs.PathError (Op "lock") wrapping ErrReservedName
// when name's last element ends in ".lock" or ".tmp" or holds ".lock.",
// nil otherwise.
func checkGuarded(name string) error { return lockname.Check(name, updateTemp) }

// updateTemp says whose Update temp file base is ("the temp file of
// Update of ok"), "" when it is none.
func updateTemp(base string) string {
	if strings.HasSuffix(base, tmpSuffix) && len(base) > len(tmpSuffix) {
		return "the temp file of Update of " + strings.TrimSuffix(base, tmpSuffix)
	}
	return ""
}
