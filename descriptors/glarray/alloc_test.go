package glarray_test

import (
	"io"
	"log/slog"
	"testing"

	"github.com/steadyframe/steadyframe/descriptors/glarray"
	"github.com/steadyframe/steadyframe/flatlog"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// churnFrame is one steady frame of texture churn: a named sprite created
// through the staging arena, its layer resolved and freed, a glyph page
// created into a class whose other layer is taken, a second Create
// refused (class full, logged) and the page freed. Layers freed frames
// ago are reclaimed inside its BeginFrame.
type churnFrame struct {
	r      *renderer
	sprite []byte
	err    error
}

func (c *churnFrame) run() {
	if c.err != nil {
		return
	}
	r := c.r
	if err := r.begin(); err != nil {
		c.err = err
		return
	}
	h, err := r.tex.Create(0, c.sprite, "sprite")
	if err == nil {
		_, err = r.tex.Layer(h)
	}
	if err == nil {
		err = r.tex.Free(h)
	}
	var page glarray.Handle
	if err == nil {
		page, err = r.tex.Create(1, nil, "page")
	}
	if err == nil {
		if _, refused := r.tex.Create(1, nil, "one too many"); refused == nil {
			c.err = io.ErrUnexpectedEOF // the class was not full
			return
		}
		err = r.tex.Free(page)
	}
	if err == nil {
		err = r.end()
	}
	c.err = err
}

// Texture churn happens in steady frames, so a frame that creates, names,
// resolves and frees layers, and is refused by a full class that logs its
// heap's exhaustion record (through flatlog), must not allocate.
func TestChurnFrameDoesNotAllocate(t *testing.T) {
	testenv.SkipUnderRace(t)
	gltest.Run(t, func(*glctx.Context) error {
		log := slog.New(flatlog.New(io.Discard, flatlog.FormatText, nil))
		// Two glyph layers, one held for the test: frames complete at
		// EndFrame, so the page's layer is back by the next frame start.
		two := glyphs
		two.Layers = 2
		r, err := newRendererWith(frame.ClockDesc{}, true, log, sprites, two)
		if err != nil {
			return err
		}
		held, err := r.tex.Create(1, nil, "held")
		if err != nil {
			return err
		}
		c := &churnFrame{r: r, sprite: pattern(sprites, 1)}
		testenv.NoAllocs(t, "a churn frame on texture arrays", 200, c.run)
		if c.err != nil {
			return c.err
		}
		if st := r.tex.Stats(); st.Staged < 200 {
			t.Errorf("%d staged uploads in 201 frames", st.Staged)
		}
		if err := r.tex.Free(held); err != nil {
			return err
		}
		return r.close()
	})
}

// BenchmarkChurnFrame is churnFrame's cost on real GL (llvmpipe here):
// two Creates, one uploading 1 KiB through the staging arena, one
// refusal and two Frees a frame. Its frames complete at EndFrame (CPU
// fences), as the test's do, so the glyph class is full at the same
// point every frame.
func BenchmarkChurnFrame(b *testing.B) {
	gltest.Run(b, func(*glctx.Context) error {
		two := glyphs
		two.Layers = 2
		r, err := newRendererWith(frame.ClockDesc{}, true, nil, sprites, two)
		if err != nil {
			return err
		}
		held, err := r.tex.Create(1, nil, "held")
		if err != nil {
			return err
		}
		c := &churnFrame{r: r, sprite: pattern(sprites, 1)}
		b.ReportAllocs()
		for b.Loop() {
			c.run()
		}
		if c.err != nil {
			return c.err
		}
		if err := r.tex.Free(held); err != nil {
			return err
		}
		return r.close()
	})
}
