package atomicfile

import (
	"os"
	"os/signal"
	"syscall"
)

// HandleSignals removes the pending temporary files and exits with code
// 128+N (130 for SIGINT, 143 for SIGTERM) when the process receives
// SIGINT or SIGTERM. The returned function stops the handling and
// restores the default behaviour of the signals.
func HandleSignals() (stop func()) {
	c := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-c:
			RemovePending()
			code := 1
			if n, ok := s.(syscall.Signal); ok {
				code = 128 + int(n)
			}
			os.Exit(code)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(c)
		close(done)
	}
}
