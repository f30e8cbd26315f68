package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestHostileArguments sends every tool of the served OpenAPI document
// arguments an attacker or a confused agent would: each parameter in
// turn given values of the wrong type, out of range, huge, paths out of
// the workspace (relative, absolute, file URIs, through a symlink, with
// a NUL), deep JSON, and each required parameter left out. Every answer
// must be one the document declares for that tool (its status, and one
// of the codes listed for the status), never a 500, and afterwards the
// server is healthy and nothing outside the workspace changed.
func TestHostileArguments(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	writeTree(t, ws, map[string]string{
		"a.py":      "import os\n\n\ndef f(x: int) -> str:\n    return os.path.join('a', str(x))\n\n\nclass C:\n    def m(self):\n        return f(1)\n",
		"pkg/b.py":  "from a import C\n\nC().m()\n",
		"notes.txt": "plain text\n",
		"binary.py": "\x00\xff\xfe not python\n",
		"latin1.py": "s = '\xe9'\n",
	})
	secret := filepath.Join(outside, "secret.py")
	writeTree(t, outside, map[string]string{"secret.py": "TOKEN = 'do not touch'\n"})
	if err := os.Symlink(outside, filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, ws)
	key := s.addKeyReady("enterprise", "")
	waitIndexed(t, s, key)

	doc := s.do("GET", "/v1/openapi.json", "", nil)
	if doc.Status != 200 {
		t.Fatalf("openapi: %d", doc.Status)
	}
	type operation struct {
		RequestBody struct {
			Content map[string]struct {
				Schema struct {
					Properties map[string]struct {
						Type string `json:"type"`
					} `json:"properties"`
					Required []string `json:"required"`
				} `json:"schema"`
			} `json:"content"`
		} `json:"requestBody"`
		Responses map[string]struct {
			Description string `json:"description"`
		} `json:"responses"`
	}
	var spec struct {
		Paths map[string]map[string]operation `json:"paths"`
	}
	if err := json.Unmarshal(doc.Raw, &spec); err != nil {
		t.Fatal(err)
	}
	codesRe := regexp.MustCompile(`[A-Z][A-Z_]+[A-Z]`)
	huge := strings.Repeat("a", 200_000)
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	paths := []any{"", ".", "..", "../" + filepath.Base(outside) + "/secret.py", secret, "file://" + secret,
		"link/secret.py", "file://" + filepath.Join(ws, "link", "secret.py"), "a.py\x00.txt", "%2e%2e/secret.py",
		"notes.txt", "binary.py", "latin1.py", "pkg", "missing.py", "svc://workspace/files", "é🙂.py", huge}
	hostile := map[string][]any{
		"integer": {-1, 1 << 31, int64(1) << 53, 1e300, 1.5, "0", nil, true, []any{}},
		"boolean": {"true", 1, nil, []any{}},
		"string":  append(slices.Clone(paths), 0, nil, []any{"a.py"}, map[string]any{}),
		"array":   {"x", 1, nil, []any{nil, 1, "x", []any{}}, json.RawMessage(deep), make([]any, 10_000)},
		"object":  {"x", 1, nil, []any{}, map[string]any{"changes": map[string]any{"file://" + secret: []any{map[string]any{"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 0}}, "newText": "pwned = 1\n"}}}}, map[string]any{"../" + filepath.Base(outside) + "/secret.py": []any{map[string]any{"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 0}}, "newText": "x"}}}, map[string]any{"link/secret.py": []any{map[string]any{"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 0}}, "newText": "x"}}}, json.RawMessage(`{"a":` + deep[:2000] + deep[5000:7000] + `}`)},
	}
	sent := 0
	// judge sends one request and holds its answer to what the document
	// declares; no answer may carry the secret's text.
	judge := func(what, method, path string, body any, allowed map[int][]string) {
		t.Helper()
		r, err := s.try(method, path, key, body)
		sent++
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		codes, declared := allowed[r.Status]
		switch {
		case r.Status == 500 || !declared:
			t.Errorf("%s: status %d not declared: %.300s", what, r.Status, r.Raw)
		case r.Status != 200 && !slices.Contains(codes, r.ErrCode()):
			t.Errorf("%s: %d %s, not among the codes declared for %d (%v): %.300s", what, r.Status, r.ErrCode(), r.Status, codes, r.Raw)
		case strings.Contains(string(r.Raw), "do not touch"):
			t.Errorf("%s: the answer shows a file outside the workspace: %.300s", what, r.Raw)
		}
	}
	declaredBy := func(op operation) map[int][]string {
		allowed := map[int][]string{}
		for status, r := range op.Responses {
			n, _ := strconv.Atoi(status)
			allowed[n] = codesRe.FindAllString(r.Description, -1)
		}
		return allowed
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for p := range spec.Paths {
			if !yield(p) {
				return
			}
		}
	})
	for _, p := range names {
		op, ok := spec.Paths[p]["post"]
		name, isTool := strings.CutPrefix(p, "/v1/tools/")
		if !ok || !isTool || name == "call" || name == "health_check" {
			continue
		}
		allowed := declaredBy(op)
		schema := op.RequestBody.Content["application/json"].Schema
		base := map[string]any{}
		for param, ps := range schema.Properties {
			switch ps.Type {
			case "integer":
				base[param] = 0
			case "boolean":
				base[param] = false
			case "string":
				base[param] = "a.py"
			case "array":
				base[param] = []any{}
			case "object":
				base[param] = map[string]any{}
			}
		}
		check := func(what string, args map[string]any) {
			t.Helper()
			body, err := json.Marshal(args)
			if err != nil {
				t.Fatal(err)
			}
			judge(name+" "+what, "POST", p, body, allowed)
		}
		for param, ps := range schema.Properties {
			for i, v := range hostile[ps.Type] {
				args := maps.Clone(base)
				args[param] = v
				check(fmt.Sprintf("%s=hostile[%s][%d]", param, ps.Type, i), args)
			}
			if ps.Type != "string" {
				for i, v := range paths {
					args := maps.Clone(base)
					args[param] = v
					check(fmt.Sprintf("%s=path[%d]", param, i), args)
				}
			}
		}
		for _, req := range schema.Required {
			args := maps.Clone(base)
			delete(args, req)
			check("without "+req, args)
		}
	}
	// The resources: a file by path (in the route, and through the generic
	// read), line ranges, and the listings' globs.
	for i, v := range paths {
		p, ok := v.(string)
		if !ok || p == "" {
			continue
		}
		judge(fmt.Sprintf("file resource path[%d]", i), "GET", "/v1/resources/file/"+url.PathEscape(p), nil, declaredBy(spec.Paths["/v1/resources/file/{path}"]["get"]))
		judge(fmt.Sprintf("read svc://file/ path[%d]", i), "POST", "/v1/resources/read", map[string]any{"uri": "svc://file/" + p}, declaredBy(spec.Paths["/v1/resources/read"]["post"]))
	}
	for i, q := range []string{"lineRange=" + url.QueryEscape(`{"start":-1,"end":5}`), "lineRange=" + url.QueryEscape(`{"start":9,"end":2}`),
		"lineRange=" + url.QueryEscape(`{"start":0,"end":9007199254740993}`), "lineRange=x", "encoding=ebcdic", "encoding=" + url.QueryEscape(huge[:5000]), "includeMetadata=maybe"} {
		judge(fmt.Sprintf("file resource query[%d]", i), "GET", "/v1/resources/file/a.py?"+q, nil, declaredBy(spec.Paths["/v1/resources/file/{path}"]["get"]))
	}
	for i, glob := range []string{"[", "{a,b", "***", "!", "!**", strings.Repeat("**/", 2000) + "*.py", "../**", "/etc/*", "link/**", "a\\", "\x00"} {
		judge(fmt.Sprintf("files filter[%d]", i), "GET", "/v1/resources/files?filter="+url.QueryEscape(glob), nil, declaredBy(spec.Paths["/v1/resources/files"]["get"]))
		judge(fmt.Sprintf("structure exclude[%d]", i), "GET", "/v1/resources/structure?excludePatterns="+url.QueryEscape(glob), nil, declaredBy(spec.Paths["/v1/resources/structure"]["get"]))
	}
	for i, q := range []string{"maxDepth=0", "maxDepth=21", "maxDepth=-1", "maxDepth=1e9", "includeHidden=2", "excludePatterns=" + url.QueryEscape("[1,2]")} {
		judge(fmt.Sprintf("structure query[%d]", i), "GET", "/v1/resources/structure?"+q, nil, declaredBy(spec.Paths["/v1/resources/structure"]["get"]))
	}
	t.Logf("%d hostile calls", sent)
	mustStatus(t, s.do("GET", "/v1/tools/health_check", key, nil), 200, "")
	if b, err := os.ReadFile(secret); err != nil || string(b) != "TOKEN = 'do not touch'\n" {
		t.Fatalf("the file outside the workspace changed: %q, %v", b, err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Fatalf("files appeared outside the workspace: %v", entries)
	}
}
