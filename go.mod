module github.com/pa-toolkit/pa

go 1.26.8

require (
	github.com/alecthomas/kong v1.17.0
	github.com/hack-pad/hackpadfs v0.2.4
	github.com/spf13/afero v1.15.0
	golang.org/x/sys v0.50.0
)

require golang.org/x/text v0.28.0 // indirect
