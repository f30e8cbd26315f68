package pyright

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// CompletionCase is one sampled identifier position with pyright's
// completions there (labels only, none of the project's source).
type CompletionCase struct {
	Sample
	// Member: the identifier follows a dot (an attribute).
	Member bool `json:"member,omitempty"`
	// Top5 are pyright's first five labels starting with the identifier's
	// first character (case-insensitively), asked one character into the
	// identifier, in sortText order.
	Top5 []string `json:"top5"`
	// Members, at a member position, are every label pyright offers at
	// the identifier's start (what the receiver's type has).
	Members []string `json:"members,omitempty"`
}

// CompletionGolden is pyright's recorded completions on one project,
// with the same head as TypeGolden.
type CompletionGolden struct {
	Project  string            `json:"project"`
	Package  string            `json:"package"`
	Pyright  string            `json:"pyright"`
	Config   map[string]any    `json:"pyrightConfig"`
	Seed     int64             `json:"seed"`
	Files    map[string]string `json:"files"`
	Cases    []CompletionCase  `json:"cases"`
	Comments []string          `json:"comment,omitempty"`
}

// Write encodes g a file or case a line.
func (g *CompletionGolden) Write(w io.Writer) error {
	return writeRecording(w, recordingHead{g.Project, g.Package, g.Pyright, g.Config, g.Seed, g.Comments, g.Files},
		recordingList{"cases", anySlice(g.Cases)})
}

// TopFive is the first five labels of a ranked list that start with
// prefix, case-insensitively.
func TopFive(labels []string, prefix string) []string {
	var out []string
	for _, l := range labels {
		if len(out) == 5 {
			break
		}
		if len(l) >= len(prefix) && strings.EqualFold(l[:len(prefix)], prefix) {
			out = append(out, l)
		}
	}
	return out
}

// CompletionScore is the comparison's figures: how often the written
// identifier is in each engine's top five, and the mean recall of
// pyright's member lists by pyws's.
type CompletionScore struct {
	Samples           int
	PyrightTop5, Top5 int
	// the same at member positions only
	MemberSamples, MemberPyrightTop5, MemberTop5 int
	MemberLists                                  int
	MemberRecall                                 float64 // summed over MemberLists
	Misses                                       []string
}

// Add scores one case given pyws's ranked labels one character in
// (top5) and at the identifier's start (members; nil unless a member
// position).
func (s *CompletionScore) Add(c CompletionCase, top5, members []string) {
	s.Samples++
	if c.Member {
		s.MemberSamples++
	}
	if slices.Contains(c.Top5, c.Name) {
		s.PyrightTop5++
		if c.Member {
			s.MemberPyrightTop5++
		}
	}
	if slices.Contains(top5, c.Name) {
		s.Top5++
		if c.Member {
			s.MemberTop5++
		}
	} else {
		s.Misses = append(s.Misses, fmt.Sprintf("top5 %s:%d:%d %s: pyws %v, pyright %v", c.Rel, c.Line, c.Char, c.Name, top5, c.Top5))
	}
	if c.Member && len(c.Members) > 0 {
		ours := map[string]bool{}
		for _, m := range members {
			ours[m] = true
		}
		found := 0
		var missing []string
		for _, m := range c.Members {
			if ours[m] {
				found++
			} else if len(missing) < 8 {
				missing = append(missing, m)
			}
		}
		s.MemberLists++
		s.MemberRecall += float64(found) / float64(len(c.Members))
		if found < len(c.Members) {
			s.Misses = append(s.Misses, fmt.Sprintf("members %s:%d:%d %s: %d/%d, missing %v", c.Rel, c.Line, c.Char, c.Name, found, len(c.Members), missing))
		}
	}
}

// Merge adds o's figures to s.
func (s *CompletionScore) Merge(o *CompletionScore) {
	s.Samples += o.Samples
	s.PyrightTop5 += o.PyrightTop5
	s.Top5 += o.Top5
	s.MemberSamples += o.MemberSamples
	s.MemberPyrightTop5 += o.MemberPyrightTop5
	s.MemberTop5 += o.MemberTop5
	s.MemberLists += o.MemberLists
	s.MemberRecall += o.MemberRecall
}

// Figures are the shares: pyws's and pyright's top-five rates and the
// member recall.
func (s *CompletionScore) Figures() (top5, pyrightTop5, recall float64) {
	if s.Samples > 0 {
		top5, pyrightTop5 = float64(s.Top5)/float64(s.Samples), float64(s.PyrightTop5)/float64(s.Samples)
	}
	if s.MemberLists > 0 {
		recall = s.MemberRecall / float64(s.MemberLists)
	}
	return
}

func (s *CompletionScore) String() string {
	top5, py, recall := s.Figures()
	return fmt.Sprintf("top-5 pyws %.1f%% (%d/%d), pyright %.1f%% (%d/%d); at members pyws %d/%d, pyright %d/%d; member recall %.3f over %d lists",
		100*top5, s.Top5, s.Samples, 100*py, s.PyrightTop5, s.Samples, s.MemberTop5, s.MemberSamples, s.MemberPyrightTop5, s.MemberSamples, recall, s.MemberLists)
}
