package plugins

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestTreeCache(t *testing.T) {
	c := newTreeCache(120) // five of the blobs below, compressed
	// Blobs that do not compress, so their sizes are the cache's.
	blob := func(n int, b byte) []byte {
		out := make([]byte, n)
		rand.NewChaCha8([32]byte{b}).Read(out)
		return out
	}
	_, ka, hit := c.get([]byte("a"))
	if hit {
		t.Fatal("hit on an empty cache")
	}
	c.put(ka, blob(20, 'a'))
	_, kb, _ := c.get([]byte("b"))
	c.put(kb, blob(20, 'b'))
	if got, _, hit := c.get([]byte("a")); !hit || !bytes.Equal(got, blob(20, 'a')) {
		t.Fatal("a not cached")
	}
	// "a" was used last: filling the cache evicts "b" first.
	for i := range 4 {
		_, k, _ := c.get([]byte{byte('c' + i)})
		c.put(k, blob(20, 'c'))
	}
	if _, _, hit := c.get([]byte("b")); hit {
		t.Fatal("b survived: eviction is not least-recently-used")
	}
	if _, _, hit := c.get([]byte("a")); !hit {
		t.Fatal("a evicted although used most recently")
	}
	if c.size > c.max {
		t.Fatalf("size %d over max %d", c.size, c.max)
	}
	// A blob over a quarter of the budget is not kept.
	_, k, _ := c.get([]byte("huge"))
	c.put(k, blob(30, 'h'))
	if _, _, hit := c.get([]byte("huge")); hit {
		t.Fatal("an oversized blob was cached")
	}
}
