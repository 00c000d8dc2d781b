package lockspec

import (
	"strings"

	"github.com/pa-toolkit/pa/internal/lockname"
)

// ErrReservedName is matched (errors.Is) by the error of an acquire whose
// guarded file's name is one the lock writes for another file: another
// file's lock (`ok.lock` is the lock of `ok`), a name beside a lock
// (`ok.lock.incidents.jsonl`, `ok.lock.pending-...`), or a temp or keep
// file of another file's commit (`ok.tmp-<host>-<pid>-<hex>`). Guarding
// such a name would let one file's writes replace, or a sweep remove,
// what another file's lock relies on: Update("ok.lock") would overwrite a
// live holder's lock of `ok`. Nothing is touched when it is returned.
var ErrReservedName = lockname.ErrReserved

// checkGuarded is checkName's check for a name to be guarded (Acquire,
// so Update and UpdateMapped, and WriteFenced): a *fs.PathError (Op
// "lock") that wraps ErrReservedName, saying which other file the name
// belongs to, when name's last element is another file's lock, a name
// beside a lock, or a temp or keep file of another file's commit.
func checkGuarded(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	return lockname.Check(name, commitName)
}

// commitName says whose temp or keep file base is ("a tmp file of ok"):
// one that a sweep of that file's lock would take for its own; "" when it
// is none.
func commitName(base string) string {
	for _, marker := range []string{".tmp-", ".keep-"} {
		if i := strings.LastIndex(base, marker); i > 0 {
			if k, _ := ownerFromSuffix(base[i+len(marker):]); k == ownerInName {
				return "a " + strings.Trim(marker, ".-") + " file of " + base[:i]
			}
		}
	}
	return ""
}
