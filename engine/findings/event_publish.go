package findings

import "github.com/fourd-dev/fourd/engine"

// newEvent builds an event with a fresh time-sortable id.
func (s *Service) newEvent(tenantID, typ string, data any) (engine.Event, error) {
	return engine.NewEvent(tenantID, typ, data, s.now())
}

// publisher is the Service's Publisher.
func (s *Service) publisher() engine.Publisher {
	return engine.Publisher{Events: s.cfg.Events, Log: s.cfg.EventLog, Logger: s.log}
}
