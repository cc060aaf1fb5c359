CREATE TABLE "consent_signatures" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "consent_signatures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"signing_id" integer NOT NULL,
	"consent_id" integer NOT NULL,
	"participant_id" integer NOT NULL,
	"version" integer NOT NULL,
	"question_id" text NOT NULL,
	"role" text NOT NULL,
	"meaning" text NOT NULL,
	"printed_name" text NOT NULL,
	"signature_type" text NOT NULL,
	"value" text NOT NULL,
	"signer_user_id" integer,
	"captured_at" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"time_zone" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "consent_signatures_role_check" CHECK ("consent_signatures"."role" in ('participant', 'caregiver', 'clinro', 'witness'))
);
--> statement-breakpoint
CREATE TABLE "consent_signings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "consent_signings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"consent_id" integer NOT NULL,
	"participant_id" integer NOT NULL,
	"version" integer NOT NULL,
	"user_id" integer NOT NULL,
	"endpoint" text NOT NULL,
	"records" jsonb NOT NULL,
	"completion" timestamp with time zone NOT NULL,
	"browser_info" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consent_signings_endpoint_check" CHECK ("consent_signings"."endpoint" in ('clinro', 'witness'))
);
--> statement-breakpoint
CREATE TABLE "consent_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "consent_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"consent_id" integer NOT NULL,
	"version" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consent_versions_consent_version_key" UNIQUE("consent_id","version")
);
--> statement-breakpoint
CREATE TABLE "signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"private_key_pem" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "definition_key" text;--> statement-breakpoint
ALTER TABLE "consent_signatures" ADD CONSTRAINT "consent_signatures_signing_id_consent_signings_id_fk" FOREIGN KEY ("signing_id") REFERENCES "public"."consent_signings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_signatures" ADD CONSTRAINT "consent_signatures_consent_id_consents_id_fk" FOREIGN KEY ("consent_id") REFERENCES "public"."consents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_signatures" ADD CONSTRAINT "consent_signatures_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_signatures" ADD CONSTRAINT "consent_signatures_signer_user_id_users_id_fk" FOREIGN KEY ("signer_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_signings" ADD CONSTRAINT "consent_signings_consent_id_consents_id_fk" FOREIGN KEY ("consent_id") REFERENCES "public"."consents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_signings" ADD CONSTRAINT "consent_signings_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_signings" ADD CONSTRAINT "consent_signings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_versions" ADD CONSTRAINT "consent_versions_consent_id_consents_id_fk" FOREIGN KEY ("consent_id") REFERENCES "public"."consents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consent_signatures_participant_idx" ON "consent_signatures" USING btree ("participant_id","consent_id","version");--> statement-breakpoint
CREATE INDEX "consent_signings_participant_idx" ON "consent_signings" USING btree ("participant_id","consent_id","version");--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_study_definition_key" UNIQUE("study_id","definition_key");