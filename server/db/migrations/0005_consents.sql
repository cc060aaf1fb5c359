CREATE TABLE "consent_participants" (
	"consent_id" integer NOT NULL,
	"participant_id" integer NOT NULL,
	"version" integer NOT NULL,
	"status" text NOT NULL,
	CONSTRAINT "consent_participants_consent_id_participant_id_pk" PRIMARY KEY("consent_id","participant_id")
);
--> statement-breakpoint
CREATE TABLE "consents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "consents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"study_id" integer NOT NULL,
	"title" text NOT NULL,
	"type" text DEFAULT 'CONSENT' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"date_deployed" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consent_participants" ADD CONSTRAINT "consent_participants_consent_id_consents_id_fk" FOREIGN KEY ("consent_id") REFERENCES "public"."consents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_participants" ADD CONSTRAINT "consent_participants_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consent_participants_participant_idx" ON "consent_participants" USING btree ("participant_id");--> statement-breakpoint
CREATE INDEX "consents_study_idx" ON "consents" USING btree ("study_id");