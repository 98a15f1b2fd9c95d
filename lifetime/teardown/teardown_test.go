package teardown

import (
	"bytes"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
)

// recorder builds stage functions that log their name when run.
type recorder struct{ ran []string }

func (r *recorder) stage(name string, err error) func() error {
	return func() error {
		r.ran = append(r.ran, name)
		return err
	}
}

func quietTeardown() (*Plan, *bytes.Buffer) {
	var buf bytes.Buffer
	return New(slog.New(slog.NewTextHandler(&buf, nil))), &buf
}

func TestTeardownRunsInDependencyOrder(t *testing.T) {
	td, logs := quietTeardown()
	var r recorder
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// Registered out of order on purpose; ties keep registration order.
	must(td.Add("sound-memory", r.stage("sound-memory", nil), "voices-stopall"))
	must(td.Add("gl-buffers", r.stage("gl-buffers", nil), "frames-drain"))
	must(td.Add("voices-stopall", r.stage("voices-stopall", nil)))
	must(td.Add("frames-drain", r.stage("frames-drain", nil)))
	must(td.Add("window", r.stage("window", nil), "gl-buffers", "sound-memory"))
	must(td.Uses("voices-stopall", "sound-memory"))
	want := []string{"voices-stopall", "sound-memory", "frames-drain", "gl-buffers", "window"}
	order, err := td.Validate()
	if err != nil || !slices.Equal(order, want) {
		t.Fatalf("Validate = %v, %v; want %v", order, err, want)
	}
	if err := td.Run(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.ran, want) {
		t.Fatalf("ran %v, want %v", r.ran, want)
	}
	for _, res := range td.Results() {
		if res.Status != StageOK || res.Err != nil {
			t.Fatalf("result %+v, want ok", res)
		}
		if !strings.Contains(logs.String(), "stage="+res.Name+" duration=") {
			t.Fatalf("stage %q not logged with its duration:\n%s", res.Name, logs)
		}
	}
}

func TestTeardownSkipsDependentsOfFailedStage(t *testing.T) {
	td, logs := quietTeardown()
	var r recorder
	stuck := errors.New("mixer did not stop")
	_ = td.Add("voices-stopall", r.stage("voices-stopall", stuck))
	_ = td.Add("sound-memory", r.stage("sound-memory", nil), "voices-stopall")
	_ = td.Add("sound-bank-files", r.stage("sound-bank-files", nil), "sound-memory")
	_ = td.Add("gl-buffers", r.stage("gl-buffers", nil))
	err := td.Run()
	if !errors.Is(err, stuck) || !errors.Is(err, ErrSkipped) {
		t.Fatalf("Run = %v, want the stage error and skips joined", err)
	}
	for _, want := range []string{
		`teardown: stage "voices-stopall": mixer did not stop`,
		`"sound-memory" not run because prerequisite "voices-stopall"`,
		`"sound-bank-files" not run because prerequisite "sound-memory"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("Run error %q lacks %q", err, want)
		}
	}
	// Independent stages still run: their resources are safe to release.
	if !slices.Equal(r.ran, []string{"voices-stopall", "gl-buffers"}) {
		t.Fatalf("ran %v, want only voices-stopall and the independent gl-buffers", r.ran)
	}
	got := map[string]Status{}
	for _, res := range td.Results() {
		got[res.Name] = res.Status
	}
	want := map[string]Status{"voices-stopall": StageFailed, "sound-memory": StageSkipped,
		"sound-bank-files": StageSkipped, "gl-buffers": StageOK}
	for name, st := range want {
		if got[name] != st {
			t.Fatalf("stage %q status %v, want %v", name, got[name], st)
		}
	}
	if !strings.Contains(logs.String(), "teardown: stage skipped") {
		t.Fatalf("skip not logged:\n%s", logs)
	}
}

func TestTeardownPanickingStageFailsOnlyItsDependents(t *testing.T) {
	td, _ := quietTeardown()
	var r recorder
	_ = td.Add("a", func() error { panic("device gone") })
	_ = td.Add("b", r.stage("b", nil), "a")
	_ = td.Add("c", r.stage("c", nil))
	err := td.Run()
	if err == nil || !strings.Contains(err.Error(), "panicked: device gone") || !errors.Is(err, ErrSkipped) {
		t.Fatalf("Run = %v, want the panic reported and b skipped", err)
	}
	if !slices.Equal(r.ran, []string{"c"}) {
		t.Fatalf("ran %v, want [c]", r.ran)
	}
}

func TestTeardownErrors(t *testing.T) {
	nop := func() error { return nil }
	tests := []struct {
		name  string
		build func(td *Plan) error // returns the first error from Add/Uses, if any
		is    error
		want  string
	}{
		{"duplicate stage", func(td *Plan) error {
			_ = td.Add("a", nop)
			return td.Add("a", nop)
		}, ErrDuplicate, `"a"`},
		{"empty name", func(td *Plan) error { return td.Add("", nop) }, ErrInvalidConfig, "empty name"},
		{"nil function", func(td *Plan) error { return td.Add("a", nil) }, ErrInvalidConfig, `"a" has a nil function`},
		{"follows itself", func(td *Plan) error { return td.Add("a", nop, "a") }, ErrCycle, `"a" after "a"`},
		{"bad uses", func(td *Plan) error { return td.Uses("a", "a") }, ErrInvalidConfig, "two different stage names"},
		{"unknown dependency", func(td *Plan) error {
			_ = td.Add("gl-buffers", nop, "drain")
			return nil
		}, ErrUnknown, `"gl-buffers" follows unknown stage "drain"`},
		{"unknown uses", func(td *Plan) error {
			_ = td.Add("sound-memory", nop)
			return td.Uses("voices", "sound-memory")
		}, ErrUnknown, `names unknown stage "voices"`},
		{"cycle", func(td *Plan) error {
			_ = td.Add("x", nop)
			_ = td.Add("a", nop, "c")
			_ = td.Add("b", nop, "a", "x")
			_ = td.Add("c", nop, "b")
			return nil
		}, ErrCycle, "a after c after b after a"},
		{"resource released while in use", func(td *Plan) error {
			_ = td.Add("sound-memory", nop)
			_ = td.Add("voices-stopall", nop)
			return td.Uses("voices-stopall", "sound-memory")
		}, ErrOrder, `stage "sound-memory" releases a resource that stage "voices-stopall" still uses`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			td, _ := quietTeardown()
			err := tt.build(td)
			if err == nil {
				// Graph errors surface at validation, before anything runs.
				if _, verr := td.Validate(); verr == nil {
					t.Fatal("Validate accepted an invalid teardown")
				}
				err = td.Run()
				if res := td.Results(); res != nil {
					t.Fatalf("an invalid teardown ran stages: %+v", res)
				}
			}
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %v mentioning %q", err, tt.is, tt.want)
			}
		})
	}
}

// TestTeardownDuplicateKeepsFirst: a stage registered twice is refused and
// the first registration, with its prerequisites, is what runs.
func TestTeardownDuplicateKeepsFirst(t *testing.T) {
	td, _ := quietTeardown()
	var r recorder
	if err := td.Add("drain", r.stage("drain", nil)); err != nil {
		t.Fatal(err)
	}
	if err := td.Add("buffers", r.stage("first buffers", nil), "drain"); err != nil {
		t.Fatal(err)
	}
	if err := td.Add("buffers", r.stage("second buffers", nil)); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("second Add = %v, want ErrDuplicate", err)
	}
	if err := td.Run(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"drain", "first buffers"}; !slices.Equal(r.ran, want) {
		t.Fatalf("ran %v, want %v", r.ran, want)
	}
	if res := td.Results(); len(res) != 2 {
		t.Fatalf("results %+v, want two stages", res)
	}
}

func TestTeardownUsesSatisfiedTransitively(t *testing.T) {
	td, _ := quietTeardown()
	nop := func() error { return nil }
	_ = td.Add("voices-stopall", nop)
	_ = td.Add("mixer-close", nop, "voices-stopall")
	_ = td.Add("sound-memory", nop, "mixer-close")
	if err := td.Uses("voices-stopall", "sound-memory"); err != nil {
		t.Fatal(err)
	}
	if _, err := td.Validate(); err != nil {
		t.Fatalf("Validate = %v; sound-memory follows voices-stopall through mixer-close", err)
	}
}

func TestTeardownRunTwice(t *testing.T) {
	td, _ := quietTeardown()
	calls := 0
	_ = td.Add("a", func() error { calls++; return nil })
	if err := td.Run(); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"Run":  td.Run(),
		"Add":  td.Add("b", func() error { return nil }),
		"Uses": td.Uses("a", "b"),
	} {
		if !errors.Is(err, ErrTwice) {
			t.Fatalf("%s after Run = %v, want ErrTwice", name, err)
		}
	}
	if calls != 1 {
		t.Fatalf("stage ran %d times, want once", calls)
	}
}

func TestTeardownFixAfterValidationFailure(t *testing.T) {
	td, _ := quietTeardown()
	ran := false
	_ = td.Add("gl-buffers", func() error { ran = true; return nil }, "drain")
	if err := td.Run(); !errors.Is(err, ErrUnknown) || ran {
		t.Fatalf("Run = %v (ran %v), want ErrUnknown and nothing run", err, ran)
	}
	_ = td.Add("drain", func() error { return nil })
	if err := td.Run(); err != nil || !ran {
		t.Fatalf("Run after adding the missing stage = %v (ran %v)", err, ran)
	}
}

func TestStageStatusString(t *testing.T) {
	for st, want := range map[Status]string{StageNotRun: "not run", StageOK: "ok", StageFailed: "failed", StageSkipped: "skipped"} {
		if st.String() != want {
			t.Fatalf("%d.String() = %q, want %q", st, st.String(), want)
		}
	}
}
