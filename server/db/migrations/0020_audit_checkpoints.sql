-- The audit chain's head, checkpointed (server/audit/audit-checkpoints.ts describes it). A chain
-- cut at its tail is still a valid chain; a checkpoint says how far it reached, so that
-- `clinro audit verify` finds the missing rows. Owned by the migrations' role: when the server
-- runs under a role of its own (docs/operations.md), that role may read checkpoints and add one
-- through clinro_audit_checkpoint() only, never write or remove one. Not audited itself: a
-- checkpoint's own audit row would move the head it records.
CREATE TABLE "audit_checkpoints" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "at" timestamp with time zone NOT NULL DEFAULT clock_timestamp(),
  -- The chain's rows are numbered 1 to n (migration 0008): the last row's id is the row count.
  "last_id" bigint NOT NULL,
  "last_hash" text NOT NULL,
  -- What made it: backup, audit export, audit verify, server start.
  "source" text NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION clinro_audit_checkpoints_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_checkpoints is append-only: % is refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER clinro_audit_checkpoints_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_checkpoints
FOR EACH STATEMENT EXECUTE FUNCTION clinro_audit_checkpoints_refuse_change();
--> statement-breakpoint
-- Records the chain's head as it is now. SECURITY DEFINER: it runs as the migrations' role, so
-- the server's role can add a checkpoint without any right on the table, and can only record
-- the real head, never a value of its own. Under the chain's lock, so no row is added meanwhile.
CREATE OR REPLACE FUNCTION clinro_audit_checkpoint(checkpoint_source text) RETURNS audit_checkpoints
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  head audit_log%ROWTYPE;
  made audit_checkpoints;
BEGIN
  PERFORM pg_advisory_xact_lock(7357002);
  SELECT * INTO head FROM audit_log ORDER BY id DESC LIMIT 1;
  -- An empty trail has no head to keep: answered, not recorded (a restore needs empty tables).
  IF head.id IS NULL THEN
    made.id := 0;
    made.at := clock_timestamp();
    made.last_id := 0;
    made.last_hash := '';
    made.source := checkpoint_source;
    RETURN made;
  END IF;
  INSERT INTO audit_checkpoints (last_id, last_hash, source)
  VALUES (head.id, head.hash, checkpoint_source)
  RETURNING * INTO made;
  RETURN made;
END
$$;
