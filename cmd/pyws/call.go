package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"
)

// callExit is a refusal the server answered: its envelope is already on
// stderr, and the command exits 1 without another word.
type callExit struct{}

func (callExit) Error() string { return "the server answered with an error" }

// callCommand calls a tool (or reads an svc:// resource) on a running
// server and prints the result as JSON; --list lists the tools with their
// arguments from the server's OpenAPI document.
func callCommand(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("call", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", envOr("PYWS_URL", "http://127.0.0.1:8080"), "server URL (default $PYWS_URL, else http://127.0.0.1:8080); the key is $PYWS_KEY")
	list := fs.Bool("list", false, "list the server's tools and their arguments")
	rawJSON := fs.String("json", "", "the arguments as one JSON object (--arg values are set over it)")
	timeout := fs.Duration("timeout", 2*time.Minute, "give up after this long")
	var argList stringList
	fs.Var(&argList, "arg", "name=value; repeatable; a value that parses as JSON (3, true, [\"a\"], {...}) is sent as that JSON, anything else as a string")
	tool := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		tool, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if tool == "" && fs.NArg() > 0 {
		tool = fs.Arg(0)
	}
	client := &http.Client{Timeout: *timeout}
	base := strings.TrimSuffix(*url, "/")
	if *list {
		return listTools(client, base, stdout)
	}
	if tool == "" {
		return errors.New("call: name a tool (pyws call --list shows them)")
	}
	arguments := map[string]any{}
	if *rawJSON != "" {
		if err := json.Unmarshal([]byte(*rawJSON), &arguments); err != nil {
			return fmt.Errorf("--json: not a JSON object: %w", err)
		}
	}
	for _, a := range argList {
		name, value, ok := strings.Cut(a, "=")
		if !ok || name == "" {
			return fmt.Errorf("--arg %q: want name=value", a)
		}
		var v any
		if json.Unmarshal([]byte(value), &v) != nil {
			v = value
		}
		arguments[name] = v
	}
	path, body := "/v1/tools/call", map[string]any{"name": tool, "arguments": arguments}
	if strings.HasPrefix(tool, "svc://") {
		path, body = "/v1/resources/read", map[string]any{"uri": tool, "params": arguments}
	}
	payload, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", base+path, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if key := os.Getenv("PYWS_KEY"); key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	out := stdout
	if resp.StatusCode != http.StatusOK {
		out = stderr
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, answer, "", "  ") != nil {
		pretty.Reset()
		pretty.Write(answer)
	}
	fmt.Fprintln(out, strings.TrimSpace(pretty.String()))
	if resp.StatusCode != http.StatusOK {
		return callExit{}
	}
	return nil
}

// listTools prints each POST /v1/tools/<name> of the OpenAPI document:
// its summary, then its arguments with their types.
func listTools(client *http.Client, base string, stdout io.Writer) error {
	resp, err := client.Get(base + "/v1/openapi.json")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /v1/openapi.json: %s", resp.Status)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Summary     string `json:"summary"`
			RequestBody struct {
				Content map[string]struct {
					Schema argsSchema `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		return fmt.Errorf("openapi.json: %w", err)
	}
	var names []string
	for path := range doc.Paths {
		if name, ok := strings.CutPrefix(path, "/v1/tools/"); ok && name != "call" && doc.Paths[path]["post"].Summary != "" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		op := doc.Paths["/v1/tools/"+name]["post"]
		fmt.Fprintf(stdout, "%s\n    %s\n", name, op.Summary)
		schema := op.RequestBody.Content["application/json"].Schema
		var params []string
		for p := range schema.Properties {
			params = append(params, p)
		}
		sort.Strings(params)
		for _, p := range params {
			s := schema.Properties[p]
			req := ""
			for _, r := range schema.Required {
				if r == p {
					req = ", required"
				}
			}
			fmt.Fprintf(stdout, "    --arg %s=<%s%s>  %s\n", p, s.Type, req, s.Description)
		}
	}
	return nil
}

type argsSchema struct {
	Properties map[string]struct {
		Type        string `json:"type"`
		Description string `json:"description"`
	} `json:"properties"`
	Required []string `json:"required"`
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
