// pyws_parser.c: the only C code of our own in the parser module. It owns
// one TSParser for tree-sitter-python, parses a UTF-8 buffer within a time
// budget, and serialises the tree as the flat preorder blob described in
// TREE_LAYOUT.md (decoded by plugin-sdk/tree). The same file also compiles
// natively (wasm/parser's cgo benchmark under a build tag), so the wasm
// specifics are behind __wasm__.
//
// Calling sequence (wasm/parser): pyws_init once; per parse: malloc the
// source, pyws_parse (or pyws_parse_slot to keep the tree for an
// incremental parse of the file's next version), read pyws_result_ptr/len,
// pyws_result_free, free.

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tree_sitter/api.h"

// tree-sitter's internal headers (same pinned sources, under src/): the
// flattening walk reads subtrees directly instead of through TSTreeCursor.
#include "language.h"
#include "subtree.h"
#include "tree.h"

#ifdef __wasm__
#define PYWS_EXPORT(name) __attribute__((export_name(name)))
#else
#define PYWS_EXPORT(name)
#endif

const TSLanguage *tree_sitter_python(void);

// Status codes returned by pyws_init and pyws_parse. Mirrored in
// wasm/parser; values are part of the module's contract.
enum {
  PYWS_OK = 0,
  PYWS_TIMEOUT = 1,    // the budget ran out; the parser was reset
  PYWS_NO_MEMORY = 2,  // malloc failed while building the blob
  PYWS_NOT_READY = 3,  // pyws_init was not called or failed
  PYWS_FAILED = 4,     // tree-sitter returned no tree for another reason
  PYWS_TOO_LARGE = 5,  // the grammar does not fit the layout's integer widths
};

#define LAYOUT_VERSION 1u
#define NODE_SIZE 16u

// Node flag bits (layout.go: FlagNamed...).
#define F_NAMED 1u
#define F_EXTRA 2u
#define F_ERROR 4u
#define F_MISSING 8u
#define F_HAS_ERROR 16u

// Symbol flag bits (layout.go: SymbolNamed...).
#define S_NAMED 1u
#define S_VISIBLE 2u
#define S_SUPERTYPE 4u

static TSParser *parser;
static uint8_t *prefix;       // header + symbol table + field table: fixed per language
static uint32_t prefix_len;
static uint8_t *result;
static uint32_t result_len;

static inline void put16(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}

static inline void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

// build_prefix writes everything that precedes the node count. It depends
// only on the language, so it is built once and copied into each blob.
static int build_prefix(const TSLanguage *lang) {
  uint32_t nsym = ts_language_symbol_count(lang);
  uint32_t nfield = ts_language_field_count(lang);
  // Symbol 0xFFFF is ERROR and field ids are one byte.
  if (nsym >= 0xFFFFu || nfield > 0xFFu) return PYWS_TOO_LARGE;

  uint32_t n = 12 + 4 + 4;  // header, symbol count, field count
  for (uint32_t i = 0; i < nsym; i++) {
    const char *name = ts_language_symbol_name(lang, (TSSymbol)i);
    n += 3 + (uint32_t)strlen(name ? name : "");
  }
  for (uint32_t i = 1; i <= nfield; i++) {
    const char *name = ts_language_field_name_for_id(lang, (TSFieldId)i);
    n += 2 + (uint32_t)strlen(name ? name : "");
  }
  uint8_t *p = malloc(n);
  if (!p) return PYWS_NO_MEMORY;
  prefix = p;
  prefix_len = n;

  memcpy(p, "PYWT", 4);
  put32(p + 4, LAYOUT_VERSION);
  put32(p + 8, 0);  // source length, set per blob
  p += 12;
  put32(p, nsym);
  p += 4;
  for (uint32_t i = 0; i < nsym; i++) {
    const char *name = ts_language_symbol_name(lang, (TSSymbol)i);
    uint32_t len = (uint32_t)strlen(name ? name : "");
    uint8_t flags = 0;
    switch (ts_language_symbol_type(lang, (TSSymbol)i)) {
      case TSSymbolTypeRegular: flags = S_NAMED | S_VISIBLE; break;
      case TSSymbolTypeAnonymous: flags = S_VISIBLE; break;
      case TSSymbolTypeSupertype: flags = S_NAMED | S_SUPERTYPE; break;
      case TSSymbolTypeAuxiliary: flags = 0; break;
    }
    put16(p, len);
    memcpy(p + 2, name, len);
    p[2 + len] = flags;
    p += 3 + len;
  }
  put32(p, nfield);
  p += 4;
  for (uint32_t i = 1; i <= nfield; i++) {
    const char *name = ts_language_field_name_for_id(lang, (TSFieldId)i);
    uint32_t len = (uint32_t)strlen(name ? name : "");
    put16(p, len);
    memcpy(p + 2, name, len);
    p += 2 + len;
  }
  return PYWS_OK;
}

// pyws_init creates the parser. Idempotent.
PYWS_EXPORT("pyws_init")
int32_t pyws_init(void) {
  if (parser) return PYWS_OK;
  const TSLanguage *lang = tree_sitter_python();
  int rc = build_prefix(lang);
  if (rc != PYWS_OK) return rc;
  TSParser *p = ts_parser_new();
  if (!ts_parser_set_language(p, lang)) {
    ts_parser_delete(p);
    return PYWS_FAILED;
  }
  parser = p;
  return PYWS_OK;
}

static uint64_t now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

// Called by tree-sitter every 100 parse operations; returning true cancels.
static bool over_budget(TSParseState *state) {
  uint64_t deadline = *(const uint64_t *)state->payload;
  return now_us() > deadline;
}

typedef struct {
  const char *src;
  uint32_t len;
} source;

static const char *read_source(void *payload, uint32_t byte, TSPoint point, uint32_t *read) {
  (void)point;
  const source *s = payload;
  if (byte >= s->len) {
    *read = 0;
    return "";
  }
  *read = s->len - byte;
  return s->src + byte;
}

// A node record (layout.go). symbol is public (as ts_node_symbol gives
// it) and the subtree size is patched when the node is closed.
static inline void put_record(uint8_t *p, TSSymbol symbol, uint8_t field, uint8_t flags,
                              uint32_t start, uint32_t end) {
  put16(p, symbol);
  p[2] = field;
  p[3] = flags;
  put32(p + 4, start);
  put32(p + 8, end);
  put32(p + 12, 1);
}

static inline void close_node(uint8_t *nodes, uint32_t index, uint32_t count) {
  put32(nodes + (size_t)index * NODE_SIZE + 12, count - index);
}

// put_subtree writes the record of subtree t shown as alias (0: none).
static inline void put_subtree(uint8_t *p, const TSLanguage *lang, Subtree t, TSSymbol alias,
                               uint8_t field, uint32_t start) {
  TSSymbol symbol = ts_language_public_symbol(lang, alias ? alias : ts_subtree_symbol(t));
  bool named = alias ? ts_language_symbol_metadata(lang, alias).named : ts_subtree_named(t);
  uint8_t flags = 0;
  if (named) flags |= F_NAMED;
  if (ts_subtree_extra(t)) flags |= F_EXTRA;
  if (symbol == ts_builtin_sym_error) flags |= F_ERROR;
  if (ts_subtree_missing(t)) flags |= F_MISSING;
  if (ts_subtree_error_cost(t) > 0) flags |= F_HAS_ERROR;
  put_record(p, symbol, field, flags, start, start + ts_subtree_size(t).bytes);
}

#define NO_RECORD UINT32_MAX

// One node whose children the walk is visiting.
typedef struct {
  Subtree tree;
  const TSSymbol *aliases;              // the production's alias sequence, or NULL
  const TSFieldMapEntry *fields, *fields_end;
  uint32_t child;                       // next child
  uint32_t structural;                  // next non-extra child's index
  uint32_t pos;                         // start byte of the next child
  uint32_t record;                      // this node's record, or NO_RECORD if hidden
  uint8_t field;                        // what hidden children inherit
} frame;

static frame *frames;
static uint32_t frames_cap;

// flatten writes the blob for tree into result/result_len: every visible
// node in preorder, as TSTreeCursor would visit them (the same symbols,
// aliases, fields and flags), but reading the subtrees directly. The
// cursor climbs and re-descends through hidden nodes for each sibling and
// searches field maps upwards for each node, about 1,000 instructions a
// node; this walk visits each subtree once.
static int flatten(TSTree *tree, uint32_t source_len) {
  const TSLanguage *lang = tree->language;
  TSNode root = ts_tree_root_node(tree);
  uint32_t total = ts_node_descendant_count(root);
  size_t size = (size_t)prefix_len + 4 + (size_t)total * NODE_SIZE;
  uint8_t *buf = malloc(size);
  if (!buf) return PYWS_NO_MEMORY;
  memcpy(buf, prefix, prefix_len);
  put32(buf + 8, source_len);
  put32(buf + prefix_len, total);
  uint8_t *nodes = buf + prefix_len + 4;

  Subtree top = tree->root;
  uint32_t start = ts_subtree_padding(top).bytes;
  put_subtree(nodes, lang, top, 0, 0, start);
  uint32_t count = 1;
  int rc = PYWS_OK;
  uint32_t depth = 0;
  if (ts_subtree_child_count(top) == 0) {
    close_node(nodes, 0, count);
  } else {
    frames[0] = (frame){.tree = top, .pos = start, .record = 0};
    depth = 1;
  }
  // Entering a node: its production's tables.
#define ENTER(f)                                                                     \
  do {                                                                               \
    (f)->aliases = ts_language_alias_sequence(lang, (f)->tree.ptr->production_id);   \
    ts_language_field_map(lang, (f)->tree.ptr->production_id, &(f)->fields, &(f)->fields_end); \
  } while (0)
  if (depth) ENTER(&frames[0]);
  while (depth > 0) {
    frame *f = &frames[depth - 1];
    if (f->child == f->tree.ptr->child_count) {
      if (f->record != NO_RECORD) close_node(nodes, f->record, count);
      depth--;
      continue;
    }
    uint32_t i = f->child++;
    Subtree c = ts_subtree_children(f->tree)[i];
    if (i > 0) f->pos += ts_subtree_padding(c).bytes;
    uint32_t at = f->pos;
    f->pos += ts_subtree_size(c).bytes;

    // Alias and field as ts_tree_cursor_current_node and
    // ts_tree_cursor_current_field_id find them: extras have neither; a
    // child without a field of its own takes the one its hidden parent
    // got, up to the nearest visible ancestor.
    TSSymbol alias = 0;
    uint8_t field = 0;
    if (!ts_subtree_extra(c)) {
      uint32_t s = f->structural++;
      if (f->aliases) alias = f->aliases[s];
      for (const TSFieldMapEntry *m = f->fields; m < f->fields_end; m++) {
        if (!m->inherited && m->child_index == s) {
          field = (uint8_t)m->field_id;
          break;
        }
      }
      if (!field) field = f->field;
    }

    uint32_t record = NO_RECORD;
    if (ts_subtree_visible(c) || alias) {
      if (count == total) { rc = PYWS_FAILED; break; }  // defensive: more than counted
      record = count++;
      put_subtree(nodes + (size_t)record * NODE_SIZE, lang, c, alias, field, at);
    }
    if (ts_subtree_child_count(c) == 0) {
      if (record != NO_RECORD) close_node(nodes, record, count);
      continue;
    }
    if (depth == frames_cap) {
      frame *fs = realloc(frames, sizeof *frames * frames_cap * 2);
      if (!fs) { rc = PYWS_NO_MEMORY; break; }
      frames = fs;
      frames_cap *= 2;
    }
    frame *child = &frames[depth++];
    *child = (frame){.tree = c, .pos = at, .record = record,
                     .field = record != NO_RECORD ? 0 : field};
    ENTER(child);
  }
#undef ENTER
  if (rc == PYWS_OK && count != total) rc = PYWS_FAILED;
  if (rc != PYWS_OK) {
    free(buf);
    return rc;
  }
  result = buf;
  result_len = (uint32_t)size;
  return PYWS_OK;
}

// pyws_result_free releases the last blob. pyws_parse calls it too, so a
// host that forgets leaks at most one blob.
PYWS_EXPORT("pyws_result_free")
void pyws_result_free(void) {
  free(result);
  result = NULL;
  result_len = 0;
}

PYWS_EXPORT("pyws_result_ptr")
uint32_t pyws_result_ptr(void) { return (uint32_t)(uintptr_t)result; }

PYWS_EXPORT("pyws_result_len")
uint32_t pyws_result_len(void) { return result_len; }

// slots keep trees between calls so the next version of the same file can
// be parsed incrementally (pyws_parse_slot). The host decides which file
// owns which slot.
#define PYWS_SLOTS 16u
static TSTree *slots[PYWS_SLOTS];

// parse parses src[0:len], reusing old (already edited) when it is not
// NULL, and flattens the result into result/result_len. On PYWS_OK and
// keep != NULL the new tree is handed to *keep; otherwise it is deleted.
static int parse(TSTree *old, const char *src, uint32_t len, uint64_t budget_us, TSTree **keep) {
  pyws_result_free();
  if (!parser) return PYWS_NOT_READY;
  if (!frames) {
    frames_cap = 256;
    frames = malloc(sizeof *frames * frames_cap);
    if (!frames) return PYWS_NO_MEMORY;
  }
  source s = {src, len};
  TSInput input = {&s, read_source, TSInputEncodingUTF8, NULL};
  uint64_t deadline = 0;
  TSParseOptions opts = {&deadline, NULL};
  if (budget_us > 0) {
    deadline = now_us() + budget_us;
    opts.progress_callback = over_budget;
  }
  TSTree *tree = ts_parser_parse_with_options(parser, old, input, opts);
  if (!tree) {
    // Without a reset the next call would resume this parse.
    ts_parser_reset(parser);
    return budget_us > 0 && now_us() > deadline ? PYWS_TIMEOUT : PYWS_FAILED;
  }
  int rc = flatten(tree, len);
  if (rc == PYWS_OK && keep) {
    *keep = tree;
  } else {
    ts_tree_delete(tree);
  }
  return rc;
}

// pyws_parse parses src[0:len]. budget_us > 0 bounds the parse in
// microseconds of the monotonic clock; 0 means unbounded. On PYWS_OK the
// blob is at pyws_result_ptr() for pyws_result_len() bytes.
PYWS_EXPORT("pyws_parse")
int32_t pyws_parse(const char *src, uint32_t len, uint64_t budget_us) {
  return parse(NULL, src, len, budget_us, NULL);
}

// pyws_parse_slot is pyws_parse that keeps the new tree in slot for the
// next call. With edit == NULL it parses from scratch. Otherwise edit
// points to a count n, then n records of nine u32s, each describing one
// changed range of src against the source of the slot's tree:
// start_byte, old_end_byte, new_end_byte, then the rows and byte columns
// of start, old end and new end. The records are applied in order, each
// in the coordinates the earlier ones left (the host sends them last
// range first, so each is in the old source's coordinates). The slot's
// tree is edited and reused, so only the changed ranges are parsed again.
// Whatever the outcome, the slot's previous tree is gone afterwards; on
// failure the slot is empty.
PYWS_EXPORT("pyws_parse_slot")
int32_t pyws_parse_slot(uint32_t slot, const char *src, uint32_t len, uint64_t budget_us, const uint32_t *edit) {
  if (slot >= PYWS_SLOTS) return PYWS_FAILED;
  TSTree *old = slots[slot];
  slots[slot] = NULL;
  if (old && edit) {
    uint32_t n = edit[0];
    for (const uint32_t *r = edit + 1; n > 0; n--, r += 9) {
      TSInputEdit e = {
        .start_byte = r[0], .old_end_byte = r[1], .new_end_byte = r[2],
        .start_point = {r[3], r[4]},
        .old_end_point = {r[5], r[6]},
        .new_end_point = {r[7], r[8]},
      };
      ts_tree_edit(old, &e);
    }
  }
  int rc = parse(edit ? old : NULL, src, len, budget_us, &slots[slot]);
  if (old) ts_tree_delete(old);
  return rc;
}
