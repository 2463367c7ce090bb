// Command nopol repairs faulty if conditions and missing guards in Go
// programs. See 'nopol help'.
package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"syscall"

	_ "github.com/nopol-go/nopol/cmd/nopol/internal/benchcmd" // nopol bench
	"github.com/nopol-go/nopol/cmd/nopol/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// A reader of nopol's output that goes away (`nopol fix -v | head`)
	// would kill nopol with SIGPIPE before it removes its temp dirs and
	// ends its test processes: with SIGPIPE notified, the write fails
	// with EPIPE instead, and that interrupts the run like SIGINT.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	ctx, gone := context.WithCancel(ctx)
	dir, _ := os.Getwd()
	env := &cli.Env{Stdout: readerWatch{os.Stdout, gone}, Stderr: readerWatch{os.Stderr, gone}, Dir: dir}
	code := cli.Main(ctx, env, os.Args[1:])
	gone()
	stop()
	os.Exit(code)
}

// readerWatch is stdout or stderr, watched for its reader: a write that
// fails because no one reads the pipe any more cancels the run.
type readerWatch struct {
	w      io.Writer
	cancel context.CancelFunc
}

func (c readerWatch) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if errors.Is(err, syscall.EPIPE) {
		c.cancel()
	}
	return n, err
}
