package toolspec

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/tiers"
)

func TestTable(t *testing.T) {
	spec := func(name string, kind Kind, uri, plugin string) *Spec {
		return &Spec{Name: name, Kind: kind, URI: uri, Description: name, Family: tiers.FamilyAnalysis,
			Result: reflect.TypeFor[struct{}](), Plugin: plugin, Health: plugin != ""}
	}
	table, err := NewTable([]*Spec{
		spec("get_hover", KindTool, "", "index_files"),
		spec("get_definition", KindTool, "", "index_files"),
		spec("get_diagnostics", KindTool, "", "get_diagnostics"),
		spec("structure", KindResource, "svc://workspace/structure", ""),
		spec("file", KindResource, "svc://file/", ""),
	})
	if err != nil {
		t.Fatal(err)
	}
	if hover, ok := table.Tool("get_hover"); !ok || !reflect.DeepEqual(hover.Routes, []Route{{Method: "POST", Path: "/tools/get_hover"}}) {
		t.Errorf("a tool without routes gets POST /tools/<name>: %+v", hover)
	}
	if _, ok := table.Tool("structure"); ok {
		t.Error("a resource is found as a tool")
	}
	for uri, want := range map[string]string{"svc://workspace/structure": "structure", "svc://file/a.py": "file", "svc://filex": "", "svc://other": ""} {
		r, ok := table.Resource(uri)
		if ok != (want != "") || ok && r.Name != want {
			t.Errorf("Resource(%q) = %v %v, want %q", uri, r, ok, want)
		}
	}
	if got := strings.Join(table.ToolNames(), ","); got != "get_hover,get_definition,get_diagnostics" {
		t.Errorf("tool names %s", got)
	}
	if got := strings.Join(table.ResourceURIs(), ","); got != "svc://workspace/structure,svc://file/{path}" {
		t.Errorf("resource URIs %s", got)
	}
	want := []PluginCapability{{Name: "index_files", Tools: []string{"get_hover", "get_definition"}}, {Name: "get_diagnostics", Tools: []string{"get_diagnostics"}}}
	if got := table.HealthCapabilities(); !reflect.DeepEqual(got, want) {
		t.Errorf("health capabilities %+v, want %+v", got, want)
	}
	if _, err := NewTable([]*Spec{spec("a", KindTool, "", ""), spec("a", KindTool, "", "")}); err == nil || !strings.Contains(err.Error(), "already belongs to another row") {
		t.Errorf("a repeated tool: %v", err)
	}
}
