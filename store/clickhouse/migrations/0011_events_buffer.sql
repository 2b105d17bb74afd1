-- The event log is written through a Buffer table: a bulk import logs a
-- resource.added per new resource, in one INSERT per write batch, and each
-- INSERT made a part of its own, which cost the server about as much as
-- the resources themselves (docs/benchmarks.md, issue 5). The buffer
-- gathers them in the server's memory and writes them to events in few
-- parts: when 10 s, 100k rows and 10 MB have all passed, or 60 s, 1M rows
-- or 100 MB has. Rows it holds are lost if the server stops abruptly
-- (not when it shuts down): the log is the analytic copy, the PostgreSQL
-- outbox the durable one. Reads through events_buffer see both. The
-- destination database is named literally ({database}, set by Migrate):
-- an expression such as currentDatabase() would be evaluated again when
-- the server attaches the table at start, in another database.
CREATE TABLE IF NOT EXISTS events_buffer AS events
ENGINE = Buffer({database}, 'events', 1, 10, 60, 100000, 1000000, 10000000, 100000000);
