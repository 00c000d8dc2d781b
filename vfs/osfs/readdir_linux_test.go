//go:build linux

package osfs

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// A volume whose listing gives no type (DT_UNKNOWN: some FUSE and network
// file systems) costs one lstat an entry. A name gone since the listing is
// skipped; any other failure of that lstat fails the listing, so a claim
// beside the lock is never silently left out of the break's claim listing.
func TestEntryTypeOfAnUntypedEntry(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/f", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)

	if typ, ok, err := entryType(fd, "d", "f", unix.DT_UNKNOWN); err != nil || !ok || typ != 0 {
		t.Errorf("entryType(a regular file, DT_UNKNOWN) = %v, %v, %v; want a regular file", typ, ok, err)
	}
	if _, ok, err := entryType(fd, "d", "gone", unix.DT_UNKNOWN); err != nil || ok {
		t.Errorf("entryType(a name gone since the listing) = ok %v, %v; want skipped with no error", ok, err)
	}
	long := strings.Repeat("x", 300) // ENAMETOOLONG: an lstat that fails for another reason
	_, ok, err := entryType(fd, "d", long, unix.DT_UNKNOWN)
	var pe *fs.PathError
	if ok || !errors.As(err, &pe) || !errors.Is(err, unix.ENAMETOOLONG) || pe.Path != "d/"+long {
		t.Errorf("entryType(an lstat failing with ENAMETOOLONG) = ok %v, %v; want the listing's error, a *fs.PathError naming d/%s", ok, err, long[:8]+"...")
	}
}
