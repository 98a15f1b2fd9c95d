package gltex_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/glcaps"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/internal/testenv"
)

// Three textures leaked on purpose: Close refuses, naming each with its
// slot and creation frame; each GL texture carries its name as its
// KHR_debug label; once freed and drained, Close succeeds.
func TestCloseNamesLeakedTextures(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		r, err := newRenderer(true)
		if err != nil {
			return err
		}
		labels := glcaps.HasDebugLabels()
		if !labels {
			t.Logf("OpenGL %s: no KHR_debug, so no GL labels to check", gl.GoStr(gl.GetString(gl.VERSION)))
		}
		px := solid(4, 4, [4]byte{1, 2, 3, 4})
		var hs []descriptors.Handle
		for _, name := range []string{"hero", "font page 2", "level-3 skybox"} {
			if err := r.begin(); err != nil {
				return err
			}
			h, err := r.tex.CreateNamed(4, 4, gltex.FormatRGBA8, px, name)
			if err != nil {
				return err
			}
			hs = append(hs, h)
			if err := r.end(); err != nil {
				return err
			}
			// A 4.1 or 3.3 context without GL_KHR_debug has no labels to
			// read; the heap's names above and below still hold.
			if !labels {
				continue
			}
			tex, _ := r.tex.Texture(h)
			buf := make([]byte, 64)
			var n int32
			gl.GetObjectLabel(gl.TEXTURE, tex, int32(len(buf)), &n, &buf[0])
			if got := string(buf[:n]); got != name {
				t.Errorf("texture %d's GL label %q, want %q", tex, got, name)
			}
		}
		if err := r.drain(); err != nil {
			return err
		}
		err = r.tex.Close()
		t.Logf("Close with three leaks: %v", err)
		for i, want := range []string{`"hero": slot 0, created in frame 1`, `"font page 2": slot 1, created in frame 2`,
			`"level-3 skybox": slot 2, created in frame 3`} {
			if !errors.Is(err, descriptors.ErrInUse) || !strings.Contains(err.Error(), want) {
				t.Errorf("leak %d: Close returned %v, want ErrInUse listing %q", i, err, want)
			}
		}
		if err := r.begin(); err != nil {
			return err
		}
		if err := r.tex.Heap().FreeN(hs); err != nil {
			return err
		}
		if err := r.end(); err != nil {
			return err
		}
		return r.close()
	})
}

// A named texture created and freed in a steady frame allocates nothing,
// its label included.
func TestCreateNamedDoesNotAllocate(t *testing.T) {
	testenv.SkipUnderRace(t)
	gltest.Run(t, func(*glctx.Context) error {
		r, err := newRenderer(true)
		if err != nil {
			return err
		}
		px := solid(8, 8, [4]byte{9, 8, 7, 6})
		var failed error
		testenv.NoAllocs(t, "a frame with CreateNamed and Free", 100, func() {
			if err := r.begin(); err != nil {
				failed = err
				return
			}
			h, err := r.tex.CreateNamed(8, 8, gltex.FormatRGBA8, px, "sprite")
			if err == nil {
				err = r.tex.Free(h)
			}
			if err == nil {
				err = r.end()
			}
			if err != nil && failed == nil {
				failed = err
			}
		})
		if failed != nil {
			return failed
		}
		return r.close()
	})
}
