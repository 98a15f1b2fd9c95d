package main

import (
	"bufio"
	"fmt"
	"io"
)

// The plot is hand-written SVG: two stacked panels sharing the time axis,
// descriptor occupancy on top (live, pending retirement, high-water mark,
// with the capacity and the 75%/90% warning lines) and upload arena use per
// consumer below (percent of each arena's per-frame capacity). SVG keeps
// the report dependency-free and readable in any browser or README.
const (
	plotW      = 900
	panelH     = 260
	plotLeft   = 70
	plotRight  = 170 // room for the legend
	plotTop    = 40
	panelGap   = 60
	plotBottom = 40
)

var arenaColors = [arenaCount]string{"#d62728", "#2ca02c", "#9467bd"}

type plotPanel struct {
	w        *bufio.Writer
	top      float64
	t0, t1   float64 // seconds
	ymax     float64
	innerW   float64
	innerH   float64
	legendAt int
}

func (p *plotPanel) x(t float64) float64 {
	if p.t1 <= p.t0 {
		return plotLeft
	}
	return plotLeft + (t-p.t0)/(p.t1-p.t0)*p.innerW
}

func (p *plotPanel) y(v float64) float64 {
	if v > p.ymax {
		v = p.ymax
	}
	return p.top + p.innerH - v/p.ymax*p.innerH
}

func (p *plotPanel) frame(title, ylabel string, ticks []float64, tickFmt string) {
	fmt.Fprintf(p.w, `<text x="%d" y="%.0f" font-size="15" font-weight="bold">%s</text>`+"\n", plotLeft, p.top-12, title)
	fmt.Fprintf(p.w, `<rect x="%d" y="%.0f" width="%.0f" height="%.0f" fill="#fafafa" fill-opacity="0.4" stroke="#888"/>`+"\n",
		plotLeft, p.top, p.innerW, p.innerH)
	for _, v := range ticks {
		y := p.y(v)
		fmt.Fprintf(p.w, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e0e0e0"/>`+"\n", plotLeft, y, plotLeft+p.innerW, y)
		fmt.Fprintf(p.w, `<text x="%d" y="%.1f" font-size="11" text-anchor="end">`+tickFmt+`</text>`+"\n", plotLeft-6, y+4, v)
	}
	fmt.Fprintf(p.w, `<text x="16" y="%.0f" font-size="12" transform="rotate(-90 16 %.0f)" text-anchor="middle">%s</text>`+"\n",
		p.top+p.innerH/2, p.top+p.innerH/2, ylabel)
}

func (p *plotPanel) hline(v float64, color, dash, label string) {
	y := p.y(v)
	fmt.Fprintf(p.w, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-dasharray="%s"/>`+"\n",
		plotLeft, y, plotLeft+p.innerW, y, color, dash)
	fmt.Fprintf(p.w, `<text x="%.1f" y="%.1f" font-size="10" fill="%s" text-anchor="end">%s</text>`+"\n",
		plotLeft+p.innerW-4, y-3, color, label)
}

func (p *plotPanel) line(samples []sample, color, label string, value func(s *sample) float64) {
	if len(samples) == 0 {
		return
	}
	fmt.Fprintf(p.w, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="`, color)
	for i := range samples {
		s := &samples[i]
		fmt.Fprintf(p.w, "%.1f,%.1f ", p.x(s.At.Seconds()), p.y(value(s)))
	}
	fmt.Fprint(p.w, `"/>`+"\n")
	ly := p.top + 14 + float64(p.legendAt)*18
	lx := plotLeft + p.innerW + 14
	fmt.Fprintf(p.w, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="%s" stroke-width="3"/>`+"\n", lx, ly-4, lx+18, ly-4, color)
	fmt.Fprintf(p.w, `<text x="%.0f" y="%.0f" font-size="12">%s</text>`+"\n", lx+24, ly, label)
	p.legendAt++
}

// writePlot renders samples as SVG. descCap is the heap's capacity and
// arenaCap each arena's per-frame capacity in bytes; phases are the
// -scenario phases (none without -scenario).
func writePlot(out io.Writer, samples []sample, descCap int, arenaCap [arenaCount]int, phases []scenarioSection) error {
	w := bufio.NewWriter(out)
	height := plotTop + 3*panelH + 2*panelGap + plotBottom
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif">`+"\n", plotW, height)
	fmt.Fprintf(w, `<rect width="%d" height="%d" fill="white"/>`+"\n", plotW, height)
	var t0, t1 float64
	if len(samples) > 0 {
		t0, t1 = samples[0].At.Seconds(), samples[len(samples)-1].At.Seconds()
	}
	innerW := float64(plotW - plotLeft - plotRight)
	innerH := float64(panelH - 30)
	if descCap < 1 {
		descCap = 1
	}
	desc := &plotPanel{w: w, top: plotTop, t0: t0, t1: t1, ymax: float64(descCap), innerW: innerW, innerH: innerH}
	bands(w, desc, phases, plotTop, float64(plotTop+2*(panelH+panelGap))+innerH)
	step := float64(descCap) / 4
	desc.frame(fmt.Sprintf("Descriptor heap occupancy (%d slots)", descCap), "slots",
		[]float64{0, step, 2 * step, 3 * step, float64(descCap)}, "%.0f")
	desc.hline(0.75*float64(descCap), "#e6a000", "6 4", "75% warning")
	desc.hline(0.90*float64(descCap), "#d00000", "6 4", "90% warning")
	desc.line(samples, "#1f77b4", "live", func(s *sample) float64 { return float64(s.Live) })
	desc.line(samples, "#ff7f0e", "pending", func(s *sample) float64 { return float64(s.Pending) })
	desc.line(samples, "#555555", "high-water", func(s *sample) float64 { return float64(s.HighWater) })
	desc.events(samples)
	bandNames(w, desc, phases)

	arena := &plotPanel{w: w, top: plotTop + panelH + panelGap, t0: t0, t1: t1, ymax: 100, innerW: innerW, innerH: innerH}
	arena.frame("Upload arena use per frame (% of per-frame capacity)", "percent", []float64{0, 25, 50, 75, 100}, "%.0f%%")
	for k := 0; k < arenaCount; k++ {
		capk := float64(max(arenaCap[k], 1))
		label := fmt.Sprintf("%s (%d KiB)", arenaNames[k], arenaCap[k]>>10)
		arena.line(samples, arenaColors[k], label, func(s *sample) float64 { return 100 * float64(s.ArenaUsed[k]) / capk })
	}
	ftMax := frameTimeMax(samples)
	ft := &plotPanel{w: w, top: arena.top + panelH + panelGap, t0: t0, t1: t1, ymax: ftMax, innerW: innerW, innerH: innerH}
	ft.frame("Frame time (the slowest frame of each sample; clipped at the top)", "ms", []float64{0, ftMax / 4, ftMax / 2, 3 * ftMax / 4, ftMax}, "%.1f")
	ft.line(samples, "#17becf", "frame time", func(s *sample) float64 { return float64(s.FrameTime.Microseconds()) / 1000 })
	axisY := ft.top + innerH + 18
	for i := 0; i <= 5; i++ {
		t := t0 + (t1-t0)*float64(i)/5
		fmt.Fprintf(w, `<text x="%.1f" y="%.0f" font-size="11" text-anchor="middle">%.1fs</text>`+"\n", ft.x(t), axisY, t)
	}
	fmt.Fprintf(w, `<text x="%.0f" y="%.0f" font-size="12" text-anchor="middle">time since start (%d samples)</text>`+"\n",
		plotLeft+innerW/2, axisY+18, len(samples))
	fmt.Fprint(w, "</svg>\n")
	return w.Flush()
}
