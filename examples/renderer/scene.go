package main

import (
	"bytes"
	"fmt"
	"math"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/upload"
)

const (
	quadCount   = 8  // textures on screen, one quad each
	maxTexSize  = 24 // texels a side of the largest texture (makeTexture)
	churnEvery  = 15 // frames between texture replacements
	levelEvery  = 50 // frames between level loads
	vertexBytes = 16 // two float32 of position, two of texture coordinates
)

// quad is one texture on screen and the pixels it was made from, which
// -verify compares with what GL holds. Every texture the quad shows is
// made in the same buffer, of capacity for the largest.
type quad struct {
	h      descriptors.Handle
	pixels []byte
}

// scene is what the example draws: quadCount textured quads whose
// vertices are written into an upload arena every frame, textures that are
// replaced now and then, and a per-level tint in a level buffer.
type scene struct {
	tex    *gltex.Manager
	verts  *upload.Arena // this frame's vertices, in the Set's GL buffer
	vbuf   uint32        // that buffer, bound at the arena's offset
	pipe   pipeline
	levels *levels
	quads  [quadCount]quad
	made   int // textures made so far: each gets its own pattern
}

// update is the frame's resource work: the first frame makes every
// texture and loads the first level, later frames replace one texture
// every churnEvery frames and load a level every levelEvery frames.
func (s *scene) update(f int) error {
	if f%levelEvery == 0 {
		if err := s.levels.load(f / levelEvery); err != nil {
			return err
		}
	}
	if f == 0 {
		for i := range s.quads {
			if err := s.makeTexture(i); err != nil {
				return err
			}
		}
		return nil
	}
	if f%churnEvery != 0 {
		return nil
	}
	i := (f / churnEvery) % quadCount
	// The handle is invalid from here on; the GL texture is deleted once
	// the clock reports this frame complete, since frames in flight may
	// still sample it.
	if err := s.tex.Free(s.quads[i].h); err != nil {
		return err
	}
	return s.makeTexture(i)
}

// makeTexture creates quad i's texture inside the open frame, so gltex
// copies the pixels into the staging arena and GL reads them from there
// (a pixel unpack buffer) rather than from Go memory. Create copies them
// before it returns, so the next texture of the quad reuses its buffer:
// replacing a texture allocates nothing.
func (s *scene) makeTexture(i int) error {
	size := 8 + 4*(s.made%5) // 8 to maxTexSize texels a side
	q := &s.quads[i]
	if q.pixels == nil { // the first frame
		q.pixels = make([]byte, maxTexSize*maxTexSize*4)
	}
	px := q.pixels[:size*size*4]
	pattern(px, size, s.made)
	h, err := s.tex.Create(size, size, gltex.FormatRGBA8, px)
	if err != nil {
		return fmt.Errorf("texture %d: %w", s.made, err)
	}
	q.h, q.pixels = h, px
	s.made++
	return nil
}

// pattern fills px, size × size RGBA8 texels, with a checkerboard of two
// colours that depend on seed and a gradient so every row and column
// differs.
func pattern(px []byte, size, seed int) {
	for y := range size {
		for x := range size {
			o, c := (y*size+x)*4, byte(seed*53)
			if (x/4+y/4)%2 == 1 {
				c = ^c
			}
			px[o], px[o+1], px[o+2], px[o+3] = c+byte(x*5), byte(seed*97)+byte(y*5), c^0x80, 255
		}
	}
}

// draw writes this frame's vertices into the vertex arena and draws one
// quad per texture. The arena's view is valid for this frame only; the
// GPU reads it until the frame's fence, and the clock does not hand the
// region out again before that fence has signalled.
func (s *scene) draw(f, width, height int) error {
	off, view, err := s.verts.Alloc(quadCount*4*vertexBytes, vertexBytes)
	if err != nil {
		// A bare sentinel; the arena keeps the detail. Wrapping it
		// allocates, which only this run-ending path does.
		return fmt.Errorf("%w (%v)", err, s.verts.LastRefusal())
	}
	// GL reads native float32: write them in place through the mapping.
	v := unsafe.Slice((*float32)(unsafe.Pointer(&view[0])), len(view)/4)
	for i := range s.quads {
		cx := -0.75 + 0.5*float32(i%4)
		cy := 0.45 - 0.9*float32(i/4) + 0.05*float32(math.Sin(float64(f)/20+float64(i)))
		for k, c := range [4][2]float32{{0, 0}, {1, 0}, {0, 1}, {1, 1}} { // a triangle strip
			o := (i*4 + k) * 4
			v[o], v[o+1], v[o+2], v[o+3] = cx+0.4*(c[0]-0.5), cy+0.6*(c[1]-0.5), c[0], 1-c[1]
		}
	}
	// Where the GL context has no persistent mapping (OpenGL 4.1 on
	// macOS, 3.3), Flush carries the vertices into the buffer; elsewhere
	// it costs a comparison. Either way it comes before the draws.
	if err := s.verts.Flush(); err != nil {
		return err
	}
	gl.Viewport(0, 0, int32(width), int32(height))
	gl.ClearColor(0.08, 0.09, 0.12, 1)
	gl.Clear(gl.COLOR_BUFFER_BIT)
	gl.UseProgram(s.pipe.program)
	gl.BindVertexArray(s.pipe.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, s.vbuf)
	gl.VertexAttribPointerWithOffset(0, 2, gl.FLOAT, false, vertexBytes, uintptr(off))
	gl.VertexAttribPointerWithOffset(1, 2, gl.FLOAT, false, vertexBytes, uintptr(off+8))
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	gl.BindBufferBase(gl.UNIFORM_BUFFER, 0, s.levels.buffer())
	for i, q := range s.quads {
		// No bindless textures: the shader reaches the slot through unit 0.
		if err := s.tex.Bind(0, q.h); err != nil {
			return err
		}
		gl.DrawArrays(gl.TRIANGLE_STRIP, int32(i*4), 4)
	}
	return nil
}

// free frees every texture and hands the level buffer in use to the
// Deferred: the first teardown stage of the scene. The clock's drain then
// deletes the textures and returns the buffer to the free list.
func (s *scene) free() error {
	for _, q := range s.quads {
		if err := s.tex.Free(q.h); err != nil {
			return err
		}
	}
	return s.levels.retire()
}

// verify reads every live texture back with glGetTexImage (bound, so it
// runs on 4.1 too) and compares it with the pixels it was made from.
func (s *scene) verify() (textures, mismatches int) {
	for _, q := range s.quads {
		textures++
		name, err := s.tex.Texture(q.h)
		got := make([]byte, len(q.pixels))
		if err == nil {
			gl.BindTexture(gl.TEXTURE_2D, name)
			gl.GetTexImage(gl.TEXTURE_2D, 0, gl.RGBA, gl.UNSIGNED_BYTE, unsafe.Pointer(&got[0]))
			gl.BindTexture(gl.TEXTURE_2D, 0)
		}
		if err != nil || !bytes.Equal(got, q.pixels) {
			mismatches++
		}
	}
	return textures, mismatches
}
