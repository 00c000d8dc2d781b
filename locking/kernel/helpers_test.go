package kernel

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// holdEnv makes the test binary a holder child: it takes the lock of "f"
// in the folder the variable names, says "held", and releases the lock
// when its stdin ends.
const holdEnv = "PA_KERNEL_TEST_HOLD"

// watchdog bounds every wait of a test for a result: past it the test
// fails instead of hanging. It orders nothing.
const watchdog = 20 * time.Second

func TestMain(m *testing.M) {
	if dir := os.Getenv(holdEnv); dir != "" {
		os.Exit(holdChild(dir))
	}
	os.Exit(m.Run())
}

func holdChild(dir string) int {
	fsys, err := osfs.New(dir)
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	defer fsys.Close()
	h, err := Acquire(context.Background(), fsys, "f", Options{Agent: "child", Operation: "hold"})
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	fmt.Println("held")
	_, _ = io.Copy(io.Discard, os.Stdin)
	if err := h.Release(); err != nil {
		fmt.Println("error", err)
		return 1
	}
	fmt.Println("released")
	return 0
}

// holder is a child process that holds the lock of "f".
type holder struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
	ended bool
}

// startHolder starts a child that holds the lock of "f" in dir, and waits
// until it says it holds it.
func startHolder(t *testing.T, dir string) *holder {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := &holder{cmd: exec.Command(exe, "-test.run=^$"), lines: make(chan string, 8)}
	c.cmd.Env = append(os.Environ(), holdEnv+"="+dir)
	c.cmd.Stderr = os.Stderr
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() {
		if !c.ended {
			_ = c.cmd.Process.Kill()
			_ = c.cmd.Wait()
		}
	})
	c.await(t, "held")
	return c
}

func (c *holder) await(t *testing.T, want string) {
	t.Helper()
	select {
	case l, ok := <-c.lines:
		if !ok || l != want {
			t.Fatalf("holder child said %q (open %v), want %q", l, ok, want)
		}
	case <-time.After(watchdog):
		t.Fatalf("holder child said nothing for %s", watchdog)
	}
}

// release ends the child's hold normally (its stdin closes) and waits
// for it to exit.
func (c *holder) release(t *testing.T) {
	t.Helper()
	c.stdin.Close()
	c.await(t, "released")
	c.wait(t)
}

// kill ends the child with SIGKILL and waits for it to exit.
func (c *holder) kill(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	c.wait(t)
}

func (c *holder) wait(t *testing.T) {
	t.Helper()
	for range c.lines {
	}
	_ = c.cmd.Wait()
	c.ended = true
}

func (c *holder) pid() int { return c.cmd.Process.Pid }

// volumeEnv names a folder on a real volume (conformance/volumes mounts
// ext4, xfs, btrfs, tmpfs, exFAT and NTFS) in which every test's folder is
// made instead of the temp dir, so that the kernel lock's rows are proved
// on each volume.
const volumeEnv = "PA_TEST_VOLUME_DIR"

// newFS returns a faultfs over an osfs in a fresh folder, and the folder:
// under $PA_TEST_VOLUME_DIR when set, else the test's temp dir.
func newFS(t *testing.T) (*faultfs.FS, string) {
	t.Helper()
	dir := t.TempDir()
	if vol := os.Getenv(volumeEnv); vol != "" {
		var err error
		if dir, err = os.MkdirTemp(vol, "kernel-"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := os.RemoveAll(dir); err != nil {
				t.Error(err)
			}
		})
	}
	o, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	return faultfs.New(o), dir
}

// result is what an acquisition run by acquireWithin returned.
type result struct {
	h       *Hold
	err     error
	elapsed time.Duration
}

// acquireWithin runs Acquire on its own goroutine and fails the test when
// it has not returned within the watchdog. The context ends with the test.
func acquireWithin(t *testing.T, fsys vfs.FS, name string, o Options) result {
	t.Helper()
	done := make(chan result, 1)
	go func() {
		start := time.Now()
		h, err := Acquire(t.Context(), fsys, name, o)
		done <- result{h, err, time.Since(start)}
	}()
	select {
	case r := <-done:
		if r.h != nil {
			t.Cleanup(func() { r.h.Release() })
		}
		return r
	case <-time.After(watchdog):
		t.Fatalf("Acquire(%s, %+v) has not returned after %s", name, o, watchdog)
	}
	return result{}
}

// mustAcquire takes the lock of name in this process, released at the
// test's end.
func mustAcquire(t *testing.T, fsys vfs.FS, name string, o Options) *Hold {
	t.Helper()
	h, err := Acquire(t.Context(), fsys, name, o)
	if err != nil {
		t.Fatalf("Acquire(%s): %v", name, err)
	}
	t.Cleanup(func() { h.Release() })
	return h
}

// asTimeout returns err as a *TimeoutError, failing the test otherwise.
func asTimeout(t *testing.T, err error) *TimeoutError {
	t.Helper()
	var te *TimeoutError
	if !errors.As(err, &te) || !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want a *TimeoutError", err)
	}
	return te
}

// readLock reads the record in the lock file of name.
func readLock(t *testing.T, fsys vfs.FS, name string, l layout) Record {
	t.Helper()
	r, err := l.readRecord(fsys, name)
	if err != nil {
		t.Fatalf("reading the record of %s: %v", name, err)
	}
	return r
}

func lockKey(t *testing.T, fsys vfs.FS, name string) vfs.FileKey {
	t.Helper()
	k, ok, err := vfs.KeyOfName(fsys, name+lockSuffix)
	if err != nil || !ok {
		t.Fatalf("key of %s.lock: %v, %v", name, ok, err)
	}
	return k
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func readAllOf(t *testing.T, fsys vfs.FS, name string) ([]byte, os.FileInfo, error) {
	t.Helper()
	return vfs.ReadFile(fsys, name, 0)
}
