// c-wordcount: a pyws plugin in C, proving plugin ABI v1 needs nothing
// from Go. Tool "count_lines" answers, over every file's source,
// {"result":{"files":F,"lines":L,"words":W,"bytes":B}}. See
// docs/plugin-abi.md for the byte layout implemented here.
//
// Build: make c-plugin (clang-16 --target=wasm32-wasi -mexec-model=reactor).
// The module imports nothing but pyws_v1.log and what wasi-libc's malloc
// needs.

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT(name) __attribute__((export_name(name)))

__attribute__((import_module("pyws_v1"), import_name("log")))
void pyws_log(int32_t level, const char *ptr, int32_t len);

enum { LOG_DEBUG = -4 };

static uint8_t *request;     // from pyws_alloc, freed on the next call
static char response[256];   // valid until the next pyws_handle

EXPORT("pyws_alloc")
uint8_t *pyws_alloc(int32_t size) {
	free(request);
	request = malloc(size > 0 ? (size_t)size : 1);
	return request;
}

static uint32_t u32(const uint8_t *p) {
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

// A minimal JSON reader over the request header: enough to find each
// file's "source" blob index and skip everything else.
typedef struct {
	const char *p, *end;
	int ok;
} reader;

static void ws(reader *r) {
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) r->p++;
}

static int eat(reader *r, char c) {
	ws(r);
	if (r->p < r->end && *r->p == c) { r->p++; return 1; }
	return 0;
}

// string reads a JSON string; key is set when it has no escapes.
static void string(reader *r, const char **s, size_t *n) {
	if (!eat(r, '"')) { r->ok = 0; return; }
	const char *start = r->p;
	int escaped = 0;
	while (r->p < r->end && *r->p != '"') {
		if (*r->p == '\\') { escaped = 1; r->p++; }
		r->p++;
	}
	if (r->p >= r->end) { r->ok = 0; return; }
	if (s) { *s = escaped ? "" : start; *n = escaped ? 0 : (size_t)(r->p - start); }
	r->p++;
}

static void skip(reader *r, int depth) {
	ws(r);
	if (!r->ok || r->p >= r->end || depth > 64) { r->ok = 0; return; }
	char c = *r->p;
	if (c == '"') { string(r, 0, 0); return; }
	if (c == '{' || c == '[') {
		char close = c == '{' ? '}' : ']';
		r->p++;
		if (eat(r, close)) return;
		do {
			if (c == '{') { string(r, 0, 0); if (!eat(r, ':')) { r->ok = 0; return; } }
			skip(r, depth + 1);
		} while (r->ok && eat(r, ','));
		if (!eat(r, close)) r->ok = 0;
		return;
	}
	// number, true, false, null
	while (r->p < r->end && *r->p != ',' && *r->p != '}' && *r->p != ']' && *r->p != ' ' && *r->p != '\n') r->p++;
}

static int64_t integer(reader *r) {
	ws(r);
	int neg = eat(r, '-');
	int64_t v = 0;
	if (r->p >= r->end || *r->p < '0' || *r->p > '9') { r->ok = 0; return 0; }
	while (r->p < r->end && *r->p >= '0' && *r->p <= '9' && v < (int64_t)1 << 40) v = v * 10 + (*r->p++ - '0');
	return neg ? -v : v;
}

static int key_is(const char *s, size_t n, const char *want) {
	return n == strlen(want) && memcmp(s, want, n) == 0;
}

typedef struct { uint64_t files, lines, words, bytes; } counts;

static void count(counts *c, const uint8_t *s, uint32_t n) {
	int in_word = 0;
	c->files++;
	c->bytes += n;
	if (n > 0) c->lines++; // the last line, terminated or not
	for (uint32_t i = 0; i < n; i++) {
		uint8_t b = s[i];
		if (b == '\n' && i + 1 < n) c->lines++;
		int space = b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v';
		if (!space && !in_word) c->words++;
		in_word = !space;
	}
}

static char *put(char *p, const char *s) { while (*s) *p++ = *s++; return p; }

static char *put_u64(char *p, uint64_t v) {
	char tmp[24];
	int n = 0;
	do { tmp[n++] = (char)('0' + v % 10); v /= 10; } while (v);
	while (n) *p++ = tmp[--n];
	return p;
}

static uint64_t answer(const char *text, size_t n) {
	return (uint64_t)(uintptr_t)text << 32 | (uint64_t)n;
}

static uint64_t fail(const char *msg) {
	char *p = put(response, "{\"error\":{\"code\":\"PLUGIN_ERROR\",\"message\":\"");
	p = put(p, msg);
	p = put(p, "\"}}");
	return answer(response, (size_t)(p - response));
}

EXPORT("pyws_handle")
uint64_t pyws_handle(const uint8_t *msg, int32_t len) {
	uint32_t size = (uint32_t)len;
	if (msg != request || size < 16 || memcmp(msg, "PYWS", 4) != 0) return fail("not a pyws request");
	if (u32(msg + 4) != 1) return fail("unsupported request protocol");
	uint64_t hlen = u32(msg + 8), nblobs = u32(msg + 12);
	uint64_t table_end = 16 + 8 * nblobs;
	if (table_end + hlen > size) return fail("request header overruns the message");

	reader r = {(const char *)msg + table_end, (const char *)msg + table_end + hlen, 1};
	counts c = {0};
	if (!eat(&r, '{')) return fail("bad request header");
	if (!eat(&r, '}')) do {
		const char *k; size_t kn;
		string(&r, &k, &kn);
		if (!eat(&r, ':')) r.ok = 0;
		if (!r.ok) break;
		if (!key_is(k, kn, "files")) { skip(&r, 0); continue; }
		if (!eat(&r, '[')) { r.ok = 0; break; }
		if (eat(&r, ']')) continue;
		do { // one file object
			if (!eat(&r, '{')) { r.ok = 0; break; }
			if (eat(&r, '}')) continue;
			do {
				const char *fk; size_t fkn;
				string(&r, &fk, &fkn);
				if (!eat(&r, ':')) r.ok = 0;
				if (!r.ok) break;
				if (!key_is(fk, fkn, "source")) { skip(&r, 0); continue; }
				int64_t i = integer(&r);
				if (i < 0) continue; // -1: no source
				if ((uint64_t)i >= nblobs) { r.ok = 0; break; }
				uint64_t off = u32(msg + 16 + 8 * i), n = u32(msg + 20 + 8 * i);
				if (off + n > size) { r.ok = 0; break; }
				count(&c, msg + off, (uint32_t)n);
			} while (r.ok && eat(&r, ','));
			if (r.ok && !eat(&r, '}')) r.ok = 0;
		} while (r.ok && eat(&r, ','));
		if (r.ok && !eat(&r, ']')) r.ok = 0;
	} while (r.ok && eat(&r, ','));
	if (!r.ok) return fail("bad request header");

	char *p = put(response, "{\"result\":{\"files\":");
	p = put_u64(p, c.files);
	p = put(p, ",\"lines\":");
	p = put_u64(p, c.lines);
	p = put(p, ",\"words\":");
	p = put_u64(p, c.words);
	p = put(p, ",\"bytes\":");
	p = put_u64(p, c.bytes);
	p = put(p, "}}");
	pyws_log(LOG_DEBUG, "count_lines answered", 20);
	return answer(response, (size_t)(p - response));
}
