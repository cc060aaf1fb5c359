-- The audit trail's machinery (server/audit/audit-trail.ts describes it). Every statement is
-- plain SQL and PL/pgSQL that PGlite and PostgreSQL both run.
--
-- Columns never copied into old_values / new_values (credentials and secrets). A change of one
-- of them is still recorded: its name goes to details.redacted_changed.
CREATE OR REPLACE FUNCTION clinro_audit_redacted_columns() RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY[
    'password_hash', 'token_hash', 'password_ciphertext',
    'private_key', 'private_key_pem', 'private_jwk', 'secret'
  ]::text[]
$$;
--> statement-breakpoint
-- The canonical content of one audit row, hashed with the previous row's hash. jsonb prints its
-- keys in one fixed order, and the time is printed in UTC, so the text does not depend on the
-- session (time zone, date style) that computes it: the trigger and `audit verify` agree.
CREATE OR REPLACE FUNCTION clinro_audit_row_hash(prev_hash text, r audit_log) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(prev_hash || jsonb_build_object(
    'id', r.id,
    'at', to_char(r.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    'actor_user_id', r.actor_user_id,
    'action', r.action,
    'table_name', r.table_name,
    'row_key', r.row_key,
    'old_values', r.old_values,
    'new_values', r.new_values,
    'details', r.details
  )::text, 'UTF8')), 'hex')
$$;
--> statement-breakpoint
-- Chains each new row to the last one. The transaction-wide advisory lock is held until commit,
-- so the next writer reads this row as "last" only once it is committed: two concurrent writers
-- cannot both chain onto the same row, and ids follow the chain without gaps (a rolled-back
-- writer leaves nothing). The price: audit rows are written one transaction at a time; the row
-- triggers below are deferred to commit so that the lock is only held for those last moments.
CREATE OR REPLACE FUNCTION clinro_audit_chain() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  last_id bigint;
  last_hash text;
BEGIN
  PERFORM pg_advisory_xact_lock(7357002);
  SELECT id, hash INTO last_id, last_hash FROM audit_log ORDER BY id DESC LIMIT 1;
  NEW.id := coalesce(last_id, 0) + 1;
  NEW.at := clock_timestamp();
  NEW.prev_hash := coalesce(last_hash, '');
  NEW.hash := clinro_audit_row_hash(NEW.prev_hash, NEW);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER clinro_audit_log_chain BEFORE INSERT ON audit_log
FOR EACH ROW EXECUTE FUNCTION clinro_audit_chain();
--> statement-breakpoint
-- Append-only: the database itself refuses to change or remove audit rows.
CREATE OR REPLACE FUNCTION clinro_audit_log_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER clinro_audit_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log
FOR EACH STATEMENT EXECUTE FUNCTION clinro_audit_log_refuse_change();
--> statement-breakpoint
-- One audit row per changed row of an application table. The trigger's arguments are the
-- table's primary-key columns (clinro_attach_audit reads them), which make row_key.
-- It runs deferred, at commit (with OLD and NEW as they were at the change): taking the chain's
-- lock in the middle of a transaction that goes on to wait for row locks held by another
-- transaction, itself waiting for the chain's lock, would deadlock. At commit a transaction only
-- writes audit rows, so it never waits for anything but the lock. The actor is therefore the
-- transaction's clinro.actor_id as it stands at commit: one actor per transaction.
CREATE OR REPLACE FUNCTION clinro_audit_row() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  redacted text[] := clinro_audit_redacted_columns();
  old_row jsonb;
  new_row jsonb;
  source jsonb;
  key jsonb := '{}'::jsonb;
  key_column text;
  changed text[];
BEGIN
  IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW); END IF;
  source := coalesce(new_row, old_row);
  IF TG_NARGS > 0 THEN
    FOREACH key_column IN ARRAY TG_ARGV LOOP
      key := key || jsonb_build_object(key_column, source -> key_column);
    END LOOP;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    SELECT array_agg(c) INTO changed FROM unnest(redacted) AS c
    WHERE old_row ? c AND (old_row -> c) IS DISTINCT FROM (new_row -> c);
  END IF;
  INSERT INTO audit_log (actor_user_id, action, table_name, row_key, old_values, new_values, details)
  VALUES (
    nullif(current_setting('clinro.actor_id', true), '')::integer,
    lower(TG_OP),
    TG_TABLE_NAME,
    CASE WHEN key = '{}'::jsonb THEN NULL ELSE key END,
    old_row - redacted,
    new_row - redacted,
    CASE WHEN changed IS NULL THEN NULL ELSE jsonb_build_object('redacted_changed', to_jsonb(changed)) END
  );
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Attaches (or re-attaches) the audit trigger to one table. Every migration that creates a
-- table calls it: SELECT clinro_attach_audit('new_table'); (tests/api/audit-trail.test.ts fails
-- for a table of schema.ts without it).
CREATE OR REPLACE FUNCTION clinro_attach_audit(target regclass) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  key_columns text;
BEGIN
  IF target = 'audit_log'::regclass THEN
    RAISE EXCEPTION 'audit_log cannot audit itself';
  END IF;
  SELECT string_agg(quote_literal(a.attname), ', ' ORDER BY k.ord) INTO key_columns
  FROM pg_index i
  CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
  JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
  WHERE i.indrelid = target AND i.indisprimary;
  EXECUTE format('DROP TRIGGER IF EXISTS clinro_audit ON %s', target);
  EXECUTE format(
    'CREATE CONSTRAINT TRIGGER clinro_audit AFTER INSERT OR UPDATE OR DELETE ON %s '
    'DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION clinro_audit_row(%s)',
    target, coalesce(key_columns, '')
  );
END
$$;
--> statement-breakpoint
-- Every table that exists now (whatever migrations ran before this one).
SELECT clinro_attach_audit(format('%I.%I', table_schema, table_name)::regclass)
FROM information_schema.tables
WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'audit_log';
