package glarray_test

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/glarray"
	"github.com/steadyframe/steadyframe/flatlog"
	"github.com/steadyframe/steadyframe/glcaps"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// Three textures leaked on purpose, among two that were freed: Close
// refuses, changing nothing, and names each leak with its layer, class
// and the frame it was created in; once they are freed and the frames
// drained, Close succeeds.
func TestCloseNamesLeakedTextures(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		r, err := newRenderer()
		if err != nil {
			return err
		}
		made := map[string]glarray.Handle{}
		for f, names := range [][]string{{"hero", "freed 1"}, {"font page 2"}, {"freed 2", "level-3 skybox"}} {
			if err := r.begin(); err != nil {
				return err
			}
			for _, name := range names {
				c := 0
				if name == "font page 2" {
					c = 1
				}
				if made[name], err = r.tex.Create(c, pattern(r.tex.Class(c), f), name); err != nil {
					return err
				}
			}
			if err := r.end(); err != nil {
				return err
			}
		}
		if err := r.begin(); err != nil {
			return err
		}
		for _, name := range []string{"freed 1", "freed 2"} {
			if err := r.tex.Free(made[name]); err != nil {
				return err
			}
		}
		if err := r.end(); err != nil {
			return err
		}
		if err := r.clock.Drain(); err != nil {
			return err
		}
		err = r.tex.Close()
		t.Logf("Close with three leaks: %v", err)
		if !errors.Is(err, descriptors.ErrInUse) {
			t.Fatalf("Close with three live textures: %v, want ErrInUse", err)
		}
		msg := err.Error()
		for _, want := range []string{
			"Close with 3 live texture(s)",
			`"hero": layer 0 of class "16x16 rgba8", created in frame 1`,
			`"font page 2": layer 0 of class "glyphs", created in frame 2`,
			`"level-3 skybox": layer 3 of class "16x16 rgba8", created in frame 3`,
		} {
			if !strings.Contains(msg, want) {
				t.Errorf("leak report lacks %q:\n%s", want, msg)
			}
		}
		if strings.Contains(msg, "freed") {
			t.Errorf("leak report names a freed texture:\n%s", msg)
		}
		live := r.tex.AppendLive(nil)
		if len(live) != 3 || live[0].Name != "hero" || live[1].Name != "level-3 skybox" || live[2].Name != "font page 2" {
			t.Errorf("AppendLive after the refused Close: %v", live)
		}
		if err := r.begin(); err != nil {
			return err
		}
		for _, l := range live {
			if err := r.tex.Free(l.Handle); err != nil {
				return err
			}
		}
		if err := r.end(); err != nil {
			return err
		}
		if err := r.tex.Close(); !errors.Is(err, descriptors.ErrInUse) || !strings.Contains(err.Error(), "3 freed layer(s) waiting") {
			t.Errorf("Close with 3 layers pending: %v", err)
		}
		return r.close()
	})
}

// A full class's heap logs one exhaustion record naming its three
// oldest live textures by creation frame (layer order among equals), not
// one per refusal.
func TestClassFullRecordNamesTheOldest(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		var out bytes.Buffer
		log := slog.New(flatlog.New(&out, flatlog.FormatText, nil))
		four := glarray.Class{Name: "four", Width: 4, Height: 4, Format: sprites.Format, Layers: 4}
		r, err := newRendererWith(frame.ClockDesc{}, false, log, four)
		if err != nil {
			return err
		}
		step := func(f func() error) error {
			if err := r.begin(); err != nil {
				return err
			}
			if err := f(); err != nil {
				return err
			}
			return r.end()
		}
		var hs []glarray.Handle
		if err := step(func() error {
			for _, name := range []string{"w", "x", "y", "z"} {
				h, err := r.tex.Create(0, nil, name)
				if err != nil {
					return err
				}
				hs = append(hs, h)
			}
			return nil
		}); err != nil {
			return err
		}
		if err := step(func() error { return errors.Join(r.tex.Free(hs[0]), r.tex.Free(hs[1])) }); err != nil {
			return err
		}
		refuse := func() error {
			if _, err := r.tex.Create(0, nil, "refused"); err != descriptors.ErrHeapExhausted {
				t.Errorf("Create in a full class: %v, want the bare ErrHeapExhausted", err)
			}
			if last := r.tex.Heap(0).LastRefusal().String(); !strings.Contains(last, `"textures/four"`) {
				t.Errorf("the class heap's LastRefusal %q does not name the class", last)
			}
			return nil
		}
		if err := step(func() error {
			for _, name := range []string{"new1", "new2"} {
				if _, err := r.tex.Create(0, nil, name); err != nil {
					return err
				}
			}
			_ = refuse()
			return refuse()
		}); err != nil {
			return err
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		t.Logf("log:\n%s", out.String())
		var full []string
		for _, l := range lines {
			if strings.Contains(l, "descriptors: heap exhausted") {
				full = append(full, l)
			}
		}
		// y and z are from frame 1; new2 took layer 0 (LIFO: x's layer 1
		// went to new1), both in frame 3.
		want := `heap=textures/four capacity=4 live=4 oldest_frame=1 oldest_1=y oldest_2=z oldest_3=new2`
		if len(full) != 1 || !strings.Contains(full[0], want) {
			t.Errorf("exhaustion records %q, want one holding %q", full, want)
		}
		live := r.tex.AppendLive(nil)
		if err := step(func() error {
			for _, l := range live {
				if err := r.tex.Free(l.Handle); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return err
		}
		return r.close()
	})
}

// Where the context has KHR_debug (4.3 and up, so every context New
// accepts without the extension list), each array carries a GL label
// with its heap's name.
func TestArraysCarryGLLabels(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		r, err := newRenderer()
		if err != nil {
			return err
		}
		if !glcaps.HasDebugLabels() {
			// 4.1 and 3.3 without GL_KHR_debug: nothing is labelled.
			t.Logf("OpenGL %s: no KHR_debug, so no GL labels to check", gl.GoStr(gl.GetString(gl.VERSION)))
			return r.close()
		}
		for i, want := range []string{"glarray textures/16x16 rgba8", "glarray textures/glyphs"} {
			buf := make([]byte, 64)
			var n int32
			gl.GetObjectLabel(gl.TEXTURE, r.tex.Texture(i), int32(len(buf)), &n, &buf[0])
			if got := string(buf[:n]); got != want {
				t.Errorf("array %d label %q, want %q", i, got, want)
			}
		}
		return r.close()
	})
}
