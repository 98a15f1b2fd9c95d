module github.com/steadyframe/steadyframe/examples/renderer

go 1.26.0

require (
	github.com/go-gl/gl v0.0.0-20231021071112-07e5d0ea2e71
	github.com/go-gl/glfw/v3.3/glfw v0.0.0-20260823155953-d41da22a9587
	github.com/steadyframe/steadyframe v0.0.0
)

require (
	github.com/ebitengine/oto/v3 v3.4.0 // indirect
	github.com/ebitengine/purego v0.9.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)

replace github.com/steadyframe/steadyframe => ../..
