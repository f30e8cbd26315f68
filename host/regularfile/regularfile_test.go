package regularfile

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(name, target string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "fifo.py")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock.py")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	small := write("small.py", "x = 1\n")

	tooLarge := func(size int64) func(error) bool {
		return func(err error) bool {
			var big *TooLargeError
			return errors.As(err, &big) && big.Size == size && big.Limit == 8
		}
	}
	is := func(target error) func(error) bool { return func(err error) bool { return errors.Is(err, target) } }
	cases := []struct {
		name  string
		path  string
		extra int
		want  string
		err   func(error) bool
	}{
		{name: "regular", path: small, want: "x = 1\n"},
		{name: "empty", path: write("empty.py", ""), want: ""},
		{name: "at the limit", path: write("eight.py", "12345678"), want: "12345678"},
		{name: "over the limit", path: write("nine.py", "123456789"), err: tooLarge(9)},
		{name: "a FIFO with no writer does not block", path: fifo, err: is(ErrNotRegular)},
		{name: "a socket", path: sock, err: is(ErrNotRegular)},
		{name: "a directory", path: dir, err: is(ErrNotRegular)},
		{name: "a device", path: link("zero.py", "/dev/zero"), err: is(ErrNotRegular)},
		{name: "a link followed", path: link("link.py", small), want: "x = 1\n"},
		{name: "a link refused with O_NOFOLLOW", path: link("nofollow.py", small), extra: syscall.O_NOFOLLOW, err: is(syscall.ELOOP)},
		{name: "missing", path: filepath.Join(dir, "missing.py"), err: is(fs.ErrNotExist)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan struct{})
			var got []byte
			var err error
			go func() {
				defer close(done)
				got, err = Read(c.path, c.extra, 8)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("Read(%s) blocked", c.path)
			}
			if c.err != nil {
				if err == nil || !c.err(err) {
					t.Fatalf("Read(%s) = %q, %v; want another error", c.path, got, err)
				}
				return
			}
			if err != nil || string(got) != c.want {
				t.Fatalf("Read(%s) = %q, %v; want %q", c.path, got, err, c.want)
			}
		})
	}
}

// A file that grew between its stat and its read is judged by what was
// read: the stat said 4 bytes, the reader holds 20.
func TestReadOpenedGrewSinceStat(t *testing.T) {
	p := filepath.Join(t.TempDir(), "grows.py")
	if err := os.WriteFile(p, []byte("abcd"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadOpened(strings.NewReader(strings.Repeat("z", 20)), fi, 8)
	var big *TooLargeError
	if !errors.As(err, &big) || big.Size != 9 || big.Limit != 8 {
		t.Fatalf("ReadOpened = %v; want a TooLargeError of 9 bytes read against 8", err)
	}
	b, err := ReadOpened(strings.NewReader("abcdef"), fi, 8)
	if err != nil || string(b) != "abcdef" {
		t.Fatalf("ReadOpened = %q, %v; want the 6 bytes read", b, err)
	}
}
