// Command nopol repairs faulty if conditions and missing guards in Go
// programs. See 'nopol help'.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	_ "github.com/nopol-go/nopol/cmd/nopol/internal/benchcmd" // nopol bench
	"github.com/nopol-go/nopol/cmd/nopol/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	dir, _ := os.Getwd()
	code := cli.Main(ctx, &cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Dir: dir}, os.Args[1:])
	stop()
	os.Exit(code)
}
