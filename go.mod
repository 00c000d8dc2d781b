module github.com/pa-toolkit/pa

go 1.26.8

require (
	github.com/alecthomas/kong v1.17.0
	golang.org/x/sys v0.50.0
)
