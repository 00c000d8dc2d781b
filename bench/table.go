package main

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"
)

// table is one table of the report: a title, a header, rows and the notes
// printed under it. It renders as a Markdown table with padded columns,
// readable in a terminal and in RESULTS.md alike.
type table struct {
	Title string
	Head  []string
	Rows  [][]string
	Notes []string
}

// markdown renders the table: "### title", the padded rows, then each note
// as a line of its own.
func (t table) markdown() string {
	width := make([]int, len(t.Head))
	for _, row := range append([][]string{t.Head}, t.Rows...) {
		for i, cell := range row {
			if i < len(width) {
				width[i] = max(width[i], utf8.RuneCountInString(cell))
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### %s\n\n", t.Title)
	line := func(cells []string) {
		b.WriteString("|")
		for i := range width {
			cell := ""
			if i < len(cells) {
				cell = cells[i]
			}
			b.WriteString(" " + cell + strings.Repeat(" ", width[i]-utf8.RuneCountInString(cell)) + " |")
		}
		b.WriteString("\n")
	}
	line(t.Head)
	sep := make([]string, len(width))
	for i, w := range width {
		sep[i] = strings.Repeat("-", w)
	}
	line(sep)
	for _, row := range t.Rows {
		line(row)
	}
	if len(t.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range t.Notes {
			b.WriteString(n + "\n")
		}
	}
	return b.String()
}

// fmtDur shows a duration with three significant digits in a unit that
// suits it: "45.2 us", "1.23 ms", "2.05 s".
func fmtDur(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%s%d ns", sign, d.Nanoseconds())
	case d < time.Millisecond:
		return sign + sig3(float64(d)/1e3) + " us"
	case d < time.Second:
		return sign + sig3(float64(d)/1e6) + " ms"
	default:
		return sign + sig3(float64(d)/1e9) + " s"
	}
}

// sig3 is x with three significant digits (x >= 1).
func sig3(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	default:
		return fmt.Sprintf("%.2f", x)
	}
}

// fmtRatio shows a ratio as "1.07x", "inf" or "n/a".
func fmtRatio(x float64) string {
	switch {
	case math.IsNaN(x):
		return "n/a"
	case math.IsInf(x, 1):
		return "inf"
	case x >= 100:
		return fmt.Sprintf("%.0fx", x)
	default:
		return fmt.Sprintf("%.2fx", x)
	}
}

// fmtBytes shows a size in bytes, KiB or MiB.
func fmtBytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return sig3(float64(n)/(1<<10)) + " KiB"
	default:
		return sig3(float64(n)/(1<<20)) + " MiB"
	}
}
