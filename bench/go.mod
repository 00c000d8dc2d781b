module github.com/pa-toolkit/pa/bench

go 1.26.0

require (
	github.com/gofrs/flock v0.13.2
	github.com/nightlyone/lockfile v1.0.0
	github.com/pa-toolkit/pa v0.0.0
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/sys v0.50.0
)

replace github.com/pa-toolkit/pa => ../
