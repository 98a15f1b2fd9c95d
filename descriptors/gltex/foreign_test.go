package gltex_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
)

// TestForeignHandle gives Manager B the handles of Manager A, made
// alike, so each names a live slot of B with the same generation. Texture,
// Bind and Free must refuse them, Bind must bind nothing, and B's own
// textures must stay live.
func TestForeignHandle(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		a, err := newRenderer(false)
		if err != nil {
			return err
		}
		b, err := newRenderer(false)
		if err != nil {
			return err
		}
		var ha, hb []descriptors.Handle
		for i := range 2 {
			h, err := a.tex.Create(2, 2, gltex.FormatRGBA8, solid(2, 2, [4]byte{byte(i), 0, 0, 255}))
			if err != nil {
				return err
			}
			ha = append(ha, h)
			if h, err = b.tex.Create(2, 2, gltex.FormatRGBA8, solid(2, 2, [4]byte{0, byte(i), 0, 255})); err != nil {
				return err
			}
			hb = append(hb, h)
		}
		own, err := b.tex.Texture(hb[1])
		if err != nil {
			return err
		}
		gl.ActiveTexture(gl.TEXTURE3) // bound, not glBindTextureUnit (4.5): the test runs on 4.1 and 3.3 too
		gl.BindTexture(gl.TEXTURE_2D, own)
		gl.ActiveTexture(gl.TEXTURE0)
		for i, h := range ha {
			if h.Index() != hb[i].Index() || h.Generation() != hb[i].Generation() {
				return fmt.Errorf("managers made alike issued %v and %v", h, hb[i])
			}
			if name, err := b.tex.Texture(h); !errors.Is(err, descriptors.ErrInvalidHandle) {
				t.Errorf("B.Texture(A's %v) = %d, %v; want ErrInvalidHandle", h, name, err)
			}
			if err := b.tex.Bind(3, h); !errors.Is(err, descriptors.ErrInvalidHandle) {
				t.Errorf("B.Bind(3, A's %v) = %v; want ErrInvalidHandle", h, err)
			}
			var bound int32
			gl.ActiveTexture(gl.TEXTURE3)
			gl.GetIntegerv(gl.TEXTURE_BINDING_2D, &bound)
			gl.ActiveTexture(gl.TEXTURE0)
			if uint32(bound) != own {
				t.Errorf("after B.Bind(3, A's %v) unit 3 holds texture %d, want B's %d", h, bound, own)
			}
			if err := b.tex.Free(h); !errors.Is(err, descriptors.ErrInvalidHandle) {
				t.Errorf("B.Free(A's %v) = %v; want ErrInvalidHandle", h, err)
			}
		}
		for _, h := range hb {
			if _, err := b.tex.Texture(h); err != nil {
				t.Errorf("B's own %v after the refusals: %v", h, err)
			}
		}
		if st := b.tex.Stats(); st.Heap.Live != 2 || st.Heap.Pending != 0 || st.Deleted != 0 {
			t.Errorf("B after refusing A's handles: %+v; want 2 live textures, none deleted", st)
		}
		for i := range ha {
			if err := a.tex.Free(ha[i]); err != nil {
				return err
			}
			if err := b.tex.Free(hb[i]); err != nil {
				return err
			}
		}
		if err := a.close(); err != nil {
			return err
		}
		return b.close()
	})
}
