module github.com/nopol-go/nopol

go 1.26.8

require (
	github.com/dave/dst v0.28.0
	github.com/pb33f/jsonschema/v6 v6.0.3
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/mod v0.42.0
	golang.org/x/sync v0.24.0
	golang.org/x/tools v0.52.0
)

require (
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)
