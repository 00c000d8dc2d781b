//go:build !unix

package main

import "os"

// maxRSS is 0 where there is no rusage (the figure is then not measured).
func maxRSS(*os.ProcessState) int64 { return 0 }
