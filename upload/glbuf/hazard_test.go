package glbuf_test

import (
	"encoding/binary"
	"fmt"
	"testing"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/glfence"
	"github.com/steadyframe/steadyframe/upload"
	"github.com/steadyframe/steadyframe/upload/glbuf"
)

// The hazard rig draws one row of hazardValues fragments per frame. Each
// fragment reads its value from the frame's arena allocation and writes
// it into row frame of an unsigned-integer colour target. It reads the
// upload buffer as a buffer texture (texelFetch from the Alloc offset,
// passed as a uniform): fragment shaders run when the driver rasterises,
// which on llvmpipe is when the queued commands are flushed, not when the
// draw is issued, and a buffer texture is read from the buffer's memory
// then, so a CPU that writes a region before the frame that reads it has
// finished changes what the GPU sees. (A uniform block would not show it:
// llvmpipe copies a draw's uniform blocks when the draw is issued.) It
// needs only OpenGL 3.3, so it runs on every context the backend
// supports, in each of its modes.
const (
	hazardFrames = 600
	hazardValues = 64
)

const hazardVertex = `#version 330 core
void main() {
	// One triangle that covers the viewport.
	vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
	gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}`

const hazardFragment = `#version 330 core
uniform usamplerBuffer vals;
uniform int base;
out uint res;
void main() {
	res = texelFetch(vals, base + int(gl_FragCoord.x)).r;
}`

// hazardTarget is the rig's program, vertex array and a hazardValues ×
// rows R32UI framebuffer, filled with 0xFFFFFFFF, bound for drawing, and
// the buffer texture over the buffer draw reads.
type hazardTarget struct {
	prog, vao, tex, fbo, tbo uint32
	buf                      uint32 // the buffer tbo shows
	base                     int32  // location of the uniform base
}

func newHazardTarget(rows int) (*hazardTarget, error) {
	prog, err := glctx.NewProgram(hazardVertex, hazardFragment)
	if err != nil {
		return nil, err
	}
	h := &hazardTarget{prog: prog}
	gl.GenVertexArrays(1, &h.vao)
	gl.GenTextures(1, &h.tbo)
	h.base = gl.GetUniformLocation(prog, gl.Str("base\x00"))
	gl.GenTextures(1, &h.tex)
	gl.BindTexture(gl.TEXTURE_2D, h.tex)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAX_LEVEL, 0)
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.R32UI, hazardValues, int32(rows), 0, gl.RED_INTEGER, gl.UNSIGNED_INT, nil)
	gl.BindTexture(gl.TEXTURE_2D, 0)
	gl.GenFramebuffers(1, &h.fbo)
	gl.BindFramebuffer(gl.FRAMEBUFFER, h.fbo)
	gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, h.tex, 0)
	if st := gl.CheckFramebufferStatus(gl.FRAMEBUFFER); st != gl.FRAMEBUFFER_COMPLETE {
		h.close()
		return nil, fmt.Errorf("R32UI framebuffer incomplete: 0x%x", st)
	}
	fill := [4]uint32{0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}
	gl.ClearBufferuiv(gl.COLOR, 0, &fill[0])
	gl.UseProgram(prog)
	gl.Uniform1i(gl.GetUniformLocation(prog, gl.Str("vals\x00")), 0)
	gl.BindVertexArray(h.vao)
	return h, nil
}

// draw draws row row from the hazardValues uint32 at buf's offset off, a
// multiple of 4.
func (h *hazardTarget) draw(buf uint32, off, row int) {
	if buf != h.buf {
		// glTexBufferRange would need 4.3: the whole buffer is shown
		// and the offset is a uniform.
		gl.ActiveTexture(gl.TEXTURE0)
		gl.BindTexture(gl.TEXTURE_BUFFER, h.tbo)
		gl.TexBuffer(gl.TEXTURE_BUFFER, gl.R32UI, buf)
		h.buf = buf
	}
	gl.Uniform1i(h.base, int32(off/4))
	gl.Viewport(0, int32(row), hazardValues, 1)
	gl.DrawArrays(gl.TRIANGLES, 0, 3)
}

// read returns the target's values, row-major.
func (h *hazardTarget) read(rows int) []uint32 {
	got := make([]uint32, rows*hazardValues)
	gl.ReadPixels(0, 0, hazardValues, int32(rows), gl.RED_INTEGER, gl.UNSIGNED_INT, unsafe.Pointer(&got[0]))
	return got
}

func (h *hazardTarget) close() {
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	gl.DeleteFramebuffers(1, &h.fbo)
	gl.BindTexture(gl.TEXTURE_BUFFER, 0)
	gl.DeleteTextures(1, &h.tbo)
	gl.DeleteTextures(1, &h.tex)
	gl.DeleteVertexArrays(1, &h.vao)
	gl.DeleteProgram(h.prog)
}

// hazardMode says what the CPU does about fences.
type hazardMode int

const (
	// fenced: the Set's GL fences gate every region's reuse.
	fenced hazardMode = iota
	// unfenced: fences disabled (they complete at once), so the CPU
	// rewrites a region InFlight frames later whether or not the GPU has
	// read it.
	unfenced
	// overwrite: fences disabled and, right after submitting a frame, the
	// CPU writes the next use's data into the region it just submitted:
	// the hazard made deterministic, since nothing has flushed yet.
	overwrite
)

func (m hazardMode) String() string { return [...]string{"fenced", "unfenced", "overwrite"}[m] }

type hazardResult struct {
	frames, mismatched, wrongValues int
	firstBad                        string
}

func value(frame, x int) uint32 { return uint32(frame)<<16 | uint32(x) }

func runHazard(mode hazardMode, bm glbuf.Mode) (hazardResult, error) {
	var res hazardResult
	target, err := newHazardTarget(hazardFrames)
	if err != nil {
		return res, err
	}
	defer target.close()

	gb, err := glbuf.NewWithMode(bm)
	if err != nil {
		return res, err
	}
	// Fencing disabled is a clock of CPU fences: they complete the moment
	// they are signalled, whatever the GPU is doing.
	var cd frame.ClockDesc
	if mode == fenced {
		cd.NewFence = glfence.New
	}
	clock, err := frame.NewClock(cd)
	if err != nil {
		return res, err
	}
	set, err := upload.NewSet(upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "hazard", Size: 4096}}, Backend: gb, Clock: clock})
	if err != nil {
		_ = clock.Close()
		return res, err
	}
	defer func() {
		_ = clock.Drain()
		_ = set.Close()
		_ = clock.Close()
	}()
	arena := set.Arena(0)

	for frame := 0; frame < hazardFrames; frame++ {
		if _, err := clock.BeginFrame(); err != nil {
			return res, err
		}
		off, view, err := arena.Alloc(hazardValues*4, gb.Alignment())
		if err != nil {
			return res, err
		}
		for x := 0; x < hazardValues; x++ {
			binary.LittleEndian.PutUint32(view[4*x:], value(frame, x))
		}
		if err := arena.Flush(); err != nil {
			return res, err
		}
		target.draw(gb.Buffer(), off, frame)
		if mode == overwrite {
			// The frame that reuses this region writes its data now,
			// before the submitted frame's fence could have signalled.
			// In ModeMapRange the write reaches the buffer through the
			// backend's unsynchronized Flush, as that frame's would.
			next := frame + set.Stats().InFlight
			for x := 0; x < hazardValues; x++ {
				binary.LittleEndian.PutUint32(view[4*x:], value(next, x))
			}
			if err := gb.Flush(off, len(view)); err != nil {
				return res, err
			}
		}
		if err := clock.EndFrame(); err != nil {
			return res, err
		}
	}
	got := target.read(hazardFrames)
	if e := gl.GetError(); e != gl.NO_ERROR {
		return res, fmt.Errorf("GL error 0x%x", e)
	}
	res.frames = hazardFrames
	for frame := 0; frame < hazardFrames; frame++ {
		bad := 0
		for x := 0; x < hazardValues; x++ {
			if g := got[frame*hazardValues+x]; g != value(frame, x) {
				bad++
				if res.firstBad == "" {
					res.firstBad = fmt.Sprintf("frame %d value %d: GPU saw frame %d's 0x%08x, CPU wrote 0x%08x for this frame",
						frame, x, g>>16, g, value(frame, x))
				}
			}
		}
		if bad > 0 {
			res.mismatched++
			res.wrongValues += bad
		}
	}
	return res, nil
}

// TestFencesGateRegionReuse proves the fences are load-bearing: with them
// the GPU sees, in every one of 600 frames, exactly the values the CPU
// wrote for that frame; with them disabled it sees later frames' data.
func TestFencesGateRegionReuse(t *testing.T) {
	for _, bm := range modes(t) {
		t.Run(bm.String(), func(t *testing.T) { testFencesGateRegionReuse(t, bm) })
	}
}

func testFencesGateRegionReuse(t *testing.T, bm glbuf.Mode) {
	results := make(map[hazardMode]hazardResult)
	gltest.Run(t, func(c *glctx.Context) error {
		t.Logf("driver: %s", c.Info())
		for _, mode := range []hazardMode{fenced, unfenced, overwrite} {
			r, err := runHazard(mode, bm)
			if err != nil {
				return fmt.Errorf("%v: %w", mode, err)
			}
			results[mode] = r
		}
		return nil
	})
	for _, mode := range []hazardMode{fenced, unfenced, overwrite} {
		r := results[mode]
		t.Logf("%-9s frames checked %d, frames with mismatches %d, wrong values %d of %d",
			mode, r.frames, r.mismatched, r.wrongValues, r.frames*hazardValues)
		if r.firstBad != "" {
			t.Logf("%-9s first mismatch: %s", mode, r.firstBad)
		}
	}
	if r := results[fenced]; r.frames != hazardFrames || r.mismatched != 0 {
		t.Errorf("fenced: %d of %d frames saw values not written for them", r.mismatched, r.frames)
	}
	// The negative control: without fences the CPU's later writes reach
	// the GPU. If this ever passes clean, the rig no longer detects the
	// hazard and the fenced result above proves nothing.
	if r := results[overwrite]; r.mismatched != r.frames {
		t.Errorf("overwrite control: only %d of %d frames showed the overwrite; the rig cannot see the hazard", r.mismatched, r.frames)
	}
	if r := results[unfenced]; r.mismatched == 0 {
		t.Errorf("unfenced control: no mismatches in %d frames; the rig cannot see the hazard", r.frames)
	}
}
