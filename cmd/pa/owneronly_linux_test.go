package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An unlock of another user's dead lock in a sticky folder that changes
// between its read and its break: the line advises the same unlock again
// run as the lock's owner or root, which alone can move it; the lock's
// owner and root get the plain line. pa's stdout is a full pipe, so pa
// stops at printing the holder, after its read (seen by inotify), while
// the lock is rewritten.
func TestUnlockOfAnotherUsersLockThatChanged(t *testing.T) {
	c := binClasses[0]
	for _, who := range []struct {
		name string
		uid  int
		as   string // what follows "again"
	}{
		{"another user", otherUID, " as " + shownUser(estateUID) + " or as root"},
		{"the lock's owner", estateUID, ""},
		{"root", 0, ""},
	} {
		t.Run(who.name, func(t *testing.T) {
			home := stickyEstate(t, c)
			lock := filepath.Join(home, filepath.FromSlash(logName+".lock"))
			if err := os.WriteFile(lock, []byte(lockJSON(deadPID(t), hostname(), time.Now().Add(-time.Minute))), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Lchown(lock, estateUID, estateUID); err != nil {
				t.Fatal(err)
			}
			in, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
			if err != nil {
				t.Fatal(err)
			}
			defer syscall.Close(in)
			if _, err := syscall.InotifyAddWatch(in, lock, syscall.IN_CLOSE_NOWRITE); err != nil {
				t.Fatal(err)
			}
			r, w := fullPipe(t)

			cmd := c.command(home, nil, "dispatch", "unlock", "--agent", "demo")
			cmd.Dir, cmd.Stdout = "/", w
			if who.uid != 0 {
				cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(who.uid), Gid: uint32(who.uid)}}
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w.Close()
			// pa has read the lock; it then blocks on the holder's line.
			buf := make([]byte, 4096)
			if _, err := syscall.Read(in, buf); err != nil {
				t.Fatal(err)
			}
			time.Sleep(200 * time.Millisecond) // the rest of the read, if any
			if err := os.WriteFile(lock, []byte(lockJSON(deadPID(t), hostname(), time.Now())), 0o644); err != nil {
				t.Fatal(err) // in place: still the owner's
			}
			out, _ := io.ReadAll(r)
			code := 0
			if err := cmd.Wait(); err != nil {
				var ee *exec.ExitError
				if !errors.As(err, &ee) {
					t.Fatal(err)
				}
				code = ee.ExitCode()
			}
			want := "changed since it was read: nothing removed; run pa --home " + home + " dispatch unlock --agent demo again" + who.as + "\n"
			if code != exitProblem || strings.Count(stderr.String(), "\n") != 1 || !strings.HasSuffix(stderr.String(), want) ||
				!strings.Contains(string(out), ": held by pid ") {
				t.Errorf("exit %d, stdout ...%q, stderr %q\nwant exit 2, the holder and one line ending %q",
					code, out[max(0, len(out)-200):], stderr.String(), want)
			}
		})
	}
}

// fullPipe is a pipe whose buffer is full: a write to w blocks until r is
// read.
func fullPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	fd := int(w.Fd()) // blocking from here on, as the child gets it
	if err := syscall.SetNonblock(fd, true); err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	for i := range chunk {
		chunk[i] = '.'
	}
	for {
		if _, err := syscall.Write(fd, chunk); err != nil {
			if !errors.Is(err, syscall.EAGAIN) {
				t.Fatal(err)
			}
			break
		}
	}
	for { // the last bytes a smaller write still fits
		if _, err := syscall.Write(fd, chunk[:1]); err != nil {
			break
		}
	}
	if err := syscall.SetNonblock(fd, false); err != nil {
		t.Fatal(err)
	}
	return r, w
}
