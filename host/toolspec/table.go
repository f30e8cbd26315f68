package toolspec

import (
	"fmt"
	"slices"
	"strings"
)

// Row is a row of a table: a Spec, or what embeds one (host/service's
// Operation adds the handler).
type Row interface{ RowSpec() *Spec }

// RowSpec makes a Spec, and whatever embeds one, a Row.
func (s *Spec) RowSpec() *Spec { return s }

// Table indexes rows by tool name and by resource URI: what routing,
// health_check and the documents look up.
type Table[R Row] struct {
	rows  []R
	tools map[string]R
}

// NewTable indexes rows in their order, giving each tool without routes
// its POST /tools/<name>. It refuses a row whose spec Check refuses.
func NewTable[R Row](rows []R) (*Table[R], error) {
	t := &Table[R]{rows: slices.Clone(rows), tools: map[string]R{}}
	seen := map[string]bool{}
	for _, r := range t.rows {
		s := r.RowSpec()
		if s.Kind == KindTool && len(s.Routes) == 0 {
			s.Routes = []Route{{Method: "POST", Path: "/tools/" + s.Name}}
		}
		if err := s.Check(seen); err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		if s.Kind == KindTool {
			t.tools[s.Name] = r
		}
	}
	return t, nil
}

// All returns the rows in table order.
func (t *Table[R]) All() []R { return t.rows }

// Tool returns the tool named name.
func (t *Table[R]) Tool(name string) (R, bool) {
	r, ok := t.tools[name]
	return r, ok
}

// ToolNames lists the tools in table order.
func (t *Table[R]) ToolNames() []string {
	var names []string
	for _, r := range t.rows {
		if s := r.RowSpec(); s.Kind == KindTool {
			names = append(names, s.Name)
		}
	}
	return names
}

// PluginCapability is a plugin capability and the tools health_check
// reports unavailable while no plugin serves it.
type PluginCapability struct {
	Name  string
	Tools []string
}

// HealthCapabilities lists the capabilities of the rows marked Health, in
// table order.
func (t *Table[R]) HealthCapabilities() []PluginCapability {
	var caps []PluginCapability
	for _, r := range t.rows {
		s := r.RowSpec()
		if !s.Health {
			continue
		}
		i := slices.IndexFunc(caps, func(c PluginCapability) bool { return c.Name == s.Plugin })
		if i < 0 {
			caps = append(caps, PluginCapability{Name: s.Plugin})
			i = len(caps) - 1
		}
		caps[i].Tools = append(caps[i].Tools, s.Name)
	}
	return caps
}

// Resource returns the resource serving uri: the row of that URI, or of a
// URI ending in "/" that uri extends.
func (t *Table[R]) Resource(uri string) (R, bool) {
	for _, r := range t.rows {
		s := r.RowSpec()
		if s.Kind != KindResource {
			continue
		}
		if s.URI == uri || (strings.HasSuffix(s.URI, "/") && strings.HasPrefix(uri, s.URI) && len(uri) > len(s.URI)) {
			return r, true
		}
	}
	var none R
	return none, false
}

// ResourceURIs lists the resource URIs (templates shown with {path}).
func (t *Table[R]) ResourceURIs() []string {
	var uris []string
	for _, r := range t.rows {
		if s := r.RowSpec(); s.Kind == KindResource {
			u := s.URI
			if strings.HasSuffix(u, "/") {
				u += "{path}"
			}
			uris = append(uris, u)
		}
	}
	return uris
}
