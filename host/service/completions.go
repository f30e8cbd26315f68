package service

import (
	"context"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// Completion limits: the default and the most a caller may ask.
const (
	defaultCompletions = 50
	maxCompletions     = 500
	// maxImportItems bounds the items of a page that add an import.
	maxImportItems = 5
)

// CompletionsResult is get_completions' result.
type CompletionsResult struct {
	Items []CompletionItem `json:"items"`
	// IsIncomplete: more items match than the limit let through.
	IsIncomplete bool `json:"isIncomplete"`
}

// CompletionItem is one completion, best first.
type CompletionItem struct {
	Label string `json:"label"`
	// Kind is one of variable, function, method, class, module,
	// property, field, parameter, keyword, constant.
	Kind          string `json:"kind"`
	Detail        string `json:"detail,omitempty"`
	Documentation string `json:"documentation,omitempty"`
	InsertText    string `json:"insertText,omitempty"`
	// AdditionalEdits are applied with the item (an import it needs).
	AdditionalEdits []abi.TextEdit `json:"additionalEdits,omitempty"`
}

// runCompletions answers from the file as it is on disk: a file that
// does not parse (the usual state while typing `resp.`) still gets what
// its summary and the text before the position tell.
func runCompletions(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	ctx, cancel := withNavDeadline(ctx)
	defer cancel()
	f, x, _, err := navQuery(ctx, s, a, fault.WorkspaceNotLoaded)
	if err != nil {
		return nil, err
	}
	off, err := checkPosition(f, a)
	if err != nil {
		return nil, err
	}
	limit := a.Int("limit")
	list := x.Completions(f.abs, f.text, off, limit+maxImportItems)
	res := CompletionsResult{Items: make([]CompletionItem, 0, min(limit, len(list.Items)))}
	placer := s.newImportPlacer(f)
	imports := 0
	for _, it := range list.Items {
		if len(res.Items) == limit {
			break
		}
		item := CompletionItem{Label: it.Label, Kind: it.Kind, Detail: it.Detail, Documentation: it.Documentation}
		if it.Import != "" {
			// Each needs the formatter's isort once: a page holds a few.
			if imports == maxImportItems {
				continue
			}
			imports++
			edits, err := placer.edits(ctx, it.Import, it.Label)
			if err != nil {
				return nil, err
			}
			item.AdditionalEdits = edits
			item.Detail = "from " + it.Import + " import " + it.Label
		}
		res.Items = append(res.Items, item)
	}
	res.IsIncomplete = list.Total > len(res.Items)
	return res, nil
}
