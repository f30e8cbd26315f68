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
// A tree goes in compressed with S2 (Snappy's faster successor) and is
// kept as it is once asked for: a blob is about 3 times its source, S2
// keeps it in 56% of that at 1.6% of the parse's time to compress and
// 0.7% to decompress (400 stdlib files; see RATIONALE.md, "Where does the
// memory go?"). An index build fills the cache with every tree a worker
// parsed, mostly never asked for again, while the indexer's and the
// parser's memory are at their largest; the trees that are asked for
// (context modules sent with many diagnostics calls) would otherwise be
// decompressed at every call, 15% of diagnostics' worker time.
type treeCache struct {
	max, size int
	order     *list.List // of *treeEntry, most recent at the front
	byKey     map[[32]byte]*list.Element
}

type treeEntry struct {
	key   [32]byte
	blob  []byte
	plain bool // blob is the tree itself, not its compressed form
}

// defaultTreeCacheBytes bounds each worker's cache as held: trees asked
// for take their full size, so hot trees (diagnostics' context modules,
// the files being formatted) have the room they had before compressing;
// 32 MiB cost those rows 10-15% of their workers' CPU in misses.
const defaultTreeCacheBytes = 64 << 20

func newTreeCache(max int) *treeCache {
	return &treeCache{max: max, order: list.New(), byKey: map[[32]byte]*list.Element{}}
}

func (c *treeCache) get(src []byte) ([]byte, [32]byte, bool) {
	key := sha256.Sum256(src)
	el, ok := c.byKey[key]
	if !ok {
		return nil, key, false
	}
	e := el.Value.(*treeEntry)
	if !e.plain {
		blob, err := s2.Decode(nil, e.blob)
		if err != nil { // cannot happen: the cache encoded it
			c.remove(el)
			return nil, key, false
		}
		c.size += len(blob) - len(e.blob)
		e.blob, e.plain = blob, true
	}
	c.order.MoveToFront(el)
	blob := e.blob
	c.trim()
	return blob, key, true
}

// trim evicts the least recently used trees until the cache fits.
func (c *treeCache) trim() {
	for c.size > c.max {
		c.remove(c.order.Back())
	}
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
	c.trim()
}

func (c *treeCache) remove(el *list.Element) {
	e := el.Value.(*treeEntry)
	c.order.Remove(el)
	delete(c.byKey, e.key)
	c.size -= len(e.blob)
}
