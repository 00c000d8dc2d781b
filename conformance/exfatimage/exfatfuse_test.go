package exfatimage

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// olderLog and newerLog are the two copies of a doubled spawn-log in these
// tests: the log before a commit a power cut stopped inside its rename,
// and that commit's.
const (
	olderLog = `{"version":1,"nextId":2,"records":[{"id":1,"agent":"demo","title":"older"}]}` + "\n"
	newerLog = `{"version":1,"nextId":3,"records":[{"id":1,"agent":"demo","title":"older"},{"id":2,"agent":"demo","title":"newer"}]}` + "\n"
)

// fileEntry is a file of a folder: its name and its content.
type fileEntry struct {
	name string
	data string
}

// needTools skips the test when this machine cannot make an exFAT image
// (mkfs.exfat, fsck.exfat) or, with mount, mount one with exfat-fuse (root,
// a loop device, /dev/fuse, mount.exfat-fuse): under CI=true it fails it
// instead, so that CI cannot pass by skipping.
func needTools(t *testing.T, mount bool) {
	t.Helper()
	tools := []string{"mkfs.exfat", "fsck.exfat"}
	if mount {
		tools = append(tools, "mount.exfat-fuse", "losetup", "umount")
	}
	debian := map[string]string{ // the Debian package of each tool
		"mkfs.exfat": "exfatprogs", "fsck.exfat": "exfatprogs",
		"mount.exfat-fuse": "exfat-fuse", "losetup": "mount", "umount": "mount",
	}
	var missing, packages []string
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
			if !slices.Contains(packages, debian[tool]) {
				packages = append(packages, debian[tool])
			}
		}
	}
	var why []string
	if len(missing) > 0 {
		why = append(why, fmt.Sprintf("missing %s (apt-get install %s)", strings.Join(missing, ", "), strings.Join(packages, " ")))
	}
	if mount {
		if os.Geteuid() != 0 {
			why = append(why, fmt.Sprintf("not root (uid %d): attaching a loop device and mounting need root", os.Geteuid()))
		}
		for _, dev := range []string{"/dev/loop-control", "/dev/fuse"} {
			if _, err := os.Stat(dev); err != nil {
				why = append(why, fmt.Sprintf("no %s (a container needs --privileged, or the device passed in)", dev))
			}
		}
	}
	if len(why) == 0 {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("cannot run under CI=true: %s", strings.Join(why, "; "))
	}
	t.Skipf("skipped: %s", strings.Join(why, "; "))
}

// command runs a command and returns its standard output; its error
// carries the command line and everything the command printed.
func command(name string, args ...string) (string, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		printed := strings.TrimSpace(stdout.String() + stderr.String())
		return stdout.String(), fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, printed)
	}
	return stdout.String(), nil
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := command(name, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// newImage makes an empty 64 MiB exFAT image file with mkfs.exfat.
func newImage(t *testing.T) string {
	t.Helper()
	image := filepath.Join(t.TempDir(), "exfat.img")
	f, err := os.Create(image)
	if err != nil {
		t.Fatal(err)
	}
	err = f.Truncate(64 << 20)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	run(t, "mkfs.exfat", image)
	return image
}

// imageWith makes an exFAT image whose folder dir holds files, created
// through exfat-fuse in the order given, so that in a new folder their
// entry sets lie in that order.
func imageWith(t *testing.T, dir []string, files ...fileEntry) string {
	t.Helper()
	image := newImage(t)
	mnt, unmount := mount(t, image)
	folder := filepath.Join(append([]string{mnt}, dir...)...)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(folder, f.name), []byte(f.data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	unmount()
	return image
}

// mount attaches image to a loop device and mounts it there with
// exfat-fuse on a new temp folder. (exfat-fuse refuses, as root, to mount a
// plain file: "Block device required".) unmount unmounts it, detaches the
// device and waits until the device is cleared, which is at the daemon's
// last close of it (waitDetached); then the image holds all that was
// written through the mount. The test's
// cleanup calls unmount too, so a failed test leaves no mount behind.
func mount(t *testing.T, image string) (dir string, unmount func()) {
	t.Helper()
	dir = t.TempDir()
	dev := strings.TrimSpace(run(t, "losetup", "--find", "--show", image))
	mounted := false
	unmount = func() {
		t.Helper()
		if dev == "" {
			return
		}
		if mounted {
			if _, err := command("umount", dir); err != nil {
				t.Errorf("unmounting %s: %v; detaching it lazily", dir, err)
				if _, err := command("umount", "-l", dir); err != nil {
					t.Error(err)
				}
			}
		}
		if _, err := command("losetup", "--detach", dev); err != nil {
			t.Error(err)
		}
		dev = ""
		waitDetached(t, image)
	}
	t.Cleanup(unmount)
	if _, err := command("mount.exfat-fuse", dev, dir); err != nil {
		t.Fatal(err)
	}
	// mount.exfat-fuse returns once the mount is made (libfuse mounts
	// before the daemon detaches): no wait is needed, only this check.
	mounted = true
	if fstype := mountType(t, dir); fstype != "fuseblk" {
		t.Fatalf("mount.exfat-fuse %s %s exited 0, and %s is mounted as %q, want fuseblk", dev, dir, dir, fstype)
	}
	return dir, unmount
}

// waitDetached returns once no loop device is bound to image, failing the
// test after a minute. umount of a fuseblk mount can return before the
// exfat-fuse daemon has written its last blocks and closed the device (a
// CI run under load read an image without the folder just made in it);
// then losetup --detach only marks the device to be cleared at its last
// close. That close, the daemon's, comes after its last write, and the
// loop device is bound to image until then: once it is not, the image
// holds every write made through the mount.
func waitDetached(t *testing.T, image string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		out, err := command("losetup", "--associated", image, "--noheadings", "--output", "NAME")
		if err == nil && strings.TrimSpace(out) == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s is still bound to a loop device a minute after its unmount: %q %v", image, out, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// mountType returns the file system type of the mount at dir, "" when
// none (from /proc/self/mountinfo: field 5 is the mount point, and the
// type follows the field "-").
func mountType(t *testing.T, dir string) string {
	t.Helper()
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) < 5 || fields[4] != dir {
			continue
		}
		for i, field := range fields[:len(fields)-1] {
			if field == "-" {
				return fields[i+1]
			}
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return ""
}

// fsck runs fsck.exfat -n on the unmounted image: nil when it finds the
// volume clean (it checks each entry set's SetChecksum and NameHash).
func fsck(image string) error {
	_, err := command("fsck.exfat", "-n", image)
	return err
}

// openFolder opens the unmounted image and its folder dir, for a test to
// read; the image is closed when the test ends.
func openFolder(t *testing.T, image string, dir []string) (*os.File, *volume, *folder) {
	t.Helper()
	f, err := os.Open(image)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	v, err := openVolume(f)
	if err != nil {
		t.Fatal(err)
	}
	d, err := v.walk(dir)
	if err != nil {
		t.Fatal(err)
	}
	return f, v, d
}

// folderEntries reads, from the unmounted image itself, the files of the
// folder dir with their content, in directory order.
func folderEntries(t *testing.T, image string, dir []string) []fileEntry {
	t.Helper()
	f, v, d := openFolder(t, image, dir)
	sets, err := d.entrySets()
	if err != nil {
		t.Fatal(err)
	}
	var files []fileEntry
	for _, s := range sets {
		if s.isDir {
			continue
		}
		data := make([]byte, s.dataLength)
		if s.dataLength > 0 {
			clusters, err := v.chain(s.firstCluster, s.dataLength, s.contiguous)
			if err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			for i, c := range clusters {
				at, _ := v.clusterAt(c)
				chunk := data[min(len(data), i<<v.clusterShift):min(len(data), (i+1)<<v.clusterShift)]
				if _, err := f.ReadAt(chunk, at); err != nil {
					t.Fatalf("%s: %v", s.name, err)
				}
			}
		}
		files = append(files, fileEntry{s.name, string(data)})
	}
	return files
}

// named returns the contents of the files named name, in directory order.
func named(files []fileEntry, name string) []string {
	var contents []string
	for _, f := range files {
		if f.name == name {
			contents = append(contents, f.data)
		}
	}
	return contents
}

// describe is files, one line each: its name and its content.
func describe(files []fileEntry) string {
	var b strings.Builder
	for i, f := range files {
		fmt.Fprintf(&b, "%d. %s: %s\n", i+1, f.name, strings.TrimSuffix(f.data, "\n"))
	}
	return b.String()
}
