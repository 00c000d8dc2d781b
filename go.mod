module github.com/pa-toolkit/pa

go 1.26.0

require (
	github.com/alecthomas/kong v1.17.0
	github.com/hack-pad/hackpadfs v0.2.4
	github.com/jotaen/kong-completion v0.0.4
	github.com/posener/complete v1.2.3
	github.com/spf13/afero v1.15.0
	golang.org/x/sys v0.50.0
)

require (
	github.com/hashicorp/errwrap v1.1.0 // indirect
	github.com/hashicorp/go-multierror v1.1.1 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/riywo/loginshell v0.0.0-20200815045211-7d26008be1ab // indirect
	golang.org/x/text v0.28.0 // indirect
)
