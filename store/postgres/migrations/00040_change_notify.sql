-- Change notifications for the engine's per-tenant read caches (the latest
-- completed audit, the finding overrides). Triggers send them from the
-- writing transaction, so every writer (any replica, a worker, the CLI, a
-- cascade) is covered; PostgreSQL delivers them to the listeners of the
-- channel fourd_changes when the transaction commits, and not at all when it
-- rolls back. The payload is "<kind> <tenant id>" (Store.Follow parses it).

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION fourd_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('fourd_changes', TG_ARGV[0] || ' ' || OLD.tenant_id);
    ELSE
        PERFORM pg_notify('fourd_changes', TG_ARGV[0] || ' ' || NEW.tenant_id);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- The latest completed audit depends on which audits are completed and when.
-- Progress updates of running audits (frequent) notify nobody.
CREATE TRIGGER audits_notify_insert AFTER INSERT ON audits
    FOR EACH ROW WHEN (NEW.status = 'completed')
    EXECUTE FUNCTION fourd_notify_change('audits');
CREATE TRIGGER audits_notify_update AFTER UPDATE ON audits
    FOR EACH ROW WHEN ((OLD.status = 'completed' OR NEW.status = 'completed') AND
        (OLD.status IS DISTINCT FROM NEW.status OR OLD.completed_at IS DISTINCT FROM NEW.completed_at))
    EXECUTE FUNCTION fourd_notify_change('audits');
CREATE TRIGGER audits_notify_delete AFTER DELETE ON audits
    FOR EACH ROW WHEN (OLD.status = 'completed')
    EXECUTE FUNCTION fourd_notify_change('audits');

CREATE TRIGGER finding_overrides_notify AFTER INSERT OR UPDATE OR DELETE ON finding_overrides
    FOR EACH ROW EXECUTE FUNCTION fourd_notify_change('overrides');

-- +goose Down
DROP TRIGGER finding_overrides_notify ON finding_overrides;
DROP TRIGGER audits_notify_delete ON audits;
DROP TRIGGER audits_notify_update ON audits;
DROP TRIGGER audits_notify_insert ON audits;
DROP FUNCTION fourd_notify_change();
