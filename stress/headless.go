package main

import (
	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/upload"
)

// cpuTextures is the headless texturer: descriptor slots with no device
// object behind them. Creating a texture still copies its pixels into the
// renderer arena, as a GL upload through a pixel unpack buffer would, so a
// headless run carries the same upload traffic as a windowed one.
//
// A cpuTextures belongs to the render goroutine.
type cpuTextures struct {
	heap  *descriptors.Heap
	arena *upload.Arena
}

func (c *cpuTextures) Create(w, h int, rgba []byte) (descriptors.Handle, error) {
	hd, err := c.heap.Alloc()
	if err != nil {
		return descriptors.Handle{}, err
	}
	if _, view, err := c.arena.Alloc(len(rgba), 256); err == nil {
		copy(view, rgba)
	}
	return hd, nil
}

func (c *cpuTextures) Free(h descriptors.Handle) error { return c.heap.Free(h) }

func (c *cpuTextures) Name(descriptors.Handle) uint32 { return 0 }

func (c *cpuTextures) Heap() *descriptors.Heap { return c.heap }

func (c *cpuTextures) Close() error { return c.heap.Close() }
