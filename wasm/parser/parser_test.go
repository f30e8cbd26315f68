package parser

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseReusesParser(t *testing.T) {
	p := newParser(t)
	ctx := context.Background()
	src := bytes.Repeat([]byte("x = [1, 2, 3]\n"), 2000)
	first, err := p.Parse(ctx, src, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	mem := p.MemorySize()
	for range 20 {
		blob, err := p.Parse(ctx, src, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(blob, first) {
			t.Fatal("same source, different blob")
		}
	}
	// Everything is freed after each call, so memory stays at the first
	// call's high-water mark.
	if got := p.MemorySize(); got != mem {
		t.Errorf("memory grew from %d to %d bytes over identical parses", mem, got)
	}
}

func TestParseTimeout(t *testing.T) {
	p := newParser(t)
	ctx := context.Background()
	huge := bytes.Repeat([]byte("def f(a, b):\n    return [a + b for a in range(10) if a]\n"), 100_000) // ~5.5 MB
	start := time.Now()
	_, err := p.Parse(ctx, huge, time.Millisecond)
	if !errors.Is(err, ErrParseTimeout) {
		t.Fatalf("Parse with 1ms budget: err = %v, want ErrParseTimeout", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("timed-out parse took %v", d)
	}

	// The parser is reset, not resumed: the next parse is a fresh one.
	small := []byte("x = 1\n")
	got, err := p.Parse(ctx, small, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := newParser(t).Parse(ctx, small, 0); !bytes.Equal(got, want) {
		t.Error("the parse after a timeout differs from a fresh instance's")
	}

	// A context deadline bounds the parse as well.
	dctx, cancel := context.WithTimeout(ctx, 5*time.Millisecond)
	defer cancel()
	if _, err := p.Parse(dctx, huge, time.Minute); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Parse under a 5ms context deadline: err = %v, want DeadlineExceeded", err)
	}
}

func TestParseDeepNesting(t *testing.T) {
	p := newParser(t)
	for _, depth := range []int{1_000, 100_000} {
		src := strings.Repeat("(", depth) + "x" + strings.Repeat(")", depth) + "\n"
		blob, err := p.Parse(context.Background(), []byte(src), 10*time.Second)
		switch {
		case err == nil:
			// plugin-sdk/parsertest's TestDeepNesting decodes such trees.
			if len(blob) == 0 {
				t.Fatalf("depth %d: empty blob", depth)
			}
		case errors.Is(err, ErrTrap), errors.Is(err, ErrParseTimeout):
			// Acceptable: the host survives; a trapped instance is closed.
			t.Logf("depth %d: %v", depth, err)
			if errors.Is(err, ErrTrap) {
				if _, err := p.Parse(context.Background(), []byte("x\n"), 0); !errors.Is(err, ErrClosed) {
					t.Fatalf("after trap: err = %v, want ErrClosed", err)
				}
				p = newParser(t)
			}
		default:
			t.Fatalf("depth %d: %v", depth, err)
		}
	}
}

func TestCompileRejectsTamperedModule(t *testing.T) {
	// Compile hashes the embedded bytes; flip one and it must refuse.
	m := newModule(t)
	defer m.Close(context.Background())
	orig := pywasmBytes()
	orig[len(orig)-1] ^= 1
	defer func() { orig[len(orig)-1] ^= 1 }()
	if _, err := Compile(context.Background(), m.rt); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Fatalf("Compile of a modified module: err = %v", err)
	}
}
