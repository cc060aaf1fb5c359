ALTER TABLE "consents" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "instruments" ADD COLUMN "start_offset_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instruments" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "client_id" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "participants_study_subject_id_key" ON "participants" USING btree ("study_id","subject_id") WHERE "participants"."subject_id" <> '';--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_client_id_unique" UNIQUE("client_id");