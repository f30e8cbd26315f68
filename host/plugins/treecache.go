package plugins

import (
	"container/list"
	"crypto/sha256"

	"github.com/klauspost/compress/s2"
)

// treeCache keeps the tree blobs a worker parsed, keyed by the SHA-256 of
// the source, so a file sent again (the same module as import context for
// many diagnostics calls, or an unchanged file asked about twice) is not
// parsed again. A tree depends only on the source bytes and the parser
// module, which is fixed for a worker's life. Bounded by bytes, least
// recently used first out. Not safe for concurrent use: a worker runs one
// call at a time.
//
// Blobs are kept compressed with S2 (Snappy's faster successor): a tree
// blob is about 3 times its source, and S2 keeps it in 56% of that at
// 1.6% of the parse's time to compress and 0.7% to decompress (400
// stdlib files; see RATIONALE.md, "Where does the memory go?"). An index
// build fills the cache with every tree a worker parsed, while the
// indexer's and the parser's memory are at their largest.
type treeCache struct {
	max, size int
	order     *list.List // of *treeEntry, most recent at the front
	byKey     map[[32]byte]*list.Element
}

type treeEntry struct {
	key  [32]byte
	blob []byte // compressed
}

// defaultTreeCacheBytes bounds each worker's cache, compressed: about
// 57 MiB of trees, the 64 MiB it held before compressing.
const defaultTreeCacheBytes = 32 << 20

func newTreeCache(max int) *treeCache {
	return &treeCache{max: max, order: list.New(), byKey: map[[32]byte]*list.Element{}}
}

func (c *treeCache) get(src []byte) ([]byte, [32]byte, bool) {
	key := sha256.Sum256(src)
	if el, ok := c.byKey[key]; ok {
		blob, err := s2.Decode(nil, el.Value.(*treeEntry).blob)
		if err == nil {
			c.order.MoveToFront(el)
			return blob, key, true
		}
		c.remove(el) // cannot happen: the cache encoded it
	}
	return nil, key, false
}

func (c *treeCache) put(key [32]byte, blob []byte) {
	if _, ok := c.byKey[key]; ok {
		return
	}
	if blob = s2.Encode(nil, blob); len(blob) > c.max/4 {
		return // one huge tree must not flush everything else
	}
	c.byKey[key] = c.order.PushFront(&treeEntry{key: key, blob: blob})
	c.size += len(blob)
	for c.size > c.max {
		c.remove(c.order.Back())
	}
}

func (c *treeCache) remove(el *list.Element) {
	e := el.Value.(*treeEntry)
	c.order.Remove(el)
	delete(c.byKey, e.key)
	c.size -= len(e.blob)
}
