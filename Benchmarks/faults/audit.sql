-- The fault trials' record of every committed change to a trial's store, with the server's
-- times: the history check_history.py reads.
--
-- Feedwork creates its tables itself (in a schema per trial, named t_...). An event trigger
-- puts a row trigger on each of them as it is created: `_runs`, `_state`, `_schedule` and the
-- entity tables. The row trigger writes one row of `faults.log` per inserted, updated or
-- deleted row, in the same transaction, so a change that rolls back leaves no log row and every
-- log row's transaction committed. Per row it keeps:
--   at       the server's clock when the change was made (clock_timestamp())
--   client   the address the change came from: each worker connects from an address of its own
--   pid      the server process (one per session)
-- and the dump adds `committed_at`, the commit time of the row's transaction
-- (track_commit_timestamp), also by the server's clock. Workers' clocks may be skewed; the
-- server's is the one clock every change is measured by.
--
-- The triggers change nothing Feedwork reads or writes; they add a row per changed row to each
-- transaction. Run as a superuser (the harness does, over the cluster's Unix socket).

CREATE SCHEMA faults;

CREATE TABLE faults.log (
    seq bigserial PRIMARY KEY,
    tbl text NOT NULL,
    op text NOT NULL,
    row_data jsonb NOT NULL,
    at timestamptz NOT NULL DEFAULT clock_timestamp(),
    client inet DEFAULT inet_client_addr(),
    pid int NOT NULL DEFAULT pg_backend_pid()
);

CREATE FUNCTION faults.log_row() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
BEGIN
    INSERT INTO faults.log(tbl, op, row_data)
    VALUES (TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME, TG_OP,
            CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END);
    RETURN NULL;
END $$;

CREATE FUNCTION faults.watch() RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
DECLARE
    made record;
BEGIN
    FOR made IN
        SELECT n.nspname, c.relname
        FROM pg_event_trigger_ddl_commands() AS d
        JOIN pg_class AS c ON c.oid = d.objid
        JOIN pg_namespace AS n ON n.oid = c.relnamespace
        WHERE d.command_tag = 'CREATE TABLE' AND d.object_type = 'table' AND c.relkind = 'r'
            AND n.nspname LIKE 't\_%'
            AND (c.relname IN ('_runs', '_state', '_schedule') OR c.relname NOT LIKE '\_%')
    LOOP
        EXECUTE format(
            'CREATE TRIGGER faults_log AFTER INSERT OR UPDATE OR DELETE ON %I.%I '
            'FOR EACH ROW EXECUTE FUNCTION faults.log_row()', made.nspname, made.relname);
    END LOOP;
END $$;

CREATE EVENT TRIGGER faults_watch ON ddl_command_end WHEN TAG IN ('CREATE TABLE')
    EXECUTE FUNCTION faults.watch();
