package api

import (
	"net"
	"testing"
	"time"
)

// tcpPair returns both ends of a loopback TCP connection.
func tcpPair(t testing.TB) (server, client net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server, err = ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close(); client.Close() })
	return server, client
}

func TestWatchPeer(t *testing.T) {
	t.Run("peer closes", func(t *testing.T) {
		server, client := tcpPair(t)
		gone := make(chan struct{})
		stop := watchPeer(server, func() { close(gone) })
		defer stop()
		client.Close()
		select {
		case <-gone:
		case <-time.After(10 * time.Second):
			t.Fatal("a closed peer was not noticed")
		}
	})
	t.Run("request ends first", func(t *testing.T) {
		server, client := tcpPair(t)
		stop := watchPeer(server, func() { t.Error("gone called for a live peer") })
		stop()
		// The connection is intact for the next request.
		if _, err := client.Write([]byte("next")); err != nil {
			t.Fatal(err)
		}
		server.SetReadDeadline(time.Now().Add(10 * time.Second))
		buf := make([]byte, 4)
		if _, err := server.Read(buf); err != nil || string(buf) != "next" {
			t.Fatalf("read %q %v after the watch", buf, err)
		}
	})
	t.Run("pipelined request ends the watch", func(t *testing.T) {
		server, client := tcpPair(t)
		stop := watchPeer(server, func() { t.Error("gone called for a pipelined request") })
		client.Write([]byte("GET / HTTP/1.1\r\n"))
		client.Close() // behind the data: not seen, the request is fasthttp's
		time.Sleep(50 * time.Millisecond)
		stop()
		buf := make([]byte, 3)
		server.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := server.Read(buf); err != nil || string(buf) != "GET" {
			t.Fatalf("the pipelined bytes were consumed: %q %v", buf, err)
		}
	})
}

// BenchmarkWatchPeer is the cost the watch adds to a request that ends
// normally: a goroutine, a peek, two deadline changes.
func BenchmarkWatchPeer(b *testing.B) {
	server, _ := tcpPair(b)
	b.ReportAllocs()
	for b.Loop() {
		stop := watchPeer(server, func() {})
		stop()
	}
}
