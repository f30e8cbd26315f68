// Package pyright compares pyws's navigation with pyright's language
// server. The golden test (always run) checks pyws against pyright answers
// recorded under testdata/ for the navigation fixtures; the differential
// test (PYWS_PYRIGHT=requests,flask,django) samples identifier positions
// of real projects and runs both engines live. The type test (always run)
// replays pyright's recorded hovers, type definitions and type errors on
// those projects and the fixtures (golden.go, typescore.go). See README.md.
package pyright

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultServer is where the pyright language server is installed here.
const DefaultServer = "/opt/pyright/node_modules/.bin/pyright-langserver"

// ServerPath is PYWS_PYRIGHT_SERVER, else DefaultServer.
func ServerPath() string {
	if p := os.Getenv("PYWS_PYRIGHT_SERVER"); p != "" {
		return p
	}
	return DefaultServer
}

// Client speaks LSP over stdio to one pyright-langserver process.
type Client struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	nextID atomic.Int64
	mu     sync.Mutex // writes
	pendMu sync.Mutex
	pend   map[int64]chan rpcResponse
	opened map[string]bool
}

type rpcResponse struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// Start runs the server for the workspace root and initializes it.
func Start(server, root string) (*Client, error) {
	cmd := exec.Command(server, "--stdio")
	cmd.Dir = root
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &Client{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20), pend: map[int64]chan rpcResponse{}, opened: map[string]bool{}}
	go c.readLoop()
	uri := "file://" + root
	_, err = c.Call("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": uri,
		"workspaceFolders": []map[string]any{{"uri": uri, "name": "ws"}},
		"capabilities": map[string]any{
			"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": false}, "workspaceFolders": true, "configuration": true},
			"textDocument": map[string]any{"rename": map[string]any{"prepareSupport": false}, "hover": map[string]any{"contentFormat": []string{"markdown"}},
				"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true}},
		},
	}, 120*time.Second)
	if err != nil {
		c.Close()
		return nil, err
	}
	c.notify("initialized", map[string]any{})
	return c, nil
}

func (c *Client) write(msg map[string]any) error {
	msg["jsonrpc"] = "2.0"
	b, _ := json.Marshal(msg)
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
	return err
}

func (c *Client) notify(method string, params any) {
	c.write(map[string]any{"method": method, "params": params})
}

func (c *Client) readLoop() {
	for {
		n := -1
		for {
			line, err := c.out.ReadString('\n')
			if err != nil {
				c.failAll()
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		if n < 0 {
			continue
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(c.out, body); err != nil {
			c.failAll()
			return
		}
		var msg struct {
			ID     *json.RawMessage `json:"id"`
			Method string           `json:"method"`
			rpcResponse
		}
		if json.Unmarshal(body, &msg) != nil {
			continue
		}
		if msg.Method != "" {
			if msg.ID != nil { // a request from the server: answer null
				var result any
				if msg.Method == "workspace/configuration" {
					result = []any{map[string]any{}, map[string]any{}, map[string]any{}}
				}
				c.write(map[string]any{"id": msg.ID, "result": result})
			}
			continue
		}
		if msg.ID == nil {
			continue
		}
		id, _ := strconv.ParseInt(string(*msg.ID), 10, 64)
		c.pendMu.Lock()
		ch := c.pend[id]
		delete(c.pend, id)
		c.pendMu.Unlock()
		if ch != nil {
			ch <- msg.rpcResponse
		}
	}
}

func (c *Client) failAll() {
	c.pendMu.Lock()
	defer c.pendMu.Unlock()
	for id, ch := range c.pend {
		close(ch)
		delete(c.pend, id)
	}
}

// Pid is the server process's id.
func (c *Client) Pid() int { return c.cmd.Process.Pid }

// Call sends a request and waits for its result.
func (c *Client) Call(method string, params any, timeout time.Duration) (json.RawMessage, error) {
	id := c.nextID.Add(1)
	ch := make(chan rpcResponse, 1)
	c.pendMu.Lock()
	c.pend[id] = ch
	c.pendMu.Unlock()
	if err := c.write(map[string]any{"id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return nil, fmt.Errorf("%s: server exited", method)
		}
		if r.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, r.Error.Message)
		}
		return r.Result, nil
	case <-time.After(timeout):
		return nil, fmt.Errorf("%s: no answer within %v", method, timeout)
	}
}

// Open sends didOpen for a file once.
func (c *Client) Open(abs string) error {
	if c.opened[abs] {
		return nil
	}
	b, err := os.ReadFile(abs)
	if err != nil {
		return err
	}
	c.opened[abs] = true
	lang := "python"
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file://" + abs, "languageId": lang, "version": 1, "text": string(b)}})
	return nil
}

// Loc is an LSP location.
type Loc struct {
	URI   string `json:"uri"`
	Range struct {
		Start struct{ Line, Character int } `json:"start"`
		End   struct{ Line, Character int } `json:"end"`
	} `json:"range"`
}

func pos(abs string, line, char int) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": "file://" + abs}, "position": map[string]any{"line": line, "character": char}}
}

// Definition asks for the definitions at a position.
func (c *Client) Definition(abs string, line, char int) ([]Loc, error) {
	return c.locations("textDocument/definition", abs, line, char)
}

// TypeDefinition asks for the type definitions at a position: the
// classes of the value there.
func (c *Client) TypeDefinition(abs string, line, char int) ([]Loc, error) {
	return c.locations("textDocument/typeDefinition", abs, line, char)
}

// Hover asks for the hover at a position and returns its Markdown text
// ("" when there is none).
func (c *Client) Hover(abs string, line, char int) (string, error) {
	c.Open(abs)
	raw, err := c.Call("textDocument/hover", pos(abs, line, char), 120*time.Second)
	if err != nil || len(raw) == 0 || string(raw) == "null" {
		return "", err
	}
	var h struct {
		Contents json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		return "", err
	}
	var mc struct {
		Value string `json:"value"`
	}
	if json.Unmarshal(h.Contents, &mc) == nil && mc.Value != "" {
		return mc.Value, nil
	}
	var s string
	json.Unmarshal(h.Contents, &s)
	return s, nil
}

// locations asks a request whose answer is Location | Location[] |
// LocationLink[]; a link's location is its targetSelectionRange.
func (c *Client) locations(method, abs string, line, char int) ([]Loc, error) {
	c.Open(abs)
	raw, err := c.Call(method, pos(abs, line, char), 120*time.Second)
	if err != nil {
		return nil, err
	}
	var locs []Loc
	if len(raw) > 0 && raw[0] == '[' {
		// Location[] or LocationLink[]
		var links []struct {
			TargetURI   string `json:"targetUri"`
			TargetRange struct {
				Start struct{ Line, Character int } `json:"start"`
				End   struct{ Line, Character int } `json:"end"`
			} `json:"targetSelectionRange"`
		}
		if json.Unmarshal(raw, &links) == nil && len(links) > 0 && links[0].TargetURI != "" {
			for _, l := range links {
				var lc Loc
				lc.URI = l.TargetURI
				lc.Range.Start.Line, lc.Range.Start.Character = l.TargetRange.Start.Line, l.TargetRange.Start.Character
				lc.Range.End.Line, lc.Range.End.Character = l.TargetRange.End.Line, l.TargetRange.End.Character
				locs = append(locs, lc)
			}
			return locs, nil
		}
		json.Unmarshal(raw, &locs)
	} else if len(raw) > 0 && raw[0] == '{' {
		var l Loc
		json.Unmarshal(raw, &l)
		locs = append(locs, l)
	}
	return locs, nil
}

// References asks for the references at a position.
func (c *Client) References(abs string, line, char int, includeDecl bool) ([]Loc, error) {
	c.Open(abs)
	p := pos(abs, line, char)
	p["context"] = map[string]any{"includeDeclaration": includeDecl}
	raw, err := c.Call("textDocument/references", p, 300*time.Second)
	if err != nil {
		return nil, err
	}
	var locs []Loc
	json.Unmarshal(raw, &locs)
	return locs, nil
}

// Edit is one text edit of a rename.
type Edit struct {
	URI                 string
	Line, Char, EndLine int
	EndChar             int
	NewText             string
}

// Rename asks for the edits of a rename (nil, nil when pyright refuses).
func (c *Client) Rename(abs string, line, char int, newName string) ([]Edit, error) {
	c.Open(abs)
	p := pos(abs, line, char)
	p["newName"] = newName
	raw, err := c.Call("textDocument/rename", p, 300*time.Second)
	if err != nil {
		return nil, err
	}
	var we struct {
		Changes map[string][]struct {
			Range struct {
				Start struct{ Line, Character int } `json:"start"`
				End   struct{ Line, Character int } `json:"end"`
			} `json:"range"`
			NewText string `json:"newText"`
		} `json:"changes"`
		DocumentChanges []struct {
			TextDocument struct {
				URI string `json:"uri"`
			} `json:"textDocument"`
			Edits []struct {
				Range struct {
					Start struct{ Line, Character int } `json:"start"`
					End   struct{ Line, Character int } `json:"end"`
				} `json:"range"`
				NewText string `json:"newText"`
			} `json:"edits"`
		} `json:"documentChanges"`
	}
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if err := json.Unmarshal(raw, &we); err != nil {
		return nil, err
	}
	out := []Edit{}
	for uri, es := range we.Changes {
		for _, e := range es {
			out = append(out, Edit{URI: uri, Line: e.Range.Start.Line, Char: e.Range.Start.Character, EndLine: e.Range.End.Line, EndChar: e.Range.End.Character, NewText: e.NewText})
		}
	}
	for _, dc := range we.DocumentChanges {
		for _, e := range dc.Edits {
			out = append(out, Edit{URI: dc.TextDocument.URI, Line: e.Range.Start.Line, Char: e.Range.Start.Character, EndLine: e.Range.End.Line, EndChar: e.Range.End.Character, NewText: e.NewText})
		}
	}
	return out, nil
}

// Close stops the server.
func (c *Client) Close() {
	c.Call("shutdown", nil, 5*time.Second)
	c.notify("exit", nil)
	c.in.Close()
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
}

// SignatureHelp is pyright's textDocument/signatureHelp answer, the
// parameters' labels as strings (the client declares no label offsets).
type SignatureHelp struct {
	Signatures []struct {
		Label         string          `json:"label"`
		Documentation json.RawMessage `json:"documentation,omitempty"`
		Parameters    []struct {
			Label         string          `json:"label"`
			Documentation json.RawMessage `json:"documentation,omitempty"`
		} `json:"parameters"`
		ActiveParameter *int `json:"activeParameter,omitempty"`
	} `json:"signatures"`
	ActiveSignature *int `json:"activeSignature,omitempty"`
	ActiveParameter *int `json:"activeParameter,omitempty"`
}

// SignatureHelp asks for the signatures of the call around a position;
// nil when there is none.
func (c *Client) SignatureHelp(abs string, line, char int) (*SignatureHelp, error) {
	c.Open(abs)
	raw, err := c.Call("textDocument/signatureHelp", pos(abs, line, char), 120*time.Second)
	if err != nil || len(raw) == 0 || string(raw) == "null" {
		return nil, err
	}
	var h SignatureHelp
	if err := json.Unmarshal(raw, &h); err != nil {
		return nil, err
	}
	return &h, nil
}

// CompletionItem is what the completion comparison keeps of pyright's
// items.
type CompletionItem struct {
	Label    string `json:"label"`
	SortText string `json:"sortText"`
}

// Completion asks for the completions at a position, in the order an
// editor shows them before its own fuzzy scoring: by sortText, then
// label.
func (c *Client) Completion(abs string, line, char int) ([]CompletionItem, error) {
	c.Open(abs)
	raw, err := c.Call("textDocument/completion", pos(abs, line, char), 120*time.Second)
	if err != nil || len(raw) == 0 || string(raw) == "null" {
		return nil, err
	}
	var items []CompletionItem
	if raw[0] == '[' {
		err = json.Unmarshal(raw, &items)
	} else {
		var list struct {
			Items []CompletionItem `json:"items"`
		}
		err = json.Unmarshal(raw, &list)
		items = list.Items
	}
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].SortText != items[j].SortText {
			return items[i].SortText < items[j].SortText
		}
		return items[i].Label < items[j].Label
	})
	return items, err
}
