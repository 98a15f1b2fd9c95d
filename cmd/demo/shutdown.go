package main

import (
	"fmt"
	"image"
	"image/png"
	"os"

	"github.com/go-gl/gl/v4.5-core/gl"

	"github.com/steadyframe/steadyframe/lifetime/teardown"
)

// capture reads the frame just drawn (before the swap) into d.shot.
func (d *demo) capture() {
	w, h := d.w, d.h
	if len(d.shot) != w*h*4 {
		d.shot = make([]byte, w*h*4)
	}
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	gl.ReadPixels(0, 0, int32(w), int32(h), gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(d.shot))
}

// saveScreenshot writes the captured frame as a PNG, top row first.
func (d *demo) saveScreenshot(path string) error {
	if path == "" {
		return nil
	}
	if d.shot == nil {
		return fmt.Errorf("demo: no frame captured for %s", path)
	}
	w, h := d.w, d.h
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		// GL's rows start at the bottom.
		copy(img.Pix[y*img.Stride:(y+1)*img.Stride], d.shot[(h-1-y)*w*4:(h-y)*w*4])
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("demo: screenshot: %w", err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("demo: screenshot: %w", err)
	}
	d.log.Info("demo: screenshot written", "path", path, "size", fmt.Sprintf("%dx%d", w, h))
	return f.Close()
}

// teardown is the explicit, logged shutdown order: voices stop before the
// sound memory they read is released, and the frames drain before the
// textures and the upload buffer the GPU may still read are deleted.
func (d *demo) teardown() error {
	td := teardown.New(d.log)
	var graphErr error
	must := func(err error) {
		if err != nil && graphErr == nil {
			graphErr = fmt.Errorf("demo: teardown graph: %w", err)
		}
	}
	must(td.Add("voices-stopall", d.snd.stopAll))
	must(td.Add("sound-memory", d.snd.releaseBanks, "voices-stopall"))
	must(td.Add("audio-device", d.snd.close, "sound-memory"))
	must(td.Add("textures-free", func() error {
		if d.tex == nil {
			return nil
		}
		return d.tex.release()
	}))
	// Draining the clock deletes the freed textures; the Manager and the
	// Set refuse to close before it, and the clock before them.
	must(td.Add("frames-drain", d.clock.Drain, "textures-free"))
	must(td.Add("descriptors-close", d.mgr.Close, "frames-drain"))
	must(td.Add("upload-unmap", d.set.Close, "frames-drain"))
	must(td.Add("frames-close", d.clock.Close, "descriptors-close", "upload-unmap"))
	must(td.Add("gl-context", func() error {
		d.qr.Release()
		err := d.ctx.Close()
		_ = d.xv.Stop()
		return err
	}, "frames-close"))
	must(td.Uses("voices-stopall", "sound-memory"))
	must(td.Uses("frames-drain", "descriptors-close"))
	must(td.Uses("frames-drain", "upload-unmap"))
	must(td.Uses("descriptors-close", "frames-close"))
	must(td.Uses("upload-unmap", "frames-close"))
	if graphErr != nil {
		return graphErr
	}
	return td.Run()
}

// release undoes a partly built demo after newDemo failed.
func (d *demo) release() {
	if d.snd != nil {
		_ = d.snd.close()
	}
	if d.qr != nil {
		d.qr.Release()
	}
	if d.clock != nil {
		_ = d.clock.Drain()
	}
	if d.mgr != nil {
		_ = d.mgr.Close()
	}
	if d.set != nil {
		_ = d.set.Close()
	}
	if d.clock != nil {
		_ = d.clock.Close()
	}
	if d.ctx != nil {
		_ = d.ctx.Close()
	}
	_ = d.xv.Stop()
}
