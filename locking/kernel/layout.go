package kernel

import (
	"os"
	"runtime"

	"github.com/pa-toolkit/pa/vfs"
)

// layout is where the holder's record goes (design: Holder And Incident
// Records). The zero value is the system's: the sidecar on Windows, the
// lock file elsewhere. Tests pick the other through Options' seam, so the
// Windows path runs on Linux too.
type layout int

const (
	layoutSystem  layout = iota
	layoutInLock         // POSIX: the record is the *.lock file's content
	layoutSidecar        // Windows: *.lock.holder.json, atomically replaced
)

// The suffixes of the files beside name: the lock, the Windows sidecar
// and its temp file, the incident log, Update's temp file.
const (
	lockSuffix      = ".lock"
	sidecarSuffix   = ".lock.holder.json"
	sidecarTmp      = ".lock.holder.json.tmp"
	incidentsSuffix = ".lock.incidents.jsonl"
	tmpSuffix       = ".tmp" // Update's temp file, beside name
)

func (l layout) resolve() layout {
	if l != layoutSystem {
		return l
	}
	if runtime.GOOS == "windows" {
		return layoutSidecar
	}
	return layoutInLock
}

// recordName is the file that holds name's holder record.
func (l layout) recordName(name string) string {
	if l.resolve() == layoutSidecar {
		return name + sidecarSuffix
	}
	return name + lockSuffix
}

// writeRecord writes rec for the holder of name's lock, which the caller
// holds through held (the handle of the lock file whose kernel lock it
// owns). In the lock file it is written over the old content through held
// where it can be (overwriteInPlace, the optimisation's seam), else
// through a second handle opened with O_TRUNC (flock belongs to the first
// handle's open file; closing the second releases nothing); in the sidecar
// it is a temp file renamed over the sidecar, so a reader sees the old
// record or the new one. The temp file has one fixed name: only the kernel
// lock's holder writes it, and a later holder overwrites one a crash left.
// None is synced: the record is advisory, the kernel lock is the
// ownership.
func (l layout) writeRecord(fsys vfs.FS, name string, held vfs.File, rec Record) error {
	if l.resolve() == layoutSidecar {
		tmp := name + sidecarTmp
		if err := writeFile(fsys, tmp, rec.encode()); err != nil {
			return err
		}
		return fsys.Rename(tmp, name+sidecarSuffix)
	}
	if done, err := overwriteInPlace(held, rec.encode()); done {
		return err
	}
	return writeFile(fsys, name+lockSuffix, rec.encode())
}

// readRecord reads the record of name's holder, as it is now.
func (l layout) readRecord(fsys vfs.FS, name string) (Record, error) {
	data, _, err := vfs.ReadFile(fsys, l.recordName(name), maxRecord)
	if err != nil {
		return Record{}, err
	}
	return parseRecord(data)
}

// writeFile truncates name (without removing it) and writes data with one
// write.
func writeFile(fsys vfs.FS, name string, data []byte) error {
	f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil {
		return werr
	}
	return cerr
}
