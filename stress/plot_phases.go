package main

import (
	"bufio"
	"fmt"
	"math"
	"slices"
)

// The plot's -scenario additions: each phase as a shaded band across
// every panel, named on the top one with its verdict; a mark on the
// occupancy panel where a heap warning fired and one where a refusal (heap
// or arena) was counted; and a third panel, frame time.

// phaseColors shade the bands, one per scenario name.
var phaseColors = map[string]string{
	"steady": "#f2f2f2", "leak": "#fde0dd", "voice-storm": "#e0ecf4", "upload-flood": "#e5f5e0", "churn-storm": "#fff7bc",
}

// bands shades each phase's span from top to bottom, behind the panels'
// lines (the panels' frames are drawn first, with a transparent fill).
func bands(w *bufio.Writer, p *plotPanel, phases []scenarioSection, top, bottom float64) {
	for _, s := range phases {
		if s.End <= s.Start {
			continue
		}
		x0, x1 := p.x(s.Start), p.x(s.End)
		c := phaseColors[s.Name]
		if c == "" {
			c = "#eeeeee"
		}
		fmt.Fprintf(w, `<rect x="%.1f" y="%.0f" width="%.1f" height="%.0f" fill="%s" opacity="0.7"/>`+"\n", x0, top, x1-x0, bottom-top, c)
	}
}

// bandNames names each non-steady phase, with its verdict, inside the
// top panel over its lines, on alternate rows so that short phases close
// together do not overlap.
func bandNames(w *bufio.Writer, p *plotPanel, phases []scenarioSection) {
	named := 0
	for _, s := range phases {
		if s.End <= s.Start || s.Name == "steady" {
			continue
		}
		mark := "✓"
		if !s.Passed {
			mark = "✗"
		}
		fmt.Fprintf(w, `<text x="%.1f" y="%.0f" font-size="11" text-anchor="middle" stroke="white" stroke-width="3" paint-order="stroke">%s %s</text>`+"\n",
			(p.x(s.Start)+p.x(s.End))/2, p.top+14+float64(named%2*13), s.Name, mark)
		named++
	}
}

// events marks where the cumulative warning and refusal counts rose.
func (p *plotPanel) events(samples []sample) {
	var warned, refused uint64
	for i := range samples {
		s := &samples[i]
		x := p.x(s.At.Seconds())
		if i > 0 && s.Warnings > warned {
			fmt.Fprintf(p.w, `<path d="M%.1f %.0f l-5 -9 h10 z" fill="#e6a000"><title>%d occupancy warnings</title></path>`+"\n",
				x, p.top+10, s.Warnings)
		}
		if i > 0 && s.Refusals > refused {
			fmt.Fprintf(p.w, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#d00000" stroke-width="2"><title>%d refusals</title></line>`+"\n",
				x, p.top+p.innerH-10, x, p.top+p.innerH, s.Refusals)
		}
		warned, refused = s.Warnings, s.Refusals
	}
	p.legend("#e6a000", "warning fired")
	p.legend("#d00000", "refusals counted")
}

// legend adds a legend entry without a line.
func (p *plotPanel) legend(color, label string) {
	ly := p.top + 14 + float64(p.legendAt)*18
	lx := plotLeft + p.innerW + 14
	fmt.Fprintf(p.w, `<rect x="%.0f" y="%.0f" width="18" height="6" fill="%s"/>`+"\n", lx, ly-7, color)
	fmt.Fprintf(p.w, `<text x="%.0f" y="%.0f" font-size="12">%s</text>`+"\n", lx+24, ly, label)
	p.legendAt++
}

// frameTimeMax is the frame-time panel's ceiling in milliseconds: half
// as much again as the 99th percentile of the sampled frames, rounded up
// to a multiple of 5, so that one stall does not flatten the rest; frames
// above it are drawn at the ceiling.
func frameTimeMax(samples []sample) float64 {
	v := make([]float64, len(samples))
	for i := range samples {
		v[i] = float64(samples[i].FrameTime.Microseconds()) / 1000
	}
	slices.Sort(v)
	m := 5.0
	if len(v) > 0 {
		m = max(m, 1.5*v[len(v)*99/100])
	}
	return math.Ceil(m/5) * 5
}
