// Package tiers is the one table of the spec's Limits section: per tier,
// the request budgets of each operation family and the size and count caps.
// Zero means unlimited everywhere in this package, which is how the
// Enterprise column reads. Nothing else in pyws spells a limit number.
package tiers

import (
	"fmt"
	"strings"
)

// Tier names a pricing tier.
type Tier string

const (
	Free       Tier = "free"
	Hobby      Tier = "hobby"
	Pro        Tier = "pro"
	Enterprise Tier = "enterprise"
)

// All lists the tiers from smallest to largest.
var All = []Tier{Free, Hobby, Pro, Enterprise}

// Parse accepts a tier name in any letter case.
func Parse(s string) (Tier, error) {
	t := Tier(strings.ToLower(strings.TrimSpace(s)))
	for _, known := range All {
		if t == known {
			return t, nil
		}
	}
	return "", fmt.Errorf("tier %q invalid: want one of free, hobby, pro, enterprise", s)
}

// Family groups operations that share one request budget.
type Family string

const (
	FamilyRename      Family = "rename"     // rename_symbol
	FamilyReferences  Family = "references" // get_references
	FamilyEdit        Family = "edit"       // apply_workspace_edit
	FamilyAnalysis    Family = "analysis"   // get_definition, get_type_definition, get_diagnostics, get_hover, get_code_actions
	FamilyFormat      Family = "format"     // format_document
	FamilyStructure   Family = "structure"  // workspace structure
	FamilyReadFile    Family = "read_file"  // read file
	FamilyListFiles   Family = "list_files" // list files
	FamilyHealthCheck Family = "health"     // never rate limited
)

// Budget is a request allowance in two windows; 0 means no limit in that
// window.
type Budget struct {
	PerHour int
	PerDay  int
}

// Unlimited reports whether the budget never refuses.
func (b Budget) Unlimited() bool { return b.PerHour == 0 && b.PerDay == 0 }

// Limits are one tier's column of the table.
type Limits struct {
	Budgets           map[Family]Budget
	MaxReferences     int   // get_references results
	MaxFilesPerEdit   int   // apply_workspace_edit
	MaxEditsPerFile   int   // apply_workspace_edit
	MaxFormatBytes    int64 // format_document file size
	MaxStructureDepth int   // workspace structure depth cap
	MaxReadFileBytes  int64 // read file size
	// MaxRequestBytes bounds a request body. The spec sets no number; twice
	// the largest file the tier may read leaves room for a whole-file
	// replacement in apply_workspace_edit with its JSON escaping.
	MaxRequestBytes int64
}

// The spec writes "100 KB" and "1 MB"; pyws reads them as binary units
// (KiB, MiB), the more generous reading and the one file tools display.
const (
	kb = 1024
	mb = 1024 * kb
)

var table = withRequestCaps(map[Tier]Limits{
	Free: {
		Budgets: map[Family]Budget{
			FamilyRename:     {5, 25},
			FamilyReferences: {10, 50},
			FamilyEdit:       {10, 50},
			FamilyAnalysis:   {20, 100},
			FamilyFormat:     {20, 100},
			FamilyStructure:  {0, 50},
			FamilyReadFile:   {0, 100},
			FamilyListFiles:  {20, 100},
		},
		MaxReferences: 100, MaxFilesPerEdit: 5, MaxEditsPerFile: 100,
		MaxFormatBytes: 100 * kb, MaxStructureDepth: 5, MaxReadFileBytes: 1 * mb,
	},
	Hobby: {
		Budgets: map[Family]Budget{
			FamilyRename:     {100, 1000},
			FamilyReferences: {250, 2500},
			FamilyEdit:       {250, 2500},
			FamilyAnalysis:   {500, 5000},
			FamilyFormat:     {500, 5000},
			FamilyStructure:  {0, 1000},
			FamilyReadFile:   {0, 5000},
			FamilyListFiles:  {500, 5000},
		},
		MaxReferences: 1000, MaxFilesPerEdit: 20, MaxEditsPerFile: 500,
		MaxFormatBytes: 500 * kb, MaxStructureDepth: 10, MaxReadFileBytes: 5 * mb,
	},
	Pro: {
		Budgets: map[Family]Budget{
			FamilyRename:     {1000, 10000},
			FamilyReferences: {2500, 25000},
			FamilyEdit:       {2500, 25000},
			FamilyAnalysis:   {5000, 50000},
			FamilyFormat:     {5000, 50000},
			FamilyStructure:  {0, 10000},
			FamilyReadFile:   {0, 50000},
			FamilyListFiles:  {5000, 50000},
		},
		MaxReferences: 10000, MaxFilesPerEdit: 100, MaxEditsPerFile: 5000,
		MaxFormatBytes: 1 * mb, MaxStructureDepth: 20, MaxReadFileBytes: 10 * mb,
	},
	Enterprise: {
		Budgets:        map[Family]Budget{},
		MaxFormatBytes: 10 * mb, MaxReadFileBytes: 50 * mb,
	},
})

func withRequestCaps(t map[Tier]Limits) map[Tier]Limits {
	for tier, l := range t {
		l.MaxRequestBytes = 2 * l.MaxReadFileBytes
		t[tier] = l
	}
	return t
}

// For returns the limits of tier t; an unknown tier gets Free's, the
// safest choice.
func For(t Tier) Limits {
	if l, ok := table[t]; ok {
		return l
	}
	return table[Free]
}

// Budget returns t's budget for family f (zero when unlimited).
func (l Limits) Budget(f Family) Budget { return l.Budgets[f] }
