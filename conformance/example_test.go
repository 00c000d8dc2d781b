package conformance_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Run the conformance suite against a folder from a test of your own. In a
// _test.go file of your package, these are the whole of it (this package's
// TestMain and TestConformance are exactly them):
//
//	func TestMain(m *testing.M) { conformance.Main(m) } // the kill and stall rows re-run the binary as a child
//
//	var dir = flag.String("dir", "", "a folder on the volume to prove")
//
//	func TestMyVolume(t *testing.T) {
//		conformance.Run(t, conformance.Config{Dir: *dir, Class: conformance.Auto})
//	}
//
// Then `go test -run TestMyVolume -args -dir /mnt/card` proves the 57 rows
// on that volume, on every class it can run (Auto probes link() once), and
// prints the 57 x 3 matrix; -run TestMyVolume/R04 picks rows. For a vfs.FS
// of your own, conformance.RunFS(t, newFS, conformance.Auto) runs the rows
// that need no real process.
//
// The example runs this package's TestConformance that way, in a fresh
// test process (the test binary again) on a temp folder, for rows R01 and
// R04, and prints their lines of the matrix and its count.
func ExampleRun() {
	dir, err := os.MkdirTemp("", "my-volume-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	exe, err := os.Executable() // this package's test binary
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := exec.Command(exe, "-test.run=^TestConformance$/^(R01|R04)$", "-dir", dir).Output()
	if err != nil {
		fmt.Printf("the suite failed (%v):\n%s", err, out)
		return
	}
	for _, line := range strings.Split(string(out), "\n") {
		switch f := strings.Fields(line); {
		case strings.HasPrefix(line, "R01 "), strings.HasPrefix(line, "R04 "):
			fmt.Println(strings.Join(f[:4], " ")) // the id and the three cells; the title follows
		case strings.HasPrefix(line, "conformance: "):
			fmt.Println(strings.Join(f[:6], " ")) // the count; the classes and the folder follow
		}
	}
	// Output:
	// R01 links=pass nolinks=pass dirpublish=pass
	// R04 links=pass nolinks=pass dirpublish=pass
	// conformance: 6 of 171 cells pass
}
