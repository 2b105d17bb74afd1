package audit

import "github.com/fourd-dev/fourd/engine"

var _ engine.MuteCompiler = (*Evaluators)(nil)

// CompileMute compiles a mute rule expression in the severity policies'
// environment (`finding` and `resource`), with their limits.
func (e *Evaluators) CompileMute(expr string) (engine.MuteMatcher, error) {
	m, err := e.compiler.CompileMute(expr)
	if err != nil {
		return nil, err
	}
	return m, nil
}
