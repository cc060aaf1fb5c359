CREATE TABLE "instrument_instances" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "instrument_instances_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"instrument_id" integer NOT NULL,
	"participant_id" integer NOT NULL,
	"start_date" timestamp with time zone NOT NULL,
	"expiration" timestamp with time zone,
	"completion" timestamp with time zone,
	"who_completed" integer
);
--> statement-breakpoint
CREATE TABLE "instruments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "instruments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"study_id" integer NOT NULL,
	"name" text NOT NULL,
	"display_name" text NOT NULL,
	"instrument_type" text NOT NULL,
	"slug" text NOT NULL,
	"permissions" text[] DEFAULT '{16,11,12,13}'::text[] NOT NULL,
	"visible_days" integer DEFAULT 1 NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "instrument_instances" ADD CONSTRAINT "instrument_instances_instrument_id_instruments_id_fk" FOREIGN KEY ("instrument_id") REFERENCES "public"."instruments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instrument_instances" ADD CONSTRAINT "instrument_instances_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instrument_instances" ADD CONSTRAINT "instrument_instances_who_completed_users_id_fk" FOREIGN KEY ("who_completed") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instruments" ADD CONSTRAINT "instruments_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "instrument_instances_participant_idx" ON "instrument_instances" USING btree ("participant_id","instrument_id");--> statement-breakpoint
CREATE INDEX "instruments_study_idx" ON "instruments" USING btree ("study_id");