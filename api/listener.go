package api

import (
	"io"
	"net"
	"time"
)

// How long, and how much, a closing connection keeps reading what its
// client still sends.
const (
	lingerTime  = 2 * time.Second
	lingerBytes = 4 << 20
)

// Listen listens on addr for the app (app.Listener(ln)). Its connections
// close the way net/http's server does after refusing a request: the
// answer is sent and the write side shut (FIN), then what the client is
// still sending (an oversized header, a body nobody will read) is
// discarded for a moment before the socket closes. Closing a socket with
// unread input makes the kernel send a reset, and a client still writing
// would see "connection reset" instead of the answer.
func Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return lingeringListener{ln}, nil
}

type lingeringListener struct{ net.Listener }

func (l lingeringListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		return &lingeringConn{TCPConn: tc}, nil
	}
	return c, err
}

// lingeringConn is a TCP connection whose Close lingers in the
// background; SyscallConn (the disconnect watch) and deadlines pass
// through.
type lingeringConn struct{ *net.TCPConn }

func (c *lingeringConn) Close() error {
	if err := c.CloseWrite(); err != nil {
		return c.TCPConn.Close()
	}
	go func() {
		_ = c.SetReadDeadline(time.Now().Add(lingerTime))
		_, _ = io.Copy(io.Discard, io.LimitReader(c.TCPConn, lingerBytes))
		_ = c.TCPConn.Close()
	}()
	return nil
}
