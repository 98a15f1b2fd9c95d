package glarray_test

import (
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/glcaps"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
)

// New takes the DSA path exactly where the context has direct state
// access and immutable storage, and the bind-to-edit path elsewhere (4.1,
// 3.3). The bind-to-edit path leaves no array bound after New and Create;
// Bind binds the class's array on its unit.
func TestNewPicksThePath(t *testing.T) {
	gltest.Run(t, func(c *glctx.Context) error {
		want := glcaps.Has(glcaps.FeatureDirectStateAccess) && glcaps.Has(glcaps.FeatureTextureStorage)
		r, err := newRenderer()
		if err != nil {
			return err
		}
		how := "arrays bound to edit"
		if r.tex.DirectStateAccess() {
			how = "DSA arrays"
		}
		t.Logf("%s: New picked %s", c.Info().Version, how)
		if r.tex.DirectStateAccess() != want {
			t.Errorf("DirectStateAccess() = %v on %s, want %v", r.tex.DirectStateAccess(), c.Info().Version, want)
		}
		if err := r.begin(); err != nil {
			return err
		}
		h, err := r.tex.Create(0, pattern(sprites, 1), "probe")
		if err != nil {
			return err
		}
		var bound int32
		gl.ActiveTexture(gl.TEXTURE0)
		gl.GetIntegerv(gl.TEXTURE_BINDING_2D_ARRAY, &bound)
		if bound != 0 {
			t.Errorf("after New and Create, unit 0 holds array %d, want none", bound)
		}
		if err := r.tex.Bind(2, h.Class()); err != nil {
			return err
		}
		gl.ActiveTexture(gl.TEXTURE2)
		gl.GetIntegerv(gl.TEXTURE_BINDING_2D_ARRAY, &bound)
		gl.ActiveTexture(gl.TEXTURE0)
		if uint32(bound) != r.tex.Texture(h.Class()) {
			t.Errorf("after Bind(2, %d) unit 2 holds %d, want array %d", h.Class(), bound, r.tex.Texture(h.Class()))
		}
		if err := r.tex.Free(h); err != nil {
			return err
		}
		if err := r.end(); err != nil {
			return err
		}
		return r.close()
	})
}
