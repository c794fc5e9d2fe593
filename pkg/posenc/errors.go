package posenc

import "github.com/posenc/course/internal/validate"

// ParamError reports a size, configuration or position that an encoding
// cannot use:
//
//	type ParamError struct {
//		Param  string // the parameter's name, as the documentation spells it
//		Value  any    // the value that was given
//		Reason string // what the value must be, e.g. "must be even"
//	}
//
// Its message, "posenc: <param> <reason>, got <value>", names the parameter
// and its value, for example "posenc: dim must be even, got 7". Every
// function of this package and of package posgraph reports bad input with
// one; the type is shared with posgraph through the module's internal
// validation package, which is why it is declared there.
type ParamError = validate.ParamError
