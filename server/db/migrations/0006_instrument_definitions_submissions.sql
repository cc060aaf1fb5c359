CREATE TABLE "instrument_definitions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "instrument_definitions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"instrument_id" integer NOT NULL,
	"version_number" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"served_as" text DEFAULT 'json' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "instrument_definitions_instrument_version_key" UNIQUE("instrument_id","version_number"),
	CONSTRAINT "instrument_definitions_served_as_check" CHECK ("instrument_definitions"."served_as" in ('json', 'zip'))
);
--> statement-breakpoint
CREATE TABLE "instrument_submissions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "instrument_submissions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"instrument_id" integer NOT NULL,
	"participant_id" integer NOT NULL,
	"instrument_instance_id" integer,
	"client_instance_id" text NOT NULL,
	"version_number" integer NOT NULL,
	"submitted_by" integer NOT NULL,
	"completed_at" timestamp with time zone NOT NULL,
	"payload" jsonb NOT NULL,
	"scores" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "instrument_definitions" ADD CONSTRAINT "instrument_definitions_instrument_id_instruments_id_fk" FOREIGN KEY ("instrument_id") REFERENCES "public"."instruments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instrument_submissions" ADD CONSTRAINT "instrument_submissions_instrument_id_instruments_id_fk" FOREIGN KEY ("instrument_id") REFERENCES "public"."instruments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instrument_submissions" ADD CONSTRAINT "instrument_submissions_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instrument_submissions" ADD CONSTRAINT "instrument_submissions_instrument_instance_id_instrument_instances_id_fk" FOREIGN KEY ("instrument_instance_id") REFERENCES "public"."instrument_instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instrument_submissions" ADD CONSTRAINT "instrument_submissions_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "instrument_submissions_participant_idx" ON "instrument_submissions" USING btree ("participant_id","instrument_id");