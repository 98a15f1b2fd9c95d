package glcaps_test

import (
	"errors"
	"fmt"

	"github.com/steadyframe/steadyframe/glcaps"
)

// What a backend's constructor does before its first GL call. Here no
// context is current, so the check says so, and what to do, where a GL
// call would have crashed the process.
func ExampleCheck() {
	err := glcaps.Check(glcaps.FeatureSync, glcaps.FeatureDirectStateAccess)
	fmt.Println(errors.Is(err, glcaps.ErrNoContext))
	fmt.Println(err)
	// Output:
	// true
	// glcaps: no current OpenGL context: glGetString(GL_VERSION) returned NULL; make the application's context current on this thread first
}
