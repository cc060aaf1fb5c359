-- Published consent versions never change (issue 10): the database refuses UPDATE and DELETE
-- of consent_versions, on PGlite and PostgreSQL alike. (Signatures are protected by their
-- hashes and the audit trail instead: a changed row fails verification and the change is logged.)
CREATE OR REPLACE FUNCTION clinro_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows cannot be changed or removed', TG_TABLE_NAME USING ERRCODE = 'check_violation';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER consent_versions_immutable BEFORE UPDATE OR DELETE ON consent_versions
  FOR EACH ROW EXECUTE FUNCTION clinro_refuse_change();
--> statement-breakpoint
-- The consent tables of migration 0009 join the audit trail (migration 0008).
SELECT clinro_attach_audit('consent_versions');
--> statement-breakpoint
SELECT clinro_attach_audit('consent_signings');
--> statement-breakpoint
SELECT clinro_attach_audit('consent_signatures');
--> statement-breakpoint
SELECT clinro_attach_audit('signing_keys');
