package exports

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// resourceCSVRecord is a resource as a CSV row of ResourceCSVColumns.
func resourceCSVRecord(r engine.Resource, rec []string) ([]string, error) {
	tags, err := json.Marshal(r.Tags)
	if err != nil {
		return nil, err
	}
	captured := ""
	if r.CapturedAt != nil {
		captured = r.CapturedAt.UTC().Format(time.RFC3339)
	}
	rec = append(rec[:0], r.ID, r.Provider, r.Account, r.Region, r.Type, r.NativeID, r.Name, string(tags),
		r.FirstSeenAt.UTC().Format(time.RFC3339), r.LastSeenAt.UTC().Format(time.RFC3339), captured)
	for i, c := range rec {
		rec[i] = csvSafe(c)
	}
	return rec, nil
}

// ExportResources prepares an export of the tenant's inventory matching f
// (the filters of ListResources) in format csv or ndjson (one resource a
// line, as the list shows it), in id order, read a store page at a time
// when the Export is written.
func (s *Service) ExportResources(ctx context.Context, p engine.Principal, f engine.ResourceFilter, format string) (*Export, error) {
	if err := s.require(p, engine.ScopeResourcesRead); err != nil {
		return nil, err
	}
	ef, err := parseFormat(format, engine.ExportCSV, engine.ExportNDJSON)
	if err != nil {
		return nil, err
	}
	exp := &Export{ContentType: exportContentType(ef), Filename: exportFile("resources", ef, s.cfg.Now())}
	exp.write = func(ctx context.Context, w *bufio.Writer, flush func() error) error {
		var put func(engine.Resource) error
		sync := func() error { return nil }
		if ef == engine.ExportCSV {
			cw := csv.NewWriter(w)
			cw.UseCRLF = true // RFC 4180
			if err := cw.Write(ResourceCSVColumns); err != nil {
				return err
			}
			var rec []string
			put = func(r engine.Resource) error {
				if rec, err = resourceCSVRecord(r, rec); err != nil {
					return err
				}
				return cw.Write(rec)
			}
			sync = func() error {
				cw.Flush()
				return cw.Error()
			}
		} else {
			enc := json.NewEncoder(w)
			put = func(r engine.Resource) error { return enc.Encode(r) }
		}
		q := engine.ResourceQuery{TenantID: p.TenantID, Filter: f, Limit: s.cfg.PageSize}
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			pctx, cancel := exp.pageCtx(ctx)
			rows, err := s.cfg.Resources.ListResources(pctx, q)
			cancel()
			if err != nil {
				return err
			}
			for _, r := range rows {
				if err := put(r); err != nil {
					return err
				}
			}
			if err := sync(); err != nil {
				return err
			}
			if err := flush(); err != nil {
				return err
			}
			if len(rows) < q.Limit {
				return nil
			}
			q.AfterID = rows[len(rows)-1].ID
		}
	}
	return exp, nil
}
