package conformance_test

import (
	"flag"
	"testing"

	"github.com/pa-toolkit/pa/conformance"
)

var (
	dirFlag   = flag.String("dir", "", "a folder on the volume under test (default: a temp dir)")
	classFlag = flag.String("class", "auto", "links, nolinks, dirpublish or auto (probe link() once)")
)

func TestMain(m *testing.M) { conformance.Main(m) }

// TestConformance runs every row of the spec's table on -dir, for -class.
func TestConformance(t *testing.T) {
	class, err := conformance.ParseClass(*classFlag)
	if err != nil {
		t.Fatal(err)
	}
	conformance.Run(t, conformance.Config{Dir: *dirFlag, Class: class})
}
