package api

import (
	"errors"
	"net"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// watchPeer calls gone if the peer of conn closes (or resets) it before
// stop is called. The request body has been read by then, so the socket
// should stay silent: a goroutine parks in Go's netpoller until it becomes
// readable, then peeks without consuming (MSG_PEEK|MSG_DONTWAIT). Zero
// bytes mean the peer's FIN; bytes mean a pipelined next request, which
// ends the watch because it belongs to fasthttp. stop wakes the goroutine
// with a past read deadline and waits for it; fasthttp sets its own
// deadline before it reads the next request.
func watchPeer(conn net.Conn, gone func()) (stop func()) {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return func() {}
	}
	raw, err := sc.SyscallConn()
	if err != nil || conn.SetReadDeadline(time.Time{}) != nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		var peerClosed bool
		var b [1]byte
		err := raw.Read(func(fd uintptr) bool {
			n, _, err := unix.Recvfrom(int(fd), b[:], unix.MSG_PEEK|unix.MSG_DONTWAIT)
			switch {
			case errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR):
				return false // silent: wait until readable
			case err != nil || n == 0:
				peerClosed = true
			}
			return true
		})
		if err == nil && peerClosed {
			gone()
		}
	}()
	return func() {
		_ = conn.SetReadDeadline(aLongTimeAgo)
		<-done
	}
}
