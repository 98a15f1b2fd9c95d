package glbuf_test

import (
	"encoding/binary"
	"fmt"
	"testing"
	"unsafe"

	"github.com/go-gl/gl/v4.5-core/gl"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/glfence"
	"github.com/steadyframe/steadyframe/upload"
	"github.com/steadyframe/steadyframe/upload/glbuf"
)

// The hazard rig draws one row of hazardValues fragments per frame. Each
// fragment reads its value from the frame's arena allocation (an SSBO
// bound at the Alloc offset) and stores it in a result buffer at
// [frame][x]. Fragment shaders run when the driver rasterises, which on
// llvmpipe is when the queued commands are flushed, not when the draw is
// issued, so a CPU that writes a region before the frame that reads it has
// finished changes what the GPU sees.
const (
	hazardFrames = 600
	hazardValues = 64
)

const hazardVertex = `#version 450 core
void main() {
	// One triangle that covers the viewport.
	vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
	gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}`

const hazardFragment = `#version 450 core
layout(std430, binding = 0) readonly buffer Frame { uint vals[]; };
layout(std430, binding = 1) writeonly buffer Result { uint res[]; };
layout(location = 0) uniform uint frameIndex;
layout(location = 0) out vec4 color;
void main() {
	uint x = uint(gl_FragCoord.x);
	res[frameIndex * ` + "64u" + ` + x] = vals[x];
	color = vec4(0.0);
}`

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

func runHazard(mode hazardMode) (hazardResult, error) {
	var res hazardResult
	prog, err := glctx.NewProgram(hazardVertex, hazardFragment)
	if err != nil {
		return res, err
	}
	defer gl.DeleteProgram(prog)
	var vao, tex, fbo, out uint32
	gl.CreateVertexArrays(1, &vao)
	defer gl.DeleteVertexArrays(1, &vao)
	gl.CreateTextures(gl.TEXTURE_2D, 1, &tex)
	defer gl.DeleteTextures(1, &tex)
	gl.TextureStorage2D(tex, 1, gl.RGBA8, hazardValues, 1)
	gl.CreateFramebuffers(1, &fbo)
	defer gl.DeleteFramebuffers(1, &fbo)
	gl.NamedFramebufferTexture(fbo, gl.COLOR_ATTACHMENT0, tex, 0)
	initial := make([]uint32, hazardFrames*hazardValues)
	for i := range initial {
		initial[i] = 0xFFFFFFFF
	}
	gl.CreateBuffers(1, &out)
	defer gl.DeleteBuffers(1, &out)
	gl.NamedBufferStorage(out, len(initial)*4, unsafe.Pointer(&initial[0]), 0)

	gb, err := glbuf.New()
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

	gl.BindFramebuffer(gl.FRAMEBUFFER, fbo)
	defer gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	gl.Viewport(0, 0, hazardValues, 1)
	gl.UseProgram(prog)
	gl.BindVertexArray(vao)
	gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, 1, out)
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
		gl.BindBufferRange(gl.SHADER_STORAGE_BUFFER, 0, gb.Buffer(), off, hazardValues*4)
		gl.ProgramUniform1ui(prog, 0, uint32(frame))
		gl.DrawArrays(gl.TRIANGLES, 0, 3)
		if mode == overwrite {
			// The frame that reuses this region writes its data now,
			// before the submitted frame's fence could have signalled.
			next := frame + set.Stats().InFlight
			for x := 0; x < hazardValues; x++ {
				binary.LittleEndian.PutUint32(view[4*x:], value(next, x))
			}
		}
		if err := clock.EndFrame(); err != nil {
			return res, err
		}
	}
	gl.MemoryBarrier(gl.BUFFER_UPDATE_BARRIER_BIT)
	got := make([]uint32, len(initial))
	gl.GetNamedBufferSubData(out, 0, len(got)*4, unsafe.Pointer(&got[0]))
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
	results := make(map[hazardMode]hazardResult)
	gltest.Run(t, func(c *glctx.Context) error {
		t.Logf("driver: %s", c.Info())
		for _, mode := range []hazardMode{fenced, unfenced, overwrite} {
			r, err := runHazard(mode)
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
