package kernel

import (
	"errors"
	"os"
	"path"
	"reflect"
	"sync"
	"syscall"

	"github.com/pa-toolkit/pa/vfs"
)

// verified are the (FS, folder) pairs whose kernel lock was seen to
// exclude a second handle; the check runs once per pair in a process.
var verified sync.Map // verifiedKey -> struct{}

type verifiedKey struct {
	fsys vfs.FS
	dir  string
}

// exclusive checks, once per FS and folder, that the kernel lock the
// caller holds on lock excludes a second handle of this process: it opens
// lock again and tries its lock, which must be refused. A volume that
// grants it fails with a *UnsupportedError (NotExclusive). An FS value
// that cannot be a map key is checked at every acquisition.
func exclusive(fsys vfs.FS, lock string) error {
	key := verifiedKey{fsys, path.Dir(lock)}
	cacheable := reflect.ValueOf(fsys).Comparable()
	if cacheable {
		if _, ok := verified.Load(key); ok {
			return nil
		}
	}
	g, err := fsys.OpenFile(lock, os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	defer g.Close()
	switch err := vfs.TryLock(g, lock); {
	case err == nil:
		if l, ok := g.(vfs.Locker); ok {
			_ = l.Unlock()
		}
		return &UnsupportedError{Lock: lock, NotExclusive: true}
	case !errors.Is(err, syscall.EWOULDBLOCK):
		if unsupported(err) {
			return &UnsupportedError{Lock: lock, Err: err}
		}
		return err
	}
	if cacheable {
		verified.Store(key, struct{}{})
	}
	return nil
}
