package font_test

import (
	"fmt"

	"github.com/steadyframe/steadyframe/internal/font"
)

// Bake every page of the face at scale 2 and lay out a label.
func Example() {
	a, err := font.NewAtlas(2, 8)
	if err != nil {
		panic(err)
	}
	page := make([]byte, a.PageBytes())
	for p := 0; p < a.Pages; p++ {
		if err := a.BakePage(p, page); err != nil {
			panic(err)
		}
		// Upload page as texture p here.
	}
	quads := font.Layout(&a, nil, "LIVE 12", 0, 0)
	fmt.Println(a.Pages, "pages,", len(quads), "quads, first on page", quads[0].Page)
	// Output: 7 pages, 6 quads, first on page 2
}
