-- Who made a change outside the portal: the `clinro` command's session names its operator in the
-- session setting clinro.actor_label (server/cli/cli-actor.ts), e.g. cli:alice@db-host, which
-- every audit row written in that session carries as details.actor_label. Set here, before the
-- row's hash, so that the chain covers it like any other content (clinro_audit_row_hash hashes
-- details) and `audit verify` recomputes the same hash. The server never sets the label: its
-- rows are written as before.
CREATE OR REPLACE FUNCTION clinro_audit_chain() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  last_id bigint;
  last_hash text;
  actor_label text := nullif(current_setting('clinro.actor_label', true), '');
BEGIN
  PERFORM pg_advisory_xact_lock(7357002);
  SELECT id, hash INTO last_id, last_hash FROM audit_log ORDER BY id DESC LIMIT 1;
  NEW.id := coalesce(last_id, 0) + 1;
  NEW.at := clock_timestamp();
  IF actor_label IS NOT NULL THEN
    NEW.details := coalesce(NEW.details, '{}'::jsonb) || jsonb_build_object('actor_label', actor_label);
  END IF;
  NEW.prev_hash := coalesce(last_hash, '');
  NEW.hash := clinro_audit_row_hash(NEW.prev_hash, NEW);
  RETURN NEW;
END
$$;
